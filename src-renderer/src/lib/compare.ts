/**
 * Machines side by side (the Library's comparison): one column per profiled device, grouped
 * under its machine, and one row per figure, the best of each row marked. Pure.
 */
import type { ComparedDeviceView, ComparisonView } from '../../../src-main/api/view-models.js';
import { formatFraction, formatGBps, formatGflops, formatNumber, formatTime } from './format.js';
import type { RoofSeries } from './roofline.js';

export interface CompareGroup {
  machineId: string;
  label: string;
  source: 'local' | 'imported';
  /** Columns under it (1 for a machine without a profiled device). */
  span: number;
}

export interface CompareColumn {
  machineId: string;
  machineLabel: string;
  /** null: the machine has no profiled device. */
  device: ComparedDeviceView | null;
  /** "cuda:0", "cpu · 16t". */
  title: string;
}

export interface CompareRow {
  key: string;
  label: string;
  cells: string[];
  /** Indices of the columns holding the row's best value (none when fewer than two have one). */
  best: number[];
}

/** A device across machines: its machine and its id there ("cpu@2t"). */
const keyOf = (machineId: string, d: ComparedDeviceView): string => `${machineId}/${d.id}`;

function deviceTitle(d: Pick<ComparedDeviceView, 'deviceKey' | 'threads'>): string {
  return `${d.deviceKey}${d.threads ? ` · ${d.threads}t` : ''}`;
}

export function compareGroups(c: ComparisonView): CompareGroup[] {
  return c.machines.map((m) => ({
    machineId: m.id,
    label: m.label,
    source: m.source,
    span: Math.max(1, m.devices.length),
  }));
}

export function compareColumns(c: ComparisonView): CompareColumn[] {
  return c.machines.flatMap((m): CompareColumn[] =>
    m.devices.length === 0
      ? [{ machineId: m.id, machineLabel: m.label, device: null, title: 'no profile' }]
      : m.devices.map((d) => ({ machineId: m.id, machineLabel: m.label, device: d, title: deviceTitle(d) })),
  );
}

/** The op families any device has an efficiency for, in name order. */
function comparedFamilies(c: ComparisonView): string[] {
  return [...new Set(c.machines.flatMap((m) => m.devices.flatMap((d) => Object.keys(d.familyEfficiency))))].sort();
}

function bestOf(values: (number | null | undefined)[], better: 'high' | 'low'): number[] {
  const ok = values.flatMap((v, i) => (v !== null && v !== undefined && Number.isFinite(v) ? [[v, i] as const] : []));
  if (ok.length < 2) return [];
  const target = better === 'high' ? Math.max(...ok.map(([v]) => v)) : Math.min(...ok.map(([v]) => v));
  return ok.filter(([v]) => v === target).map(([, i]) => i);
}

/**
 * The comparison's rows. `predicted` (the same machines compared with a workload) adds the
 * predicted time per device, matched by machine and device.
 */
export function compareRows(c: ComparisonView, predicted: ComparisonView | null = null): CompareRow[] {
  const cols = compareColumns(c);
  const row = (
    key: string,
    label: string,
    value: (d: ComparedDeviceView) => number | null | undefined,
    format: (v: number | null | undefined) => string,
    better: 'high' | 'low' | null,
  ): CompareRow => {
    const values = cols.map((col) => (col.device ? value(col.device) : undefined));
    return { key, label, cells: values.map((v) => format(v)), best: better ? bestOf(values, better) : [] };
  };
  const rows: CompareRow[] = [row('fp32', 'Peak FP32', (d) => d.summary.peakGflops.fp32, formatGflops, 'high')];
  if (cols.some((col) => col.device?.summary.peakGflops.fp16 !== undefined))
    rows.push(row('fp16', 'Peak FP16', (d) => d.summary.peakGflops.fp16, formatGflops, 'high'));
  rows.push(
    row('bandwidth', 'Bandwidth', (d) => d.summary.bandwidthGBps, formatGBps, 'high'),
    row(
      'ridge',
      'Ridge point',
      (d) => d.summary.ridgePoint,
      (v) => (v === null || v === undefined || !Number.isFinite(v) ? '—' : `${formatNumber(v)} FLOP/B`),
      null,
    ),
    row('dispatch', 'Dispatch overhead', (d) => d.summary.dispatchOverheadUs, formatTime, 'low'),
  );
  for (const f of comparedFamilies(c))
    rows.push(row(`family:${f}`, `${f} efficiency`, (d) => d.familyEfficiency[f], formatFraction, 'high'));
  if (predicted?.workload) {
    const w = predicted.workload;
    const times = new Map(
      predicted.machines.flatMap((m) => m.devices.map((d) => [keyOf(m.id, d), d.predictedUs] as const)),
    );
    const values = cols.map((col) => (col.device ? times.get(keyOf(col.machineId, col.device)) : undefined));
    rows.push({
      key: 'predicted',
      label: `${w.name} (${w.mode}, batch ${w.batch})`,
      cells: values.map((v) => formatTime(v)),
      best: bestOf(values, 'low'),
    });
  }
  return rows;
}

export interface BarGroup {
  label: string;
  bars: { label: string; value: number | null }[];
}

/** One group of bars per machine, one bar per profiled device. */
export function barGroups(c: ComparisonView, value: (d: ComparedDeviceView) => number | null | undefined): BarGroup[] {
  return c.machines.map((m) => ({
    label: m.label,
    bars: m.devices.map((d) => ({ label: deviceTitle(d), value: value(d) ?? null })),
  }));
}

/** Every profiled device's measured roof, for one chart on shared axes (labels unique: the chart keys by them). */
export function roofSeries(c: ComparisonView): RoofSeries[] {
  const seen = new Map<string, number>();
  return compareColumns(c).flatMap((col) => {
    if (!col.device) return [];
    const base = `${col.machineLabel} · ${col.title}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return [
      {
        label: n > 1 ? `${base} (${n})` : base,
        peakGflops: col.device.summary.peakGflops.fp32 ?? null,
        bandwidthGBps: col.device.summary.bandwidthGBps,
        theoretical: null,
        points: [],
      },
    ];
  });
}
