/**
 * Realistic synthetic samples for the forest tests and benchmark: random kernels (real ops,
 * shapes and FLOP/byte counts from core/kernels) on a few made-up CPUs and GPUs, timed by a
 * known function of the roofline: time = dispatch + bound / efficiency, where efficiency depends
 * on the family, the dtype, the amount of work, GPU tile quantisation, CPU cache residency and
 * awkward dims, times log-normal noise.
 */
import {
  KERNEL_OPS,
  makeKernel,
  OP_DTYPES,
  type KernelOp,
  type KernelSpec,
} from '../../src-main/core/kernels/index.js';
import { seededRandom } from '../../src-main/core/kernels/fill.js';
import { rooflineParts } from '../../src-main/core/predictor/features.js';
import type { DeviceFeatures, OpInstance, Sample } from '../../src-main/core/predictor/types.js';

const cpu = (id: string, threads: number, gflops: number, bw: number, l2: number, l3: number): DeviceFeatures => ({
  deviceId: id,
  kind: 'cpu',
  peakGflops: { fp32: gflops, int32: gflops / 2, int64: gflops / 4 },
  bandwidthGBps: bw,
  dispatchUs: 3 + threads / 4,
  threads,
  l2Bytes: l2,
  l3Bytes: l3,
  smCount: null,
  smClockMHz: null,
});

const gpu = (id: string, sm: number, clock: number, fp32: number, bw: number): DeviceFeatures => ({
  deviceId: id,
  kind: 'gpu',
  peakGflops: { fp32, fp16: fp32 * 4, bf16: fp32 * 4, int32: fp32 / 2, int64: fp32 / 8 },
  bandwidthGBps: bw,
  dispatchUs: 8,
  threads: null,
  l2Bytes: null,
  l3Bytes: null,
  smCount: sm,
  smClockMHz: clock,
});

export const SYNTHETIC_DEVICES: readonly DeviceFeatures[] = [
  cpu('m1/cpu/cpu/2', 2, 150, 20, 1 << 20, 32 << 20),
  cpu('m1/cpu/cpu/8', 8, 500, 40, 1 << 20, 32 << 20),
  cpu('m2/cpu/cpu/4', 4, 300, 30, 2 << 20, 16 << 20),
  cpu('m3/cpu/cpu/16', 16, 1200, 90, 1 << 20, 64 << 20),
  gpu('m1/gpu0/cuda/1', 46, 2500, 12000, 450),
  gpu('m2/gpu0/cuda/1', 132, 1980, 50000, 3000),
  gpu('m3/gpu0/cuda/1', 82, 1860, 30000, 900),
];

/** Every profiled op except the host-device copies. */
const OPS: readonly KernelOp[] = KERNEL_OPS.filter((op) => !op.startsWith('Copy'));

/** A random size: 2^k or 3 * 2^(k-2), k uniform in [lo, hi]. */
function size(rand: () => number, lo: number, hi: number): number {
  const k = lo + Math.floor(rand() * (hi - lo + 1));
  return rand() < 0.7 ? 2 ** k : Math.max(1, Math.round(3 * 2 ** (k - 2)));
}

function randomShape(op: KernelOp, rand: () => number): Record<string, number> {
  const s = (lo: number, hi: number): number => size(rand, lo, hi);
  switch (op) {
    case 'MatMul':
      return { B: s(0, 3), M: s(3, 11), N: s(3, 11), K: s(3, 11) };
    case 'Gemm':
      return { M: s(3, 12), N: s(3, 12), K: s(3, 12) };
    case 'Conv': {
      const c = s(2, 8);
      const depthwise = rand() < 0.2;
      const r = [1, 3, 5][Math.floor(rand() * 3)] as number;
      return {
        N: s(0, 3),
        C: c,
        H: s(3, 7),
        W: s(3, 7),
        K: depthwise ? c : s(2, 8),
        R: r,
        S: r,
        stride: rand() < 0.2 ? 2 : 1,
        groups: depthwise ? c : 1,
      };
    }
    case 'Attention':
      return { batch: s(0, 3), heads: s(0, 4), seq: s(4, 10), headDim: s(5, 7) };
    case 'ReduceSum':
    case 'ReduceMean':
    case 'Softmax':
    case 'LayerNormalization':
    case 'Transpose':
      return { rows: s(0, 13), cols: s(4, 13) };
    default:
      return { n: s(4, 24) };
  }
}

