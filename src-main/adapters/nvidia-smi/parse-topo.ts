/**
 * Parses `nvidia-smi topo -m`: a tab-separated matrix whose header row lists the
 * devices (GPU0.., NIC0.. or, on old drivers, mlx5_0..) and then affinity columns
 * ("CPU Affinity", "NUMA Affinity", "GPU NUMA ID" on newer drivers), followed by a
 * legend that may name the NICs ("NIC0: mlx5_0").
 */
import type { TopoCell, TopoKind, Topology } from '../../core/domain/hardware.js';
import { cleanText, firstLine } from './text.js';

const AFFINITY_HEADER = /affinity|numa/i;
const PLAIN_KINDS: ReadonlySet<string> = new Set<TopoKind>(['X', 'PIX', 'PXB', 'PHB', 'NODE', 'SYS']);
/** Names older drivers printed for today's kinds. */
const OLD_KINDS: Readonly<Record<string, TopoKind>> = { SOC: 'SYS' };

export function parseTopoCell(raw: string): TopoCell {
  const v = raw.trim();
  const nv = /^NV(\d+)$/.exec(v);
  if (nv?.[1]) return { kind: 'NV', nvlinks: Number(nv[1]), raw: v };
  if (PLAIN_KINDS.has(v)) return { kind: v as TopoKind, nvlinks: null, raw: v };
  return { kind: OLD_KINDS[v] ?? 'UNKNOWN', nvlinks: null, raw: v };
}

const orNull = (v: string | undefined): string | null => {
  const t = v?.trim();
  return t && !/^N\/A$/i.test(t) ? t : null;
};

/**
 * Aligns a row's affinity cells with the affinity headers. Drivers print an extra
 * empty cell before "GPU NUMA ID" (`0-55,112-167\t0\t\tN/A`) and sometimes trailing tabs:
 * drop trailing empty cells; if there are still more cells than headers, the leading
 * headers take cells from the left and the last header the last cell.
 */
function alignAffinity(headers: readonly string[], cells: readonly string[]): (string | null)[] {
  const a = cells.map((c) => c.trim());
  while (a.length > 0 && a[a.length - 1] === '') a.pop();
  if (headers.length > 0 && a.length > headers.length) a.splice(headers.length - 1, a.length, a[a.length - 1] ?? '');
  return headers.map((_, i) => orNull(a[i]));
}

function parseNicNames(lines: readonly string[]): Record<string, string> {
  const names: Record<string, string> = {};
  const start = lines.findIndex((l) => /^\s*NIC Legend:/i.test(l));
  if (start < 0) return names;
  for (const line of lines.slice(start + 1)) {
    const m = /^\s*(NIC\d+)\s*:\s*(\S+)\s*$/.exec(line);
    if (m?.[1] && m[2]) names[m[1]] = m[2];
    else if (line.trim() !== '' && Object.keys(names).length > 0) break;
  }
  return names;
}

export interface TopoParse {
  topology: Topology | null;
  warnings: string[];
}

export function parseTopology(text: string): TopoParse {
  const lines = cleanText(text).split('\n');
  const headerAt = lines.findIndex((l) => {
    const cells = l.split('\t').map((c) => c.trim());
    return cells[0] === '' && cells.some((c) => /^GPU\d+$/.test(c));
  });
  const unparseable = (): TopoParse => ({
    topology: null,
    warnings: [`could not read the GPU topology from nvidia-smi topo -m: ${firstLine(text)}`],
  });
  if (headerAt < 0) return unparseable();

  const header = (lines[headerAt] ?? '')
    .split('\t')
    .slice(1)
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const firstAffinity = header.findIndex((c) => AFFINITY_HEADER.test(c));
  const labels = firstAffinity < 0 ? header : header.slice(0, firstAffinity);
  const affinityHeaders = firstAffinity < 0 ? [] : header.slice(firstAffinity);
  const n = labels.length;

  const rows = new Map<string, string[]>();
  for (const line of lines.slice(headerAt + 1)) {
    if (line.trim() === '' || /^\s*Legend:/i.test(line)) break;
    const cells = line.split('\t');
    const label = cells[0]?.trim() ?? '';
    if (labels.includes(label)) rows.set(label, cells.slice(1));
  }
  if (rows.size === 0) return unparseable();

  const warnings: string[] = [];
  const missing = labels.filter((l) => !rows.has(l));
  if (missing.length > 0) warnings.push(`nvidia-smi topo -m printed no row for ${missing.join(', ')}`);

  const column = (name: RegExp, aff: (string | null)[]): string | null => {
    const i = affinityHeaders.findIndex((h) => name.test(h));
    return i < 0 ? null : (aff[i] ?? null);
  };
  const matrix: TopoCell[][] = [];
  const cpuAffinity: (string | null)[] = [];
  const numaAffinity: (string | null)[] = [];
  const gpuNumaId: (string | null)[] = [];
  for (const label of labels) {
    const cells = rows.get(label) ?? [];
    matrix.push(labels.map((_, j) => parseTopoCell(cells[j] ?? '')));
    const aff = alignAffinity(affinityHeaders, cells.slice(n));
    cpuAffinity.push(column(/^CPU Affinity$/i, aff));
    numaAffinity.push(column(/^NUMA Affinity$/i, aff));
    gpuNumaId.push(column(/^GPU NUMA ID$/i, aff));
  }
  return {
    topology: { labels, matrix, cpuAffinity, numaAffinity, gpuNumaId, nicNames: parseNicNames(lines) },
    warnings,
  };
}
