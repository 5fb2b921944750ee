/** Profile results and measured rooflines as tables. */
import { isTorchEpName } from '../../core/domain/execution-provider.js';
import type { DeviceSummary } from '../../core/profiler/device-summary.js';
import type { MeasuredOverhead } from '../../core/profiler/overhead.js';
import type { CpuPeak } from '../../core/profiler/cpu-peak.js';
import type { DatasheetCheck } from '../../services/predict/datasheet-check-service.js';
import type { ProfileReport } from '../../services/profile/profiler-types.js';
import type { StoredRun } from '../../adapters/store/profile-repo.js';
import { conditionsLine } from '../../services/profile/run-conditions-service.js';
import { formatTable, tableRows, textLines } from '../output.js';
import { formatDuration } from '../progress.js';
import { count } from '../../core/text/plural.js';
import { kernelsCell, kernelsText } from '../../core/profiler/kernel-counts.js';

const fmt = (v: number | null | undefined, digits = 1): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(digits);

export interface RooflineRow {
  deviceKey: string;
  executionProvider: string;
  threads: number | null;
  summary: DeviceSummary;
  theoreticalPeak: CpuPeak | null;
  overhead?: MeasuredOverhead | null;
}

/** The THEORETICAL cell: the ceiling and the share of it measured, or why it is unknown. */
function theoreticalCell(r: RooflineRow): string {
  const peak = r.theoreticalPeak;
  if (!peak) return '-';
  if (peak.gflops === null) return peak.label;
  return `${fmt(peak.gflops, 0)} (${fmt(((r.summary.peakGflops.fp32 ?? 0) / peak.gflops) * 100, 0)}%)`;
}

export function renderRoofline(rows: RooflineRow[]): string {
  const notes = rows.flatMap((r) =>
    r.theoreticalPeak
      ? [`${r.deviceKey}${r.threads === null ? '' : ` at ${count(r.threads, 'thread')}`}: ${r.theoreticalPeak.note}`]
      : [],
  );
  return textLines([...rooflineTable(rows), ...(notes.length ? ['', ...notes] : [])]);
}

function rooflineTable(rows: RooflineRow[]): string[] {
  return tableRows(
    [
      'DEVICE',
      'EP',
      'THREADS',
      'FP32 GFLOP/s',
      'FP16 GFLOP/s',
      'BF16 GFLOP/s',
      'THEORETICAL',
      'GB/s',
      'RIDGE FLOP/B',
      'DISPATCH us',
      'RUN us',
      'NODE us',
      'WAKE us',
      'PAR OP us',
      'BINDING us',
      'H2D GB/s',
      'KERNELS',
    ],
    rows.map((r) => [
      r.deviceKey,
      r.executionProvider,
      r.threads,
      fmt(r.summary.peakGflops.fp32),
      fmt(r.summary.peakGflops.fp16),
      fmt(r.summary.peakGflops.bf16),
      theoreticalCell(r),
      fmt(r.summary.bandwidthGBps),
      fmt(r.summary.ridgePoint),
      fmt(r.summary.dispatchOverheadUs),
      fmt(r.overhead?.runUs),
      fmt(r.overhead?.nodeUs, 2),
      fmt(r.overhead?.wakeUs),
      fmt(r.overhead?.parallelOpUs, 2),
      fmt(r.overhead?.binding?.perCallUs),
      fmt(r.summary.h2d?.bandwidthGBps),
      kernelsCell(r.summary),
    ]),
  );
}

/** How many of the measured kernels were kept noisy: ", 3 of them noisy and kept with their spread", ", noisy ..." for the only one. */
export function noisyPart(noisy: number, measured: number): string {
  if (noisy === 0) return '';
  if (noisy === measured)
    return measured === 1 ? ', noisy and kept with its spread' : ', all noisy and kept with their spread';
  return `, ${noisy} of them noisy and kept with ${noisy === 1 ? 'its' : 'their'} spread`;
}

/**
 * The run in one line: its kernels by origin (kernel-counts.ts, as the start line counts them),
 * the noisy ones among them, the reorders stored beside them, what was stored already, failures.
 */
export function renderProfileReport(r: ProfileReport): string {
  const threads = r.threads !== null ? ` (${count(r.threads, 'thread')})` : '';
  const who = `${r.deviceKey}${threads}${isTorchEpName(r.executionProvider) ? ' on PyTorch' : ''}`;
  if (r.status === 'unavailable') return textLines([`${who}: not profiled: ${r.notes.join('; ')}`]);
  const parts = [
    r.status,
    `${kernelsText(r.byOrigin, r.suite, 'measured')}${noisyPart(r.noisy.length, r.measured)}`,
    ...(r.reorders ? [`${count(r.reorders, 'reorder')} stored beside them`] : []),
    ...(r.alreadyMeasured ? [`${count(r.alreadyMeasured, 'kernel')} already stored`] : []),
    `${r.failures.length} failed`,
    formatDuration(r.elapsedMs),
  ];
  const lines = [`${who}: ${parts.join('; ')}`];
  for (const f of r.failures.slice(0, 10)) lines.push(`  failed ${f.kernel}: ${f.kind}: ${f.error}`);
  if (r.failures.length > 10) lines.push(`  ... and ${r.failures.length - 10} more failures`);
  for (const n of r.notes) lines.push(`  note: ${n}`);
  if (r.conditions?.poor)
    lines.push(
      `  warning: profiled while ${r.conditions.poor}: predictions from this profile may read slow; profile again on a quiet machine`,
    );
  return textLines(lines);
}

/** The stored runs, oldest first, with the conditions each was taken in (quiet, poor and why, not read). */
export function renderProfileRuns(runs: readonly (StoredRun & { measurements: number })[]): string {
  return formatTable(
    ['STARTED', 'DEVICE', 'EP', 'THREADS', 'SUITE', 'STATUS', 'MEASUREMENTS', 'CONDITIONS'],
    runs.map((r) => [
      r.startedAt.replace('T', ' ').slice(0, 19),
      r.deviceKey,
      r.executionProvider,
      r.threads ?? '-',
      r.suite,
      r.status,
      r.measurements,
      conditionsLine(r.conditions),
    ]),
  );
}

/** Each measured GPU with a datasheet against its datasheet estimate (datasheet-check-service.ts). */
export function renderDatasheetChecks(checks: readonly DatasheetCheck[]): string {
  if (checks.length === 0)
    return 'No profiled GPU here has a datasheet in the catalog (pipedejavu gpus lists them) to check.';
  const families = [...new Set(checks.flatMap((c) => c.families.map((f) => f.family)))].sort();
  const pct = (v: number | undefined): string =>
    v === undefined || !Number.isFinite(v) ? '-' : `${Math.round(v * 100)}%`;
  return formatTable(
    ['DATASHEET', 'MEASURED', 'EP', 'KERNELS', 'ERROR', ...families.map((f) => f.toUpperCase())],
    checks.map((c) => [
      c.datasheet,
      `${c.measured.machine}/${c.measured.deviceKey}`,
      c.measured.executionProvider,
      c.kernels,
      pct(c.mape),
      ...families.map((f) => pct(c.families.find((x) => x.family === f)?.mape)),
    ]),
  );
}
