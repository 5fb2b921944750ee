/**
 * The evaluation report as text for the CLI: one table per protocol, predictors side by
 * side, the headline (big ops) and tiny-op lines first, then all metrics, per family and
 * per size. Pure.
 */
import { physicalDeviceCount } from '../../domain/device-id.js';
import { count } from '../../text/plural.js';
import type { Metrics } from './metrics.js';
import type { EvaluationReport, PredictorSummary, ProtocolReport } from './types.js';

const MAX_SKIPPED_SHOWN = 8;

function pct(v: number): string {
  if (!Number.isFinite(v)) return '-';
  return Math.abs(v) >= 1000 ? v.toFixed(0) : v.toFixed(1);
}

function rho(v: number): string {
  return Number.isFinite(v) ? v.toFixed(3) : '-';
}

function withCount(m: Metrics | undefined): string {
  return m && m.count > 0 ? `${pct(m.mape)} (${m.count})` : '-';
}

/** Left-aligned first column, right-aligned others, two spaces apart. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

type Row = [string, (s: PredictorSummary) => string];

function metricRows(report: EvaluationReport, p: ProtocolReport): Row[] {
  const { bigUs, tinyUs } = report.options;
  const rows: Row[] = [
    [`>=${bigUs} µs MAPE % (headline)`, (s) => pct(s.above100us.mape)],
    [`>=${bigUs} µs median APE %`, (s) => pct(s.above100us.medianApe)],
    [`>=${bigUs} µs p90 APE %`, (s) => pct(s.above100us.p90Ape)],
    [`>=${bigUs} µs n`, (s) => String(s.above100us.count)],
    [`<${tinyUs} µs MAPE % (timer noise)`, (s) => pct(s.under10us.mape)],
    [`<${tinyUs} µs n`, (s) => String(s.under10us.count)],
    ['all: MAPE %', (s) => pct(s.overall.mape)],
    ['all: median APE %', (s) => pct(s.overall.medianApe)],
    ['all: RMSPE %', (s) => pct(s.overall.rmspe)],
    ['all: p90 APE %', (s) => pct(s.overall.p90Ape)],
    ['all: max APE %', (s) => pct(s.overall.maxApe)],
    ['all: within ±5 %', (s) => pct(s.overall.within5)],
    ['all: within ±10 %', (s) => pct(s.overall.within10)],
    ['all: within ±15 %', (s) => pct(s.overall.within15)],
    ['all: Spearman', (s) => rho(s.overall.spearman)],
    ['all: inside the 90% band %', (s) => pct(s.overall.bandCoverage)],
    ['all: median band half-width %', (s) => pct(s.overall.bandHalfWidth)],
    ['all: n', (s) => String(s.overall.count)],
  ];
  const summaries = Object.values(p.byPredictor);
  const families = [...new Set(summaries.flatMap((s) => Object.keys(s.byFamily)))].sort();
  for (const f of families) rows.push([`family ${f}: MAPE % (n)`, (s) => withCount(s.byFamily[f])]);
  const sizes = [...new Set(summaries.flatMap((s) => Object.keys(s.bySize)))];
  for (const b of sizes) rows.push([`size ${b}: MAPE % (n)`, (s) => withCount(s.bySize[b])]);
  return rows;
}

function formatProtocol(report: EvaluationReport, p: ProtocolReport): string {
  const lines = [`== ${p.name}: ${p.folds} fold${p.folds === 1 ? '' : 's'} ==`];
  const names = Object.keys(p.byPredictor);
  if (names.length === 0) lines.push('(nothing evaluated)');
  else {
    const header = ['metric', ...names];
    const body = metricRows(report, p).map(([label, cell]) => [
      label,
      ...names.map((n) => {
        const s = p.byPredictor[n];
        return s ? cell(s) : '-';
      }),
    ]);
    lines.push(table([header, ...body]));
  }
  for (const reason of p.skipped.slice(0, MAX_SKIPPED_SHOWN)) lines.push(`skipped: ${reason}`);
  if (p.skipped.length > MAX_SKIPPED_SHOWN) lines.push(`skipped: ... and ${p.skipped.length - MAX_SKIPPED_SHOWN} more`);
  return lines.join('\n');
}

export function formatReport(report: EvaluationReport, deviceName: (id: string) => string = (id) => id): string {
  const { bigUs, tinyUs } = report.options;
  const head = [
    `Predictor accuracy on held-out data: ${count(report.samples, 'sample')}, ${count(physicalDeviceCount(report.devices), 'device')}: ${report.devices.map(deviceName).join(', ')}`,
    `APE = |measured - predicted| / measured. Headline: ops measured >= ${bigUs} µs; ops under ${tinyUs} µs are dominated by timer noise.`,
  ];
  return [head.join('\n'), ...report.protocols.map((p) => formatProtocol(report, p))].join('\n\n') + '\n';
}