const FAMILY_EFFICIENCY: Record<string, number> = {
  gemm: 0.8,
  conv: 0.6,
  elementwise: 0.85,
  reduction: 0.7,
  softmax: 0.5,
  layernorm: 0.45,
  attention: 0.4,
  datamove: 0.6,
  copy: 0.9,
};

/** The noiseless time of a kernel on a device (µs): the known function samples are drawn from. */
export function syntheticTimeUs(k: OpInstance, d: DeviceFeatures): number {
  const { computeUs, memoryUs } = rooflineParts(k, d);
  let eff = FAMILY_EFFICIENCY[k.family] ?? 0.5;
  if (d.kind === 'gpu' && (k.dtype === 'fp16' || k.dtype === 'bf16')) eff *= 0.8;
  // Small kernels cannot fill the machine: efficiency ramps up with the work.
  const work = Math.max(computeUs, memoryUs);
  const half = d.kind === 'gpu' ? 20 : 2 + (d.threads ?? 1);
  eff *= work / (work + half);
  if (k.family === 'gemm' && d.kind === 'gpu' && d.smCount) {
    const M = k.shape.M ?? 1;
    const N = k.shape.N ?? 1;
    const tiles = Math.ceil(M / 128) * Math.ceil(N / 128) * (k.shape.B ?? 1);
    eff *= tiles / (Math.ceil(tiles / d.smCount) * d.smCount);
  }
  if (k.family === 'gemm' && (k.shape.K ?? 0) % 8 !== 0) eff /= 1.3;
  if (k.family === 'conv' && (k.shape.groups ?? 1) > 1) eff *= 0.25;
  // CPU: data that fits in L2 streams faster than DRAM.
  const memoryScale = d.kind === 'cpu' && d.l2Bytes && k.bytes < d.l2Bytes ? 0.4 : 1;
  return d.dispatchUs + Math.max(computeUs, memoryUs * memoryScale) / Math.max(eff, 1e-3);
}

/** n random samples (seeded): kernels valid for their device, times with ~4% log-normal noise. */
export function syntheticSamples(
  n: number,
  seed: number,
  opts: { devices?: readonly DeviceFeatures[]; ops?: readonly KernelOp[]; noise?: number } = {},
): Sample[] {
  const rand = seededRandom(seed);
  const devices = opts.devices ?? SYNTHETIC_DEVICES;
  const ops = opts.ops ?? OPS;
  const noise = opts.noise ?? 0.04;
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const out: Sample[] = [];
  while (out.length < n) {
    const device = devices[Math.floor(rand() * devices.length)] as DeviceFeatures;
    const op = ops[Math.floor(rand() * ops.length)] as KernelOp;
    const dtypes = OP_DTYPES[op];
    const dtype = dtypes[Math.floor(rand() * dtypes.length)] ?? 'fp32';
    let kernel: KernelSpec;
    try {
      kernel = makeKernel(op, dtype, randomShape(op, rand));
    } catch {
      continue;
    }
    if (kernel.gpuOnly && device.kind !== 'gpu') continue;
    const { op: kop, family, shape, flops, bytes } = kernel;
    const inst: OpInstance = { op: kop, family, shape, dtype, flops, bytes };
    out.push({ ...inst, device, timeUs: syntheticTimeUs(inst, device) * Math.exp(noise * gauss()) });
  }
  return out;
}
