/**
 * The hostile-input bench's runner and judge (bench/hostile-bench.ts): runs one command in a child
 * with a wall-clock limit and a memory watch, and turns what happened into one verdict per case.
 *
 * Verdicts, worst first: EXEC (text from an input ran as code: a marker file appeared, or an emitted
 * script holds the payload as a line of code), OVERWRITE (a file that existed before changed, or
 * stored data was lost), HANG (killed at the limit), MEMORY (peak RSS over 1 GB), LEAK (an answer
 * told what it should not, e.g. whether a path exists), NO-MESSAGE (a bad input accepted, or refused
 * without one clear line: nothing, a stack trace, an internal error), ok.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';

export type Verdict = 'ok' | 'EXEC' | 'OVERWRITE' | 'HANG' | 'MEMORY' | 'LEAK' | 'NO-MESSAGE';

export const LIMIT_MS = 20_000;
export const MEMORY_LIMIT_BYTES = 1024 ** 3;

export interface RunResult {
  /** Exit code; null when killed. */
  code: number | null;
  stdout: string;
  stderr: string;
  wallS: number;
  /** Peak resident memory of the child's process tree (largest VmHWM seen), bytes; null when unread. */
  peakRssBytes: number | null;
  hang: boolean;
}

const OUTPUT_CAP = 1 << 20;

/** Pids of a process and its descendants, from /proc (Linux). */
function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    const p = out[i] as number;
    try {
      for (const t of readdirSync(`/proc/${p}/task`)) {
        const kids = readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim();
        if (kids) out.push(...kids.split(/\s+/).map(Number));
      }
    } catch {
      // gone
    }
  }
  return out;
}

/** VmHWM (peak RSS) of one process, bytes, or 0. */
export function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Runs `cmd args` (its own process group), kills the group at `limitMs` (a hang), samples the peak
 * RSS of its process tree every 100 ms. Output is kept up to 1 MiB a stream.
 */
export function runChild(
  cmd: string,
  args: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; limitMs?: number; input?: string } = {},
): Promise<RunResult> {
  const t0 = performance.now();
  const child = spawn(cmd, args, {
    env: opts.env ?? process.env,
    cwd: opts.cwd,
    detached: true,
    stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (opts.input !== undefined) child.stdin?.end(opts.input);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => {
    if (stdout.length < OUTPUT_CAP) stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    if (stderr.length < OUTPUT_CAP) stderr += d.toString();
  });
  let peak = 0;
  let hang = false;
  const sample = (): void => {
    if (child.pid) for (const p of processTree(child.pid)) peak = Math.max(peak, peakRss(p));
  };
  const watch = setInterval(sample, 100);
  const timer = setTimeout(() => {
    hang = true;
    sample();
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, opts.limitMs ?? LIMIT_MS);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearInterval(watch);
      clearTimeout(timer);
      resolve({
        code: hang ? null : code,
        stdout,
        stderr,
        wallS: (performance.now() - t0) / 1000,
        peakRssBytes: peak > 0 ? peak : null,
        hang,
      });
    });
  });
}

/** The first line a user reads: stderr's first non-empty line, else stdout's. */
export function firstLine(r: Pick<RunResult, 'stdout' | 'stderr'>): string {
  const pick = (s: string): string =>
    s
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  return pick(r.stderr) || pick(r.stdout);
}

/** Whether a refusal is one clear line: something said, no stack trace, no internal error. */
export function isClearRefusal(r: Pick<RunResult, 'code' | 'stdout' | 'stderr'>): boolean {
  const line = firstLine(r);
  if (r.code === 0 || line === '') return false;
  if (/internal error|^\s*at .+:\d+:\d+\)?$|(TypeError|RangeError|ReferenceError|SyntaxError):/m.test(r.stderr))
    return false;
  return r.stderr.trim().split('\n').length <= 3;
}

/** sha256 of a file (through a symlink), or a word for what it is instead. */
export function fingerprint(file: string): string {
  try {
    const st = lstatSync(file);
    if (st.isSymbolicLink()) return `link:${readlinkSync(file)}`;
    if (!st.isFile()) return 'not-a-file';
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return 'missing';
  }
}

export interface Observed {
  result: RunResult;
  /** The case expects a refusal (a bad input) or a success (hostile text that must stay data). */
  expect: 'refuse' | 'succeed';
  /** A marker file the payload would create. */
  marker?: string;
  /** Emitted lines of code that hold the payload (a static look at emitted scripts). */
  payloadLines?: number;
  /** Fingerprints of files that must not change, before and after. */
  protectedBefore?: Record<string, string>;
  protectedAfter?: Record<string, string>;
  /** A case's own finding that data was lost (e.g. newer measurements replaced). */
  lost?: string | null;
  /** A case's own finding that an answer leaked what it should not. */
  leak?: string | null;
  /** A case's own finding about its message (null: the generic rules decide). */
  messageProblem?: string | null;
}

/** The verdict of one case, and why (empty for ok). */
export function judge(o: Observed): { verdict: Verdict; why: string } {
  if ((o.marker && existsSync(o.marker)) || (o.payloadLines ?? 0) > 0) {
    const why = o.marker && existsSync(o.marker) ? 'the marker file was created' : '';
    return {
      verdict: 'EXEC',
      why: why || `${o.payloadLines} emitted line(s) run the payload as code`,
    };
  }
  const changed = Object.keys(o.protectedBefore ?? {}).filter(
    (f) => (o.protectedBefore ?? {})[f] !== (o.protectedAfter ?? {})[f],
  );
  if (changed.length > 0)
    return { verdict: 'OVERWRITE', why: `changed: ${changed.map((f) => path.basename(f)).join(', ')}` };
  if (o.lost) return { verdict: 'OVERWRITE', why: o.lost };
  if (o.result.hang) return { verdict: 'HANG', why: `killed after ${LIMIT_MS / 1000} s` };
  if ((o.result.peakRssBytes ?? 0) > MEMORY_LIMIT_BYTES)
    return { verdict: 'MEMORY', why: `peak RSS ${Math.round((o.result.peakRssBytes ?? 0) / 2 ** 20)} MiB` };
  if (o.leak) return { verdict: 'LEAK', why: o.leak };
  if (o.messageProblem) return { verdict: 'NO-MESSAGE', why: o.messageProblem };
  if (o.expect === 'refuse' && o.result.code === 0) return { verdict: 'NO-MESSAGE', why: 'accepted (exit 0)' };
  if (o.expect === 'refuse' && !isClearRefusal(o.result))
    return { verdict: 'NO-MESSAGE', why: 'refused without one clear line' };
  if (o.expect === 'succeed' && o.result.code !== 0 && !isClearRefusal(o.result))
    return { verdict: 'NO-MESSAGE', why: 'failed without one clear line' };
  return { verdict: 'ok', why: '' };
}

/** Lines of emitted scripts whose code (not a comment, not a string) starts with the payload. */
export function payloadCodeLines(dir: string, payloadStart: string): number {
  let n = 0;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile())
        // Python ends a line at CR too; bash only at LF.
        for (const line of readFileSync(p, 'utf8').split(p.endsWith('.py') ? /\r\n|\r|\n/ : /\n/))
          if (line.trim().startsWith(payloadStart)) n++;
    }
  };
  if (existsSync(dir)) walk(dir);
  return n;
}
