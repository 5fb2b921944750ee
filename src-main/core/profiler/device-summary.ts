/**
 * The measured roofline of a device: achieved peak FLOP/s per dtype, achieved memory
 * bandwidth, per-call dispatch overhead, and host-device copy latency/bandwidth
 * (alpha-beta fit). Derived from stored measurements, not from a datasheet. Pure.
 */
import type { Dtype, Measurement } from '../domain/measurement.js';
import { median } from './timing-stats.js';
import { COMPUTE_FAMILIES, MEMORY_FAMILIES } from '../kernels/types.js';
import { countMeasurements } from './kernel-counts.js';

export interface CopyFit {
  /** Fixed cost per copy (µs): the alpha of t = alpha + bytes / bandwidth. */
  latencyUs: number;
  bandwidthGBps: number;
  points: number;
}

export interface DeviceSummary {
  /** Best achieved GFLOP/s per dtype over compute kernels (GEMM, conv, attention). */
  peakGflops: Partial<Record<Dtype, number>>;
  /** Which kernel achieved the fp32 peak, for the report. */
  peakKernel: string | null;
  /** Best achieved GB/s over memory-bound kernels past the caches (elementwise, data movement). */
  bandwidthGBps: number | null;
  /** Smallest measured kernel time: what one call costs when it does almost nothing (µs). */
  dispatchOverheadUs: number | null;
  /** FLOP per byte where the roofline bends: peak fp32 / bandwidth. */
  ridgePoint: number | null;
  h2d: CopyFit | null;
  d2h: CopyFit | null;
  /** Distinct kernels stored for the device (kernel-counts.ts): its reorders and model nodes aside. */
  kernels: number;
  /** The NCHWc reorders stored beside them; absent in summaries stored before they were counted apart. */
  reorders?: number;
}

/**
 * Compute kernels smaller than this do not set the peak when bigger ones were measured: a
 * tiny kernel's label is a few microseconds or a difference of two runs, and one that came
 * out near zero would claim tera-FLOP/s (every device's biggest suite GEMM is far above it).
 */
const MIN_PEAK_FLOPS = 5e7;
/** Memory-bound kernels smaller than this mostly hit the caches: not the DRAM roofline. */
const MIN_BANDWIDTH_BYTES = 32 * 2 ** 20;

function shapeLabel(m: Measurement): string {
  return `${m.op} ${Object.entries(m.shape)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')} ${m.dtype}`;
}

/** A summary's counts: its kernels and reorders (measure-model's nodes are not a device's profile). */
function measuredKernels(ms: readonly Measurement[]): Pick<DeviceSummary, 'kernels' | 'reorders'> {
  const c = countMeasurements(ms);
  return { kernels: c.kernels, reorders: c.reorders };
}

/** Least-squares line t = a + b·x; null with fewer than two distinct x. */
export function fitLine(xs: readonly number[], ys: readonly number[]): { a: number; b: number } | null {
  const n = xs.length;
  if (n < 2) return null;
  const mx = xs.reduce((s, v) => s + v, 0) / n;
  const my = ys.reduce((s, v) => s + v, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    sxx += dx * dx;
    sxy += dx * ((ys[i] as number) - my);
  }
  if (sxx === 0) return null;
  const b = sxy / sxx;
  return { a: my - b * mx, b };
}

/** The median slope over pairs of points with distinct x (Theil-Sen's slope); null with fewer than two distinct x. */
export function medianPairwiseSlope(xs: readonly number[], ys: readonly number[]): number | null {
  const slopes: number[] = [];
  for (let i = 0; i < xs.length; i++)
    for (let j = i + 1; j < xs.length; j++) {
      const dx = (xs[j] as number) - (xs[i] as number);
      if (dx !== 0) slopes.push(((ys[j] as number) - (ys[i] as number)) / dx);
    }
  return slopes.length ? median(slopes) : null;
}

/**
 * Theil-Sen line t = a + b·x: b the median pairwise slope, a the median of y - b·x. One
 * disturbed point moves it little, where it drags a least-squares line. Null with fewer than
 * two distinct x.
 */
export function fitRobustLine(xs: readonly number[], ys: readonly number[]): { a: number; b: number } | null {
  const b = medianPairwiseSlope(xs, ys);
  return b === null ? null : { a: median(xs.map((x, i) => (ys[i] as number) - b * x)), b };
}

function copyFit(ms: readonly Measurement[]): CopyFit | null {
  const fit = fitLine(
    ms.map((m) => m.bytes),
    ms.map((m) => m.stats.medianUs),
  );
  if (!fit || !(fit.b > 0)) return null;
  return { latencyUs: Math.max(0, fit.a), bandwidthGBps: 1 / fit.b / 1000, points: ms.length };
}

export function summarizeDevice(ms: readonly Measurement[]): DeviceSummary {
  const peakGflops: Partial<Record<Dtype, number>> = {};
  let peakKernel: string | null = null;
  let bandwidth: number | null = null;
  let dispatch: number | null = null;
  const bigDtypes = new Set(
    ms.filter((m) => COMPUTE_FAMILIES.has(m.family) && m.flops >= MIN_PEAK_FLOPS).map((m) => m.dtype),
  );
  const setsPeak = (m: Measurement): boolean => m.flops >= (bigDtypes.has(m.dtype) ? MIN_PEAK_FLOPS : 1);
  for (const m of ms) {
    const t = m.stats.medianUs;
    if (COMPUTE_FAMILIES.has(m.family) && setsPeak(m)) {
      const g = m.flops / t / 1000;
      if (g > (peakGflops[m.dtype] ?? 0)) {
        peakGflops[m.dtype] = g;
        if (m.dtype === 'fp32') peakKernel = shapeLabel(m);
      }
    }
    if (MEMORY_FAMILIES.has(m.family) && m.bytes >= MIN_BANDWIDTH_BYTES) {
      const gbps = m.bytes / t / 1000;
      if (gbps > (bandwidth ?? 0)) bandwidth = gbps;
    }
    if (m.family !== 'copy') dispatch = dispatch === null ? t : Math.min(dispatch, t);
  }
  const fp32 = peakGflops.fp32 ?? null;
  return {
    peakGflops,
    peakKernel,
    bandwidthGBps: bandwidth,
    dispatchOverheadUs: dispatch,
    ridgePoint: fp32 !== null && bandwidth ? fp32 / bandwidth : null,
    h2d: copyFit(ms.filter((m) => m.op === 'CopyH2D')),
    d2h: copyFit(ms.filter((m) => m.op === 'CopyD2H')),
    ...measuredKernels(ms),
  };
}
