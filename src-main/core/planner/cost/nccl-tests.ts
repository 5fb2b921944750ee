/**
 * nccl-tests output (all_reduce_perf, all_gather_perf, ...): the result table and the ranks it
 * ran on, and an alpha-beta fit of time against size, so measured collectives can replace the
 * model's (collectives.ts). Pure.
 *
 * Table rows: size (B), count (elements), type, [redop], [root], then out-of-place time (µs),
 * algbw, busbw (GB/s), #wrong, and the same four in place. busbw = algbw x a per-op factor
 * (nccl-tests' PERFORMANCE.md): all_reduce 2(n−1)/n, all_gather / reduce_scatter / alltoall
 * (n−1)/n, others 1 — the bandwidth a ring link would need, comparable across n.
 */
import { UserError } from '../../errors.js';

export interface NcclTiming {
  timeUs: number;
  algbwGBps: number;
  busbwGBps: number;
  /** Wrong elements, null when validation was off ("N/A"). */
  wrong: number | null;
}

export interface NcclRow {
  op: string;
  sizeBytes: number;
  count: number;
  type: string;
  redop: string | null;
  root: number | null;
  /** Out-of-place figures (the row's first four). */
  timeUs: number;
  algbwGBps: number;
  busbwGBps: number;
  wrong: number | null;
  inPlace: NcclTiming | null;
}

export interface NcclRank {
  rank: number;
  host: string;
  device: number;
  busId: string;
  name: string;
}

export interface NcclTestsResult {
  /** "all_reduce", "all_gather", ... from "# Collective test starting: all_reduce_perf", or the caller's. */
  op: string;
  ranks: NcclRank[];
  rows: NcclRow[];
  /** "# Avg bus bandwidth" line, GB/s. */
  avgBusbwGBps: number | null;
}

const RANK_RE =
  /^#\s*Rank\s+(\d+)\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)\s+device\s+(\d+)\s+\[([^\]]*)\]\s+(.*?)\s*$/;
const OP_RE = /^#\s*Collective test starting:\s*(\S+?)(?:_perf)?\s*$/;
const AVG_RE = /^#\s*Avg bus bandwidth\s*:\s*([\d.]+)/;

/** Where a value was read: "nccl.txt line 12". */
type Where = string;

function num(s: string | undefined, what: string, where: Where): number {
  const v = Number(s);
  if (s === undefined || !Number.isFinite(v)) throw new UserError(`${where}: ${what} "${String(s)}" is not a number`);
  return v;
}

/** A time or bandwidth the table printed: a finite number, and a positive one for a time. */
function timing(t: readonly string[], prefix: string, where: Where): NcclTiming {
  const timeUs = num(t[0], `${prefix}time`, where);
  if (!(timeUs > 0)) throw new UserError(`${where}: ${prefix}time "${String(t[0])}" is not a positive number`);
  const wrong = t[3] === undefined || t[3] === 'N/A' ? null : num(t[3], `${prefix}#wrong`, where);
  return {
    timeUs,
    algbwGBps: num(t[1], `${prefix}algbw`, where),
    busbwGBps: num(t[2], `${prefix}busbw`, where),
    wrong,
  };
}

/**
 * Parses nccl-tests output. Lines that are not table rows (banners, warnings, MPI noise) are
 * skipped; a table without rows is a UserError. `op` names the test when the output does not;
 * `source` (a file name) starts each error, with the line: "nccl.txt line 12: time "nan" is not a number".
 */
export function parseNcclTests(text: string, opts: { op?: string; source?: string } = {}): NcclTestsResult {
  let op = opts.op ?? null;
  let header: string[] | null = null;
  let avg: number | null = null;
  const ranks: NcclRank[] = [];
  const rows: NcclRow[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const where = `${opts.source ?? 'nccl-tests'} line ${i + 1}`;
    if (line.startsWith('#')) {
      const r = RANK_RE.exec(line);
      const o = OP_RE.exec(line);
      const a = AVG_RE.exec(line);
      const words = line.slice(1).trim().split(/\s+/);
      if (r) {
        const [rank, device] = [num(r[1], 'rank', where), num(r[3], 'device', where)];
        ranks.push({ rank, host: r[2] ?? '', device, busId: r[4] ?? '', name: r[5] ?? '' });
      } else if (o && opts.op === undefined) op = o[1] ?? op;
      else if (a) avg = num(a[1], 'average bus bandwidth', where);
      else if (words[0] === 'size' && words[1] === 'count') header = words;
      continue;
    }
    const t = line.split(/\s+/);
    if (t.length < 11 || !/^\d+$/.test(t[0] ?? '')) continue;
    const lead = t.slice(0, t.length - 8);
    const [outPlace, inPlace] = [t.slice(-8, -4), t.slice(-4)];
    const col = (name: string): string | undefined => {
      const i = header ? header.indexOf(name) : ['size', 'count', 'type', 'redop', 'root'].indexOf(name);
      return i >= 0 && i < lead.length ? lead[i] : undefined;
    };
    const root = col('root');
    const o = timing(outPlace, '', where);
    const ip = inPlace[0] === 'N/A' ? null : timing(inPlace, 'in-place ', where);
    rows.push({
      op: op ?? 'unknown',
      sizeBytes: num(lead[0], 'size', where),
      count: num(lead[1], 'count', where),
      type: lead[2] ?? '',
      redop: col('redop') ?? null,
      root: root === undefined ? null : num(root, 'root', where),
      ...o,
      inPlace: ip,
    });
  }
  if (rows.length === 0)
    throw new UserError(
      `${opts.source ?? 'nccl-tests'}: no result rows found (expected lines like "  1048576  262144  float  sum  -1  ...")`,
    );
  const name = op ?? 'unknown';
  return { op: name, ranks, rows: rows.map((r) => ({ ...r, op: name })), avgBusbwGBps: avg };
}

