/** `pipedejavu compare` as a table for people. */
import type { Comparison } from '../../services/measure/compare-service.js';
import { tableRows, textLines } from '../output.js';

const fmt = (v: number | null | undefined, digits = 1): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(digits);

export const timeText = (us: number | undefined): string =>
  us === undefined
    ? '-'
    : us >= 1e6
      ? `${(us / 1e6).toFixed(2)} s`
      : us >= 1e3
        ? `${(us / 1e3).toFixed(2)} ms`
        : `${us.toFixed(0)} µs`;

/** The op families any device has an efficiency for, in name order. */
export function comparedFamilies(c: Comparison): string[] {
  return [...new Set(c.machines.flatMap((m) => m.devices.flatMap((d) => Object.keys(d.familyEfficiency))))].sort();
}

export function renderComparison(c: Comparison): string {
  const families = comparedFamilies(c);
  const headers = [
    'MACHINE',
    'DEVICE',
    'EP',
    'THREADS',
    'FP32 GFLOP/s',
    'FP16 GFLOP/s',
    'GB/s',
    'RIDGE',
    'DISPATCH us',
    ...families.map((f) => `${f.toUpperCase()} EFF`),
    ...(c.workload ? [`${c.workload.name.toUpperCase()}`] : []),
  ];
  const rows = c.machines.flatMap((m) =>
    m.devices.map((d) => [
      m.label,
      `${d.deviceKey} ${d.name}`,
      d.executionProvider,
      d.threads,
      fmt(d.summary.peakGflops.fp32),
      fmt(d.summary.peakGflops.fp16),
      fmt(d.summary.bandwidthGBps),
      fmt(d.summary.ridgePoint),
      fmt(d.summary.dispatchOverheadUs),
      ...families.map((f) =>
        d.familyEfficiency[f] === undefined ? '-' : `${Math.round((d.familyEfficiency[f] ?? 0) * 100)}%`,
      ),
      ...(c.workload ? [timeText(d.predictedUs)] : []),
    ]),
  );
  const empty = c.machines.filter((m) => m.devices.length === 0).map((m) => `note: ${m.label} has no profiled device`);
  const wl = c.workload
    ? [
        `${c.workload.name}: ${c.workload.mode}, batch ${c.workload.batch}, predicted with the ${c.workload.predictor} predictor`,
      ]
    : [];
  return textLines([...tableRows(headers, rows), ...wl, ...empty]);
}
