/**
 * Synthetic profile for the evaluation tests: one CPU at 2 and 4 threads and one GPU;
 * gemm, elementwise and softmax over shapes that include near-duplicates (1000 vs 1024, 60 vs 64, ...).
 */
import type { DeviceFeatures, Sample } from '../../src-main/core/predictor/types.js';

export function device(
  deviceId: string,
  kind: 'cpu' | 'gpu',
  gflops: number,
  bw: number,
  dispatchUs: number,
): DeviceFeatures {
  return {
    deviceId,
    kind,
    peakGflops: { fp32: gflops },
    bandwidthGBps: bw,
    dispatchUs,
    threads: kind === 'cpu' ? Number(deviceId.split('/').pop()) : null,
    l2Bytes: kind === 'cpu' ? 1 << 20 : null,
    l3Bytes: kind === 'cpu' ? 32 << 20 : null,
    smCount: kind === 'gpu' ? 80 : null,
    smClockMHz: kind === 'gpu' ? 1800 : null,
  };
}
export const DEVICES = [
  device('m1/cpu/cpu/2', 'cpu', 60, 20, 3),
  device('m1/cpu/cpu/4', 'cpu', 120, 25, 3),
  device('m1/cuda/gpu/0', 'gpu', 12000, 800, 8),
];
const GEMM_M = [16, 15, 32, 64, 60, 128, 120, 256, 512, 500, 1024, 1000, 2048];
const ELEMENTWISE_N = [1000, 1100, 4096, 16384, 65536, 60000, 262144, 1 << 20, 1 << 22];
const SOFTMAX_ROWS = [8, 32, 128, 512, 2048];

export function sample(
  d: DeviceFeatures,
  op: string,
  family: string,
  shape: Record<string, number>,
  flops: number,
  bytes: number,
): Sample {
  const boundUs = Math.max(flops / ((d.peakGflops.fp32 ?? 1) * 1e3), bytes / (d.bandwidthGBps * 1e3));
  return { op, family, shape, dtype: 'fp32', flops, bytes, device: d, timeUs: d.dispatchUs + 1.4 * boundUs };
}

export function makeSamples(devices: readonly DeviceFeatures[] = DEVICES): Sample[] {
  const out: Sample[] = [];
  for (const d of devices) {
    for (const m of GEMM_M) out.push(sample(d, 'MatMul', 'gemm', { M: m, N: m, K: m }, 2 * m ** 3, 12 * m * m));
    for (const n of ELEMENTWISE_N) out.push(sample(d, 'Add', 'elementwise', { n }, n, 12 * n));
    for (const r of SOFTMAX_ROWS)
      out.push(sample(d, 'Softmax', 'softmax', { rows: r, cols: 1024 }, 5 * r * 1024, 8 * r * 1024));
  }
  return out;
}