/** busbw / algbw of nccl-tests for an op over n ranks. */
export function busBandwidthFactor(op: string, n: number): number {
  if (n < 2) return 1;
  if (op === 'all_reduce') return (2 * (n - 1)) / n;
  if (op === 'all_gather' || op === 'reduce_scatter' || op === 'alltoall') return (n - 1) / n;
  return 1;
}

/** time(bytes) = alphaUs + bytes / (gbps·1e3) µs. */
export interface AlphaBetaFit {
  alphaUs: number;
  /** Effective (algorithm) bandwidth, GB/s. */
  gbps: number;
  points: number;
  /** Largest |fit − time| / time over the points. */
  maxRelError: number;
}

/**
 * Least squares of time against size. 'relative' (default) weighs each point by 1/time², so a
 * sweep from bytes to gigabytes fits the latency of small messages as well as the bandwidth of
 * large ones; 'none' is ordinary least squares (dominated by the largest sizes). A negative
 * intercept is refitted through 0. Null with fewer than two sizes or no positive slope.
 */
export function fitAlphaBeta(
  points: readonly { sizeBytes: number; timeUs: number }[],
  opts: { weighting?: 'relative' | 'none' } = {},
): AlphaBetaFit | null {
  const ps = points.filter((p) => p.sizeBytes > 0 && p.timeUs > 0);
  if (new Set(ps.map((p) => p.sizeBytes)).size < 2) return null;
  let [w, sx, sy, sxx, sxy] = [0, 0, 0, 0, 0];
  for (const p of ps) {
    const wi = opts.weighting === 'none' ? 1 : 1 / (p.timeUs * p.timeUs);
    w += wi;
    sx += wi * p.sizeBytes;
    sy += wi * p.timeUs;
    sxx += wi * p.sizeBytes * p.sizeBytes;
    sxy += wi * p.sizeBytes * p.timeUs;
  }
  let b = (w * sxy - sx * sy) / (w * sxx - sx * sx);
  let a = (sy - b * sx) / w;
  if (a < 0) {
    a = 0;
    b = sxy / sxx;
  }
  if (!(b > 0) || !Number.isFinite(b)) return null;
  const maxRelError = Math.max(...ps.map((p) => Math.abs(a + b * p.sizeBytes - p.timeUs) / p.timeUs));
  return { alphaUs: a, gbps: 1 / (b * 1e3), points: ps.length, maxRelError };
}

export interface NcclFit {
  op: string;
  ranks: number;
  /** The collective's own time(bytes): use for exactly these ranks. */
  fit: AlphaBetaFit;
  /**
   * The per-link alpha and bandwidth a ring with this result would have (the collectives.ts
   * formulas inverted): all_reduce alpha / 2(n−1), bandwidth x 2(n−1)/n (= busbw).
   */
  link: { alphaUs: number; gbps: number };
}

/** Fits a parsed result (out-of-place times); ranks from the output unless given. Null when unfittable. */
export function fitNcclTests(result: NcclTestsResult, ranks = result.ranks.length): NcclFit | null {
  const fit = fitAlphaBeta(result.rows);
  if (!fit) return null;
  const n = Math.max(ranks, 1);
  const steps = result.op === 'all_reduce' ? 2 * (n - 1) : busBandwidthFactor(result.op, n) < 1 ? n - 1 : 1;
  return {
    op: result.op,
    ranks: n,
    fit,
    link: { alphaUs: fit.alphaUs / Math.max(steps, 1), gbps: fit.gbps * busBandwidthFactor(result.op, n) },
  };
}
