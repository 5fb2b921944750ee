/**
 * The PyTorch backend's runner: a Python child (torch_runner.py) that times the kernel
 * catalogue with PyTorch ops, CUDA events on a GPU and perf_counter on the CPU. Shaped like
 * the ONNX Runtime kernel runner for the profiler (start, run, kill, close), never rejecting
 * for a kernel's own failure. The Python is the first that imports torch of: the one named
 * (--python, $PIPEDEJAVU_PYTHON), each python3 on PATH, /usr/bin/python3. None: start()
 * throws one line saying which were tried and why.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { FailureKind, OverheadJob, OverheadOutcome, RunJob, RunOutcome } from '../ort/protocol.js';
import type { EpConfig } from '../../core/domain/execution-provider.js';
import { blasPoolOf } from '../../core/profiler/blas-pool.js';
import type { RunnerInfo } from '../ort/kernel-runner.js';
import { pythonScriptPath } from '../python/python-script.js';
import { torchDevice, type TorchHello, type TorchMessage } from './torch-protocol.js';

export interface TorchRunnerOptions {
  /** The Python to use (--python); else $PIPEDEJAVU_PYTHON, python3 on PATH, /usr/bin/python3. */
  python?: string;
  env?: NodeJS.ProcessEnv;
  /** Kill the child when one kernel takes longer than this (ms). */
  jobTimeoutMs?: number;
  /** How long importing torch may take (ms); a cold import of a CUDA build takes seconds. */
  startTimeoutMs?: number;
}

