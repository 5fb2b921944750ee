/** Synthetic kernel timings with a known law, for predictor tests. */
import { makeKernel } from '../../src-main/core/kernels/cost.js';
import type { Measurement } from '../../src-main/core/domain/measurement.js';
import type { DeviceFeatures, Sample } from '../../src-main/core/predictor/types.js';
import { rooflineParts } from '../../src-main/core/predictor/features.js';

export function device(id: string, gflops: number, gbps: number, threads = 4): DeviceFeatures {
  return {
    deviceId: id,
    kind: 'cpu',
    peakGflops: { fp32: gflops },
    bandwidthGBps: gbps,
    dispatchUs: 5,
    threads,
    l2Bytes: 2 ** 21,
    l3Bytes: 2 ** 25,
    smCount: null,
    smClockMHz: null,
  };
}

/** Family efficiencies of the synthetic law: time = 5 µs + bound / efficiency. */
export const EFFICIENCY: Record<string, number> = { gemm: 0.8, elementwise: 0.6, softmax: 0.4 };

export function syntheticSamples(devices: DeviceFeatures[], noise = 0, seed = 1): Sample[] {
  let state = seed;
  const rand = (): number => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const out: Sample[] = [];
  for (const d of devices) {
    for (const n of [64, 96, 128, 192, 256, 384, 512, 768, 1024]) {
      for (const k of [
        makeKernel('MatMul', 'fp32', { B: 1, M: n, N: n, K: n }),
        makeKernel('Add', 'fp32', { n: n * n * 4 }),
        makeKernel('Softmax', 'fp32', { rows: n, cols: n * 2 }),
      ]) {
        const bound = rooflineParts(k, d).boundUs;
        const t = 5 + bound / (EFFICIENCY[k.family] ?? 1);
        out.push({ ...k, device: d, timeUs: t * (1 + noise * (rand() * 2 - 1)) });
      }
    }
  }
  return out;
}

/** A synthetic sample as a stored profile measurement of one run (tight, believable statistics). */
export function measurementOf(
  s: Sample,
  run: { runId: string; deviceKey: string; executionProvider: string; threads: number | null },
): Measurement {
  return {
    ...run,
    op: s.op,
    family: s.family,
    shape: s.shape,
    dtype: s.dtype,
    flops: s.flops,
    bytes: s.bytes,
    runtimeVersion: '1.30.0',
    stats: {
      medianUs: s.timeUs,
      p10Us: s.timeUs * 0.98,
      p90Us: s.timeUs * 1.03,
      cv: 0.02,
      repetitions: 20,
      wallMedianUs: s.timeUs + 15,
    },
    source: 'profile',
  };
}
