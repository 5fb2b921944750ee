/**
 * The planner tests' small training problem: four layers of 1e8 parameters (1e5 bytes out and 1e6
 * of activations per sample) on GPUs a and b of machine m, joined by one link; batch 8, 16 bytes
 * per parameter (mixed-precision Adam), ZeRO 0 and no overhead unless `over` says otherwise.
 */
import type { PlanProblem } from '../../src-main/core/planner/types.js';

export interface TwoGpus {
  /** Each layer's forward time per sample on a and on b (µs); its backward takes twice as long. */
  forwardUs: { a: number; b: number };
  /** The GPUs' names (the same name: the same model) and the memory of each. */
  names: [string, string];
  memoryBytes: number;
  link: { alphaUs: number; gbps: number; kind: string };
}

/**
 * Two GPUs of 2.5 GB on a PCIe switch, b 1.5x slower than a: too small for the four layers' whole
 * optimizer state (6.4 GB), large enough for their fp16 weights and gradients.
 */
export const SMALL_GPUS: TwoGpus = {
  forwardUs: { a: 100, b: 150 },
  names: ['A', 'B'],
  memoryBytes: 2.5e9,
  link: { alphaUs: 10, gbps: 10, kind: 'PIX' },
};

/** A training problem's settings the planner tests share: batch 8, Adam at 16 bytes a parameter, no ZeRO. */
export const TRAINING_DEFAULTS = {
  mode: 'training',
  batch: 8,
  bytesPerParam: 16,
  zeroStage: 0,
  overheadBytes: 0,
} as const satisfies Partial<PlanProblem>;

export function twoGpuProblem(gpus: TwoGpus, over: Partial<PlanProblem> = {}): PlanProblem {
  const { a, b } = gpus.forwardUs;
  const layers = Array.from({ length: 4 }, (_, i) => ({
    name: `l${i}`,
    forwardUs: { a, b },
    backwardUs: { a: 2 * a, b: 2 * b },
    params: 1e8,
    outBytesPerSample: 1e5,
    activationBytesPerSample: 1e6,
  }));
  const gpu = (id: string, name: string): PlanProblem['devices'][number] => ({
    id,
    name,
    kind: 'gpu',
    machine: 'm',
    memoryBytes: gpus.memoryBytes,
    estimate: 'profiled',
  });
  return {
    layers,
    devices: [gpu('a', gpus.names[0]), gpu('b', gpus.names[1])],
    links: [{ a: 'a', b: 'b', ...gpus.link }],
    ...TRAINING_DEFAULTS,
    ...over,
  };
}
