/**
 * The planner tests' like GPUs: `count` H100s of one machine (ids m/gpu:0..), every pair linked
 * alike, and a per-device time table over them.
 */
import type { PlanProblem } from '../../src-main/core/planner/types.js';

export interface LikeGpus {
  ids: string[];
  devices: PlanProblem['devices'];
  links: PlanProblem['links'];
  /** The same time on every device, by id. */
  times: (us: number) => Record<string, number>;
}

export function likeGpus(count: number, opts: { memoryGB?: number; alphaUs?: number; gbps?: number } = {}): LikeGpus {
  const ids = Array.from({ length: count }, (_, i) => `m/gpu:${i}`);
  const { memoryGB = 80, alphaUs = 5, gbps = 200 } = opts;
  return {
    ids,
    devices: ids.map((id) => ({
      id,
      name: 'H100',
      kind: 'gpu',
      machine: 'm',
      memoryBytes: memoryGB * 1e9,
      estimate: 'datasheet',
    })),
    links: ids.flatMap((a, i) => ids.slice(i + 1).map((b) => ({ a, b, alphaUs, gbps, kind: 'NV' }))),
    times: (us) => Object.fromEntries(ids.map((id) => [id, us])),
  };
}

/**
 * A training problem on eight like GPUs: four layers of 1e9 parameters (1 ms forward, 2 ms backward
 * a layer), a batch of 8, 16 bytes of state a parameter; `over` sets what a test varies.
 */
export function likeGpuTraining(over: Partial<PlanProblem> = {}): PlanProblem {
  const { devices, links, times } = likeGpus(8);
  return {
    layers: Array.from({ length: 4 }, (_, i) => ({
      name: `block.${i}`,
      forwardUs: times(1000),
      backwardUs: times(2000),
      params: 1e9,
      outBytesPerSample: 1e6,
      activationBytesPerSample: 1e7,
    })),
    devices,
    links,
    mode: 'training',
    batch: 8,
    bytesPerParam: 16,
    zeroStage: 1,
    overheadBytes: 0,
    ...over,
  };
}
