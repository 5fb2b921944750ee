/**
 * Roofline geometry: which measured kernels can sit on a log-log chart, the domains that
 * hold them and the roofs, and the roof of one device as a polyline in data space. Pure.
 */
import type { CpuPeak, RooflinePoint, RooflineView } from '../../../src-main/api/view-models.js';
import { logDomain } from './scales.js';

export interface RoofSeries {
  /** Device or machine/device label. */
  label: string;
  /** Measured fp32 peak (GFLOP/s), null when nothing compute-bound was measured. */
  peakGflops: number | null;
  /** Measured bandwidth (GB/s), null when nothing large and memory-bound was measured. */
  bandwidthGBps: number | null;
  /** The theoretical peak as every view states it (a CPU's); the chart draws its ceiling when it has one. */
  theoretical: Pick<CpuPeak, 'gflops' | 'label' | 'note'> | null;
  points: readonly RooflinePoint[];
}

export function seriesOf(view: RooflineView, label = view.label): RoofSeries {
  return {
    label,
    peakGflops: view.summary.peakGflops.fp32 ?? null,
    bandwidthGBps: view.summary.bandwidthGBps,
    theoretical: view.theoreticalPeak,
    points: view.points,
  };
}

/** Why a measured kernel sits above the roof drawn for its device: the chart says it beside the points. */
export const ABOVE_ROOF = {
  dtype: 'of another dtype than the fp32 roof',
  cache: 'faster than the DRAM bandwidth allows: their data stays in the caches',
  uncounted: 'not counted toward the peak (too small to time surely, or not a GEMM, conv or attention)',
} as const;
export type AboveRoof = keyof typeof ABOVE_ROOF;

/** The roof's height at an intensity: min(peak, bandwidth x intensity) of what was measured; null with neither. */
function roofAt(s: Pick<RoofSeries, 'peakGflops' | 'bandwidthGBps'>, intensity: number): number | null {
  const heights = [s.peakGflops, s.bandwidthGBps === null ? null : s.bandwidthGBps * intensity].filter(
    (h): h is number => h !== null && h > 0,
  );
  return heights.length ? Math.min(...heights) : null;
}

/** Why a plottable point is above its series' measured roof; null when it is on or under it. */
export function aboveRoof(s: Pick<RoofSeries, 'peakGflops' | 'bandwidthGBps'>, p: RooflinePoint): AboveRoof | null {
  const roof = roofAt(s, p.intensity);
  // The kernel that set the peak sits on the roof: rounding must not lift it above.
  if (roof === null || p.gflops <= roof * (1 + 1e-9)) return null;
  if (p.dtype !== 'fp32') return 'dtype';
  if (s.peakGflops !== null && p.gflops > s.peakGflops) return 'uncounted';
  return 'cache';
}

/** How many plottable points of the series sit above their roofs, by reason (reasons with none left out). */
export function aboveRoofCounts(series: readonly RoofSeries[]): [AboveRoof, number][] {
  const counts = new Map<AboveRoof, number>();
  for (const s of series)
    for (const p of plottable(s.points)) {
      const why = aboveRoof(s, p);
      if (why) counts.set(why, (counts.get(why) ?? 0) + 1);
    }
  return (Object.keys(ABOVE_ROOF) as AboveRoof[]).flatMap((k) => {
    const n = counts.get(k);
    return n ? [[k, n] as [AboveRoof, number]] : [];
  });
}

/** Kernels with a positive intensity and rate (pure data movement has neither). */
export function plottable(points: readonly RooflinePoint[]): RooflinePoint[] {
  return points.filter((p) => p.intensity > 0 && p.gflops > 0 && Number.isFinite(p.intensity + p.gflops));
}

export function ridgePoint(s: Pick<RoofSeries, 'peakGflops' | 'bandwidthGBps'>): number | null {
  return s.peakGflops && s.bandwidthGBps ? s.peakGflops / s.bandwidthGBps : null;
}

/** Log domains (whole decades) holding every plottable point, every peak, theoretical ceiling and ridge. */
export function rooflineDomains(series: readonly RoofSeries[]): { x: [number, number]; y: [number, number] } {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const s of series) {
    for (const p of plottable(s.points)) {
      xs.push(p.intensity);
      ys.push(p.gflops);
    }
    if (s.peakGflops) ys.push(s.peakGflops);
    if (s.theoretical?.gflops) ys.push(s.theoretical.gflops);
    const r = ridgePoint(s);
    if (r) xs.push(r);
  }
  const x = logDomain(xs);
  const y = logDomain(ys);
  // A roof needs room left of the ridge to show its slope.
  if (x[1] / x[0] < 100) x[0] = x[1] / 100;
  return { x, y };
}

/**
 * The roof min(peak, bandwidth * intensity) as points within the domains: the memory slope
 * from where it enters the chart up to the ridge, then flat to the right edge.
 */
export function roofPolyline(
  s: Pick<RoofSeries, 'peakGflops' | 'bandwidthGBps'>,
  x: readonly [number, number],
  y: readonly [number, number],
): [number, number][] {
  const peak = s.peakGflops ?? null;
  const bw = s.bandwidthGBps ?? null;
  if (peak && bw) {
    const ridge = peak / bw;
    const start = Math.max(x[0], y[0] / bw);
    if (ridge <= start)
      return [
        [x[0], peak],
        [x[1], peak],
      ];
    if (ridge >= x[1])
      return [
        [start, bw * start],
        [x[1], bw * x[1]],
      ];
    return [
      [start, bw * start],
      [ridge, peak],
      [x[1], peak],
    ];
  }
  if (peak)
    return [
      [x[0], peak],
      [x[1], peak],
    ];
  if (bw) {
    const start = Math.max(x[0], y[0] / bw);
    const end = Math.min(x[1], y[1] / bw);
    return end > start
      ? [
          [start, bw * start],
          [end, bw * end],
        ]
      : [];
  }
  return [];
}