/** The Pythons to try, in order, without duplicates (by real path). */
export function pythonCandidates(explicit: string | undefined, env: NodeJS.ProcessEnv): string[] {
  if (explicit) return [explicit];
  if (env.PIPEDEJAVU_PYTHON) return [env.PIPEDEJAVU_PYTHON];
  const onPath = (env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((d) => path.join(d, 'python3'));
  const seen = new Set<string>();
  return [...onPath, '/usr/bin/python3'].filter((p) => {
    if (!existsSync(p)) return false;
    let real = p;
    try {
      real = realpathSync(p);
    } catch {
      return false;
    }
    if (seen.has(real)) return false;
    seen.add(real);
    return true;
  });
}

interface Child {
  proc: ChildProcessWithoutNullStreams;
  hello: TorchHello;
  /** Resolves the pending request with a message, or with null when the child exits. */
  onLine: ((m: TorchMessage | null) => void) | null;
  stderr: string;
}

interface Prepared {
  id: number;
  child: Child;
  device: NonNullable<ReturnType<typeof torchDevice>>;
}

export class TorchRunner {
  private child: Child | null = null;
  private nextId = 1;
  /** Why no Python with torch was found: said again without trying every Python again. */
  private noTorch: string | null = null;

  constructor(private readonly opts: TorchRunnerOptions = {}) {}

  private get env(): NodeJS.ProcessEnv {
    // torch numbers GPUs fastest first unless told otherwise; nvidia-smi (and the probe) by PCI bus.
    return { ...(this.opts.env ?? process.env), CUDA_DEVICE_ORDER: 'PCI_BUS_ID', PYTHONUNBUFFERED: '1' };
  }

  /** Starts Python with torch (once) and returns its versions; throws one line when no Python has torch. */
  async start(): Promise<RunnerInfo> {
    const child = this.child ?? (await this.spawnFirstWithTorch());
    const h = child.hello;
    return {
      ortVersion: `torch ${h.torch}${h.cudaVersion ? ` (CUDA ${h.cudaVersion})` : ''}`,
      blas: blasPoolOf(h.blas),
      backends: [{ name: 'torch-cpu', bundled: true }, ...(h.cuda ? [{ name: 'torch-cuda', bundled: true }] : [])],
    };
  }

  /** What the started Python said about itself (devices, versions), or null before start(). */
  hello(): TorchHello | null {
    return this.child?.hello ?? null;
  }

  private async spawnFirstWithTorch(): Promise<Child> {
    if (this.noTorch) throw new Error(this.noTorch);
    const tried: string[] = [];
    const candidates = pythonCandidates(this.opts.python, this.opts.env ?? process.env);
    for (const python of candidates) {
      const r = await this.spawnOne(python);
      if ('hello' in r) {
        this.child = r;
        return r;
      }
      tried.push(`${python}: ${r.reason}`);
    }
    this.noTorch =
      candidates.length === 0
        ? 'PyTorch backend: no python3 found (install Python with torch, or name one with --python)'
        : `PyTorch backend: no torch in ${tried.join('; ')}`;
    throw new Error(this.noTorch);
  }

  private spawnOne(python: string): Promise<Child | { reason: string }> {
    return new Promise((resolve) => {
      const script = pythonScriptPath('torch_runner.py', import.meta.url);
      const proc = spawn(python, ['-u', script], { env: this.env, stdio: ['pipe', 'pipe', 'pipe'] });
      const child: Child = { proc, hello: null as unknown as TorchHello, onLine: null, stderr: '' };
      let settled = false;
      const settle = (v: Child | { reason: string }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (!('hello' in v) || v.hello === null) proc.kill('SIGKILL');
        resolve(v);
      };
      const timeoutMs = this.opts.startTimeoutMs ?? 120_000;
      const timer = setTimeout(() => settle({ reason: `import torch took over ${timeoutMs / 1000} s` }), timeoutMs);
      proc.stderr.on('data', (d: Buffer) => (child.stderr = (child.stderr + d.toString()).slice(-4000)));
      proc.on('error', (e) => settle({ reason: `could not run: ${e.message}` }));
      let buffer = '';
      proc.stdout.on('data', (d: Buffer) => {
        buffer += d.toString();
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          const m = parseLine(line);
          if (!settled) {
            if (m?.type === 'ready') settle(Object.assign(child, { hello: m }));
            else if (m?.type === 'no-torch') settle({ reason: m.error });
          } else child.onLine?.(m);
        }
      });
      proc.on('exit', (code, signal) => {
        settle({ reason: `exited (${signal ?? `code ${code}`}) ${lastLine(child.stderr)}`.trim() });
        if (this.child === child) this.child = null;
        child.onLine?.(null);
      });
    });
  }

  /** A new request's id, the started child and the torch device of `ep`; or why no request can run. */
  private async prepare(ep: EpConfig): Promise<Prepared | { id: number; ok: false; kind: FailureKind; error: string }> {
    const id = this.nextId++;
    try {
      const child = this.child ?? (await this.spawnFirstWithTorch());
      const device = torchDevice(ep);
      if (!device) return { id, ok: false, kind: 'unsupported', error: `${ep.name} is not a PyTorch backend` };
      return { id, child, device };
    } catch (e) {
      return { id, ok: false, kind: 'ep-unavailable', error: (e as Error).message };
    }
  }

  /** Times one kernel; never rejects for the kernel's own failure. */
  async run(job: Omit<RunJob, 'id' | 'traceDir'>): Promise<RunOutcome> {
    const ready = await this.prepare(job.ep);
    if ('ok' in ready) return ready;
    const { id, child, device } = ready;
    const timeoutMs = this.opts.jobTimeoutMs ?? Math.max(60_000, job.rule.budgetMs * 20);
    const { op, dtype, shape } = job.spec;
    const request = { id, ...device, rule: job.rule, spec: { op, dtype, shape } };
    const answer = await this.ask(child, 'run', request, timeoutMs);
    if (answer === 'timeout')
      return {
        id,
        ok: false,
        kind: 'timeout',
        error: `kernel did not finish within ${Math.round(timeoutMs / 1000)} s`,
      };
    if (answer === null || answer.type !== 'result') return died(id, child);
    const o = answer.outcome;
    return o.ok
      ? {
          id,
          ok: true,
          kernelUs: o.kernelUs,
          wallUs: o.wallUs,
          providers: [job.ep.name],
          byOpUs: {},
          nodeOps: {},
          stop: o.stop,
          sessionCreateMs: 0,
          timedBy: device.device === 'cpu' ? 'wall-clock' : 'cuda-events',
        }
      : { id, ok: false, kind: o.kind, error: o.error };
  }

  /**
   * Times chains of 1..N tiny eager ops (dependent adds on 16 elements): the line through them is
   * what one op costs beyond its work, PyTorch's dispatch from Python. Never rejects.
   */
  async runOverhead(job: Omit<OverheadJob, 'id' | 'traceDir'>): Promise<OverheadOutcome> {
    const ready = await this.prepare(job.ep);
    if ('ok' in ready) return ready;
    const { id, child, device } = ready;
    const rounds = job.rounds ?? 1;
    const timeoutMs = this.opts.jobTimeoutMs ?? Math.max(60_000, job.rule.budgetMs * 20 * job.lengths.length * rounds);
    const request = { id, ...device, rule: job.rule, lengths: job.lengths, rounds };
    const answer = await this.ask(child, 'overhead', request, timeoutMs);
    if (answer === 'timeout')
      return { id, ok: false, kind: 'timeout', error: `overhead chains did not finish within ${timeoutMs / 1000} s` };
    if (answer === null || answer.type !== 'overhead-result') return died(id, child);
    return { ...answer.outcome, id };
  }

  /** Sends one request and waits for the answer with its id: 'timeout' (the child killed), null when the child died. */
  private ask(
    child: Child,
    type: 'run' | 'overhead',
    job: { id: number },
    timeoutMs: number,
  ): Promise<TorchMessage | 'timeout' | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        child.onLine = null;
        this.kill();
        resolve('timeout');
      }, timeoutMs);
      child.onLine = (m) => {
        const answered = m !== null && (m.type === 'result' || m.type === 'overhead-result') && m.outcome.id === job.id;
        if (m !== null && !answered) return;
        clearTimeout(timer);
        child.onLine = null;
        resolve(m);
      };
      child.proc.stdin.write(`${JSON.stringify({ type, job })}\n`);
    });
  }

  /** Stops the child at once (Ctrl-C): the kernel in flight is abandoned. */
  kill(): void {
    const c = this.child;
    this.child = null;
    c?.proc.kill('SIGKILL');
  }

  async close(): Promise<void> {
    const c = this.child;
    if (!c) return;
    this.child = null;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        c.proc.kill('SIGKILL');
        resolve();
      }, 5000);
      c.proc.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      c.proc.stdin.end(`${JSON.stringify({ type: 'exit' })}\n`);
    });
  }
}

function parseLine(line: string): TorchMessage | null {
  try {
    return JSON.parse(line) as TorchMessage;
  } catch {
    return null;
  }
}

const lastLine = (text: string): string => text.trim().split('\n').pop() ?? '';

/** The answer for a job whose runner died (or answered out of turn): its last stderr line. */
function died(id: number, child: Child): { id: number; ok: false; kind: 'crashed'; error: string } {
  return { id, ok: false, kind: 'crashed', error: `PyTorch runner died: ${lastLine(child.stderr) || 'no message'}` };
}
