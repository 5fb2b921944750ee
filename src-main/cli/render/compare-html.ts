/**
 * `pipedejavu compare --html FILE`: one self-contained HTML page (inline styles and SVG charts, no
 * script, nothing fetched) with the machines side by side, to open in a browser or attach to a
 * message. Every text from a profile is escaped.
 */
import type { Comparison } from '../../services/measure/compare-service.js';
import { comparedFamilies, timeText } from './compare.js';

const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

interface Bar {
  label: string;
  value: number | undefined;
  text: string;
}

const PALETTE = ['#2358c7', '#c76a23', '#2f9e44', '#9c36b5', '#c92a2a', '#0b7285', '#5f3dc4', '#e67700'];

/** The most characters of a bar's label that fit left of its bar (12px text, 300px): longer ones lose their middle. */
const LABEL_CHARS = 44;

/** A long label with its middle left out ("gpunode0007.rack00…cuda:0 (cuda)"): the start and the device stay. */
function fitted(label: string): string {
  if (label.length <= LABEL_CHARS) return label;
  const tail = Math.floor((LABEL_CHARS - 1) / 2);
  return `${label.slice(0, LABEL_CHARS - 1 - tail)}…${label.slice(-tail)}`;
}

/** A horizontal bar chart; bars without a value are listed with "-". */
function barChart(title: string, bars: readonly Bar[], colorOf: (i: number) => string): string {
  const rowH = 22;
  const labelW = 300;
  const chartW = 360;
  const max = Math.max(0, ...bars.map((b) => b.value ?? 0));
  const h = bars.length * rowH + 8;
  const rows = bars
    .map((b, i) => {
      const y = i * rowH + 4;
      const w = max > 0 && b.value !== undefined ? Math.max(1, (b.value / max) * chartW) : 0;
      return (
        `<text x="${labelW - 8}" y="${y + 15}" text-anchor="end"><title>${esc(b.label)}</title>${esc(fitted(b.label))}</text>` +
        `<rect x="${labelW}" y="${y + 3}" width="${w.toFixed(1)}" height="${rowH - 8}" fill="${colorOf(i)}"/>` +
        `<text x="${labelW + w + 6}" y="${y + 15}">${esc(b.text)}</text>`
      );
    })
    .join('');
  return (
    `<figure><figcaption>${esc(title)}</figcaption>` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelW + chartW + 120}" height="${h}" viewBox="0 0 ${labelW + chartW + 120} ${h}" role="img" aria-label="${esc(title)}">${rows}</svg></figure>`
  );
}

export function renderComparisonHtml(c: Comparison, generatedAt: string): string {
  const devices = c.machines.flatMap((m, mi) => m.devices.map((d) => ({ m, mi, d })));
  const label = (x: (typeof devices)[number]): string =>
    `${x.m.label} ${x.d.deviceKey}${x.d.threads ? ` ${x.d.threads}t` : ''} (${x.d.executionProvider})`;
  const colorOf = (i: number): string => PALETTE[(devices[i]?.mi ?? 0) % PALETTE.length] as string;
  const num = (v: number | null | undefined, unit: string): string =>
    v === null || v === undefined ? '-' : `${v.toFixed(v >= 100 ? 0 : 1)} ${unit}`;
  const charts = [
    barChart(
      'Peak fp32 GFLOP/s',
      devices.map((x) => ({
        label: label(x),
        value: x.d.summary.peakGflops.fp32,
        text: num(x.d.summary.peakGflops.fp32, 'GFLOP/s'),
      })),
      colorOf,
    ),
    barChart(
      'Memory bandwidth GB/s',
      devices.map((x) => ({
        label: label(x),
        value: x.d.summary.bandwidthGBps ?? undefined,
        text: num(x.d.summary.bandwidthGBps, 'GB/s'),
      })),
      colorOf,
    ),
    ...(c.workload
      ? [
          barChart(
            `${c.workload.name}: predicted time (${c.workload.mode}, batch ${c.workload.batch}; shorter is faster)`,
            devices.map((x) => ({ label: label(x), value: x.d.predictedUs, text: timeText(x.d.predictedUs) })),
            colorOf,
          ),
        ]
      : []),
  ];
  const families = comparedFamilies(c);
  const head = [
    'Machine',
    'Device',
    'EP',
    'Threads',
    'fp32 GFLOP/s',
    'fp16 GFLOP/s',
    'GB/s',
    'Ridge FLOP/B',
    'Dispatch µs',
  ]
    .concat(families.map((f) => `${f} efficiency`))
    .concat(c.workload ? [c.workload.name] : []);
  // The machine and device names wrap anywhere (a long hostname has no space); figures stay on one line.
  const cell = (v: string, i: number): string => `<td${i < 2 ? ' class="name"' : ''}>${esc(v)}</td>`;
  const body = devices
    .map(
      (x) =>
        '<tr>' +
        [
          x.m.label,
          `${x.d.deviceKey} ${x.d.name}`,
          x.d.executionProvider,
          x.d.threads === null ? '-' : String(x.d.threads),
          num(x.d.summary.peakGflops.fp32, ''),
          num(x.d.summary.peakGflops.fp16, ''),
          num(x.d.summary.bandwidthGBps, ''),
          num(x.d.summary.ridgePoint, ''),
          num(x.d.summary.dispatchOverheadUs, ''),
          ...families.map((f) =>
            x.d.familyEfficiency[f] === undefined ? '-' : `${Math.round((x.d.familyEfficiency[f] ?? 0) * 100)}%`,
          ),
          ...(c.workload ? [timeText(x.d.predictedUs)] : []),
        ]
          .map(cell)
          .join('') +
        '</tr>',
    )
    .join('\n');
  const title = `pipeDejavu: ${c.machines.map((m) => m.label).join(' vs ')}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#1c1e21;background:#fff}
h1{font-size:1.4rem;overflow-wrap:anywhere}table{border-collapse:collapse}td,th{border:1px solid #d0d4da;padding:.25rem .5rem;text-align:left}
td{white-space:nowrap}td.name{white-space:normal;overflow-wrap:anywhere;min-width:8rem}
th{background:#f1f3f5}figure{margin:1rem 0}figcaption{font-weight:600;margin-bottom:.25rem}svg text{font:12px system-ui,sans-serif;fill:#1c1e21}
svg{max-width:100%;height:auto}.table{overflow-x:auto;margin:1rem 0}
.muted{color:#6b7280}
</style></head>
<body>
<h1>${esc(title)}</h1>
<p class="muted">Measured rooflines from each machine's profile${c.workload ? `; ${esc(c.workload.name)} predicted with the ${esc(c.workload.predictor)} predictor` : ''}. Generated ${esc(generatedAt)} by pipedejavu compare.</p>
${charts.join('\n')}
<div class="table"><table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${body}
</tbody></table></div>
</body></html>
`;
}
