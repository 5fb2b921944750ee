/**
 * Feature vectors of (op, device) pairs, shared by the linear predictor and the forest.
 * Sizes enter as log2: times scale multiplicatively with them. Pure.
 */
import { KERNEL_FAMILIES, KERNEL_OPS } from '../kernels/types.js';
import { PROFILED_DTYPES } from '../domain/dtypes.js';
import type { DeviceFeatures, OpInstance } from './types.js';

const SHAPE_DIMS = [
  'B',
  'M',
  'N',
  'K',
  'C',
  'H',
  'W',
  'R',
  'S',
  'stride',
  'groups',
  'batch',
  'heads',
  'seq',
  'headDim',
  'rows',
  'cols',
  'n',
  'parts',
  'scale',
  'input',
  'hidden',
] as const;

/**
 * Which kernel a conv runs on a CPU: ONNX Runtime converts a conv to its blocked NCHWc
 * layout only when its output channels (and input channels, except for a few-channel
 * first conv) are a multiple of the SIMD block (16 with AVX-512, 8 with AVX2); depthwise
 * convs have their own kernel; a fused activation rides along; a 1-D conv stays in NCHW
 * (im2col + SGEMM) whatever its channel counts; a transposed conv, 1-D or 2-D, is a GEMM and
 * a col2im (so a 1-D transposed conv is not conv_1d).
 * Sizes in log2 cannot say "multiple of 16", so these do.
 */
const CONV_KERNEL_FEATURES = [
  'conv_k_mod16',
  'conv_k_mod8',
  'conv_c_mod16',
  'conv_c_mod8',
  'conv_depthwise',
  'conv_act',
  'conv_1d',
  'conv_transpose',
  'conv_gemm_fill',
];

function convKernelFeatures(op: OpInstance, device: DeviceFeatures): number[] {
  if (op.family !== 'conv') return CONV_KERNEL_FEATURES.map(() => 0);
  const k = op.shape['K'] ?? 0;
  const c = op.shape['C'] ?? 0;
  const groups = op.shape['groups'] ?? 1;
  return [
    k % 16 === 0 ? 1 : 0,
    k % 8 === 0 ? 1 : 0,
    c % 16 === 0 ? 1 : 0,
    c % 8 === 0 ? 1 : 0,
    groups > 1 && groups === c ? 1 : 0,
    (op.shape['act'] ?? 0) > 0 ? 1 : 0,
    (op.shape['d1'] ?? 0) > 0 && !op.shape['transpose'] ? 1 : 0,
    (op.shape['transpose'] ?? 0) > 0 ? 1 : 0,
    gemmColumnFill(op, device),
  ];
}

/** Columns in one panel of the B operand MLAS's SGEMM packs (x86 and Arm alike). */
const SGEMM_PANEL_COLUMNS = 16;

/**
 * The share of the SGEMM's work a 1-D conv needs. ORT runs a 1-D conv (depthwise and 1x1
 * ones too) as an SGEMM of its filters [K, C/groups x R] by the im2col columns [C/groups x R,
 * positions], per image and group; MLAS packs those columns in panels of 16, zero-padded, and
 * multiplies whole panels. On the 2-vCPU Zen 4 guest at 1 thread a 128 -> 128, 3-tap conv took
 * 17-19 µs over 2 to 16 positions, 31 µs over 17 to 32, 46 µs over 33 to 48. A single position
 * runs as a matrix-vector product and pads nothing (3.8 µs). 1 for every other op and on GPUs.
 */
export function gemmColumnFill(op: OpInstance, device: DeviceFeatures): number {
  const s = op.shape;
  if (device.kind === 'gpu' || op.family !== 'conv' || !s['d1'] || s['transpose']) return 1;
  const perPosition = 2 * (s['N'] ?? 1) * (s['K'] ?? 1) * ((s['C'] ?? 1) / (s['groups'] ?? 1)) * (s['R'] ?? 1);
  const positions = Math.round(op.flops / perPosition);
  if (!(positions > 1)) return 1;
  return positions / (SGEMM_PANEL_COLUMNS * Math.ceil(positions / SGEMM_PANEL_COLUMNS));
}

/**
 * Which kernel: ops of one family at one size differ by more than their FLOP counts say
 * (on the CPU EP, SkipLayerNormalization takes 11x LayerNormalization's time per element,
 * the Erf-form Gelu 3.5x an Add of the same bytes), and flops and bytes alone let the trees
 * average them together.
 */
const OP_FEATURES = KERNEL_OPS.map((op) => `op_${op}`);

export const FEATURE_NAMES: readonly string[] = [
  ...SHAPE_DIMS.map((d) => `log2_${d}`),
  ...KERNEL_FAMILIES.map((f) => `family_${f}`),
  ...OP_FEATURES,
  ...PROFILED_DTYPES.map((d) => `dtype_${d}`),
  'log2_flops',
  'log2_bytes',
  'log2_intensity',
  'log2_compute_us',
  'log2_memory_us',
  'log2_bound_us',
  'compute_bound',
  'log2_peak_gflops',
  'log2_bandwidth_gbps',
  'log2_dispatch_us',
  'threads',
  'log2_l2',
  'log2_l3',
  'log2_sm_count',
  'log2_sm_clock',
  'is_gpu',
  ...CONV_KERNEL_FEATURES,
];

const log2p = (v: number | null | undefined): number => (v && v > 0 ? Math.log2(1 + v) : 0);

/** Peak GFLOP/s the device offers this dtype: its own if measured, else fp32's. */
function peakFor(device: DeviceFeatures, dtype: OpInstance['dtype']): number {
  return device.peakGflops[dtype] ?? device.peakGflops.fp32 ?? 1;
}

/**
 * Roofline time of an op on a device, µs: max of compute and memory time (efficiency 1). The
 * compute term counts the work the kernel does, padding included (gemmColumnFill).
 */
export function rooflineParts(
  op: OpInstance,
  device: DeviceFeatures,
): { computeUs: number; memoryUs: number; boundUs: number } {
  const computeUs = op.flops / gemmColumnFill(op, device) / (peakFor(device, op.dtype) * 1e3);
  const memoryUs = op.bytes / (Math.max(device.bandwidthGBps, 1e-9) * 1e3);
  return { computeUs, memoryUs, boundUs: Math.max(computeUs, memoryUs) };
}

export function featureVector(op: OpInstance, device: DeviceFeatures): number[] {
  const { computeUs, memoryUs, boundUs } = rooflineParts(op, device);
  return [
    ...SHAPE_DIMS.map((d) => log2p(op.shape[d])),
    ...KERNEL_FAMILIES.map((f) => (op.family === f ? 1 : 0)),
    ...KERNEL_OPS.map((k) => (op.op === k ? 1 : 0)),
    ...PROFILED_DTYPES.map((d) => (op.dtype === d ? 1 : 0)),
    log2p(op.flops),
    log2p(op.bytes),
    Math.log2((op.flops + 1) / (op.bytes + 1)),
    Math.log2(computeUs + 1e-6),
    Math.log2(memoryUs + 1e-6),
    Math.log2(boundUs + 1e-6),
    computeUs >= memoryUs ? 1 : 0,
    log2p(peakFor(device, op.dtype)),
    log2p(device.bandwidthGBps),
    log2p(device.dispatchUs),
    device.threads ?? 0,
    log2p(device.l2Bytes),
    log2p(device.l3Bytes),
    log2p(device.smCount),
    log2p(device.smClockMHz),
    device.kind === 'gpu' ? 1 : 0,
    ...convKernelFeatures(op, device),
  ];
}

/**
 * The floor the learned predictors scale: the roofline plus the device's dispatch cost.
 * They predict log(time / floor), so they stay tied to the roofline; a prediction may go
 * under the floor, as far as the clamp lets it (learnedMinLogRatio).
 */
export function floorUs(op: OpInstance, device: DeviceFeatures): number {
  return rooflineParts(op, device).boundUs + device.dispatchUs;
}

/**
 * The highest the clamp on a prediction goes, as a fraction of the floor (micro-kernels only
 * approximate the peak): a prediction stays at or above this fraction, or the lowest ratio its
 * training data reached where that is lower (learnedMinLogRatio). Predictors stored before the
 * clamp was learned use it as it is.
 */
export const MIN_FLOOR_RATIO = 0.8;
export const MIN_LOG_RATIO = Math.log(MIN_FLOOR_RATIO);

/**
 * The clamp a trained predictor applies to its raw log(time / floor): MIN_LOG_RATIO, or lower
 * where its own training data went lower. The floor's memory term uses the DRAM bandwidth
 * (kernels of 32 MiB and more), and operands that stay in the caches move faster than
 * that: on the 2-vCPU Zen 4 guest, element-wise ops and transposes of 0.1-10 MB ran at
 * 0.15-0.45x the DRAM floor. A fixed clamp at 0.8x predicted each such node up to 2x slow.
 */
export function learnedMinLogRatio(targets: readonly number[]): number {
  let m = MIN_LOG_RATIO;
  for (const t of targets) if (Number.isFinite(t) && t < m) m = t;
  return m;
}
