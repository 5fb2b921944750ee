/**
 * The profiler's side of the kernel-runner child: sends one job at a time, waits for
 * its result, and turns a crash or a hang of the child into a failed result (then
 * starts a fresh child for the next kernel). The parent's event loop stays free.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LaunchedChild, ProcessLauncher } from '../process/launcher.js';
import { bundledScriptPath } from '../process/child-script.js';
import { defaultLauncher } from '../process/relay.js';
import type { BlasPool } from '../../core/profiler/blas-pool.js';
import type {
  FromChild,
  ModelJob,
  ModelOutcome,
  OptimizeJob,
  OptimizeOutcome,
  OverheadJob,
  OverheadOutcome,
  RunJob,
  RunOutcome,
  ToChild,
} from './protocol.js';

export interface KernelRunnerOptions {
  /** Path of the built child entry (dist/kernel-runner.js). */
  runnerPath?: string;
  /** Kill the child when one kernel takes longer than this (ms). */
  jobTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Extra node flags for the child, e.g. a memory limit in tests. */
  execArgv?: string[];
  /** How the child is started: a plain fork, or (Electron) a utility process; see defaultLauncher. */
  launcher?: ProcessLauncher;
}

/** dist/kernel-runner.js, where the running code finds it (see bundledScriptPath). */
export function defaultRunnerPath(): string {
  return bundledScriptPath('kernel-runner.js');
}

export interface RunnerInfo {
  ortVersion: string;
  backends: { name: string; bundled: boolean }[];
  /** PyTorch's runner: the BLAS library its products run on, and its own pool (absent for ONNX Runtime). */
  blas?: BlasPool | null;
}

/**
 * What a kernel runner does for the services that drive it: this ONNX Runtime child does all of
 * it; the profiler also drives PyTorch's runner (torch-runner.ts), which skips the optional steps.
 */
export interface KernelRunnerApi {
  /** Starts the runner if needed and says what it runs on. */
  start(): Promise<RunnerInfo>;
  /** Times one kernel; never rejects for a kernel's own failure. */
  run(job: Omit<RunJob, 'id' | 'traceDir'>): Promise<RunOutcome>;
  /** Chains of tiny nodes (per-run and per-node overhead). */
  runOverhead(job: Omit<OverheadJob, 'id' | 'traceDir'>): Promise<OverheadOutcome>;
  /** Whole models and executed graphs (calibration). */
  runModel(job: Omit<ModelJob, 'id' | 'traceDir'>): Promise<ModelOutcome>;
  /** The graph ORT executes for a model. */
  optimize(job: Omit<OptimizeJob, 'id'>): Promise<OptimizeOutcome>;
  kill(): void;
  close(): Promise<void>;
}

export class KernelRunner implements KernelRunnerApi {
  private child: LaunchedChild | null = null;
  private info: RunnerInfo | null = null;
  /** The start under way, so that callers who ask at once share one child. */
  private starting: Promise<RunnerInfo> | null = null;
  private readonly traceDir = mkdtempSync(path.join(os.tmpdir(), 'pipedejavu-trace-'));
  private nextId = 1;

  constructor(private readonly opts: KernelRunnerOptions = {}) {}

  /** Starts the child if needed and returns what ORT says about itself. */
  async start(): Promise<RunnerInfo> {
    if (this.child && this.info) return this.info;
    this.starting ??= this.launch().finally(() => (this.starting = null));
    return this.starting;
  }

  private async launch(): Promise<RunnerInfo> {
    const runnerPath = this.opts.runnerPath ?? defaultRunnerPath();
    if (!existsSync(runnerPath)) throw new Error(`kernel runner not built (${runnerPath}); run \`npm run build\``);
    const child = (this.opts.launcher ?? defaultLauncher()).fork(runnerPath, {
      name: 'pipeDejavu kernel runner',
      env: this.opts.env ?? process.env,
      execArgv: this.opts.execArgv ?? [],
    });
    this.child = child;
    let stderr = '';
    child.on('stderr', (text) => {
      stderr = (stderr + text).slice(-4000);
    });
    this.info = await new Promise<RunnerInfo>((resolve, reject) => {
      const onMessage = (message: unknown): void => {
        const m = message as FromChild;
        if (m.type === 'ready') {
          cleanup();
          resolve({ ortVersion: m.ortVersion, backends: m.backends });
        }
      };
      const onExit = (code: number | null, signal: string | null): void => {
        cleanup();
        reject(
          new Error(
            `kernel runner exited on start (${signal ?? `code ${code}`}): ${stderr.trim().split('\n').pop() ?? ''}`,
          ),
        );
      };
      const onError = (e: Error): void => {
        cleanup();
        this.forget(child);
        reject(new Error(`kernel runner did not start: ${e.message}`));
      };
      const cleanup = (): void => {
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.off('error', onError);
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.on('error', onError);
    });
    return this.info;
  }

  /** Runs one kernel job; never rejects for a kernel's own failure. */
  async run(job: Omit<RunJob, 'id' | 'traceDir'>): Promise<RunOutcome> {
    await this.start();
    const id = this.nextId++;
    const timeoutMs = this.opts.jobTimeoutMs ?? Math.max(60_000, job.rule.budgetMs * 20);
    return this.request<RunOutcome>(
      id,
      { type: 'run', job: { ...job, id, traceDir: this.traceDir } },
      (m) => (m.type === 'result' && m.outcome.id === id ? m.outcome : null),
      timeoutMs,
      'kernel',
    );
  }

  /** Runs a whole model file; never rejects for the model's own failure. */
  async runModel(job: Omit<ModelJob, 'id' | 'traceDir'>): Promise<ModelOutcome> {
    await this.start();
    const id = this.nextId++;
    const timeoutMs = this.opts.jobTimeoutMs ?? Math.max(120_000, job.rule.budgetMs * 20);
    return this.request<ModelOutcome>(
      id,
      { type: 'run-model', job: { ...job, id, traceDir: this.traceDir } },
      (m) => (m.type === 'model-result' && m.outcome.id === id ? m.outcome : null),
      timeoutMs,
      'model',
    );
  }

  /** Times chains of tiny nodes without the ORT trace; never rejects. */
  async runOverhead(job: Omit<OverheadJob, 'id' | 'traceDir'>): Promise<OverheadOutcome> {
    await this.start();
    const id = this.nextId++;
    const timeoutMs =
      this.opts.jobTimeoutMs ??
      Math.max(60_000, job.rule.budgetMs * 20 * (job.lengths.length + (job.bindingElements?.length ?? 0)));
    return this.request<OverheadOutcome>(
      id,
      { type: 'overhead', job: { ...job, id, traceDir: this.traceDir } },
      (m) => (m.type === 'overhead-result' && m.outcome.id === id ? m.outcome : null),
      timeoutMs,
      'overhead',
    );
  }

  /** Has ORT write the graph it executes for a model (session creation only); never rejects. */
  async optimize(job: Omit<OptimizeJob, 'id'>): Promise<OptimizeOutcome> {
    await this.start();
    const id = this.nextId++;
    return this.request<OptimizeOutcome>(
      id,
      { type: 'optimize', job: { ...job, id } },
      (m) => (m.type === 'optimize-result' && m.outcome.id === id ? m.outcome : null),
      this.opts.jobTimeoutMs ?? 300_000,
      'graph optimization',
    );
  }

  /**
   * Sends one job and waits for its answer. A child that dies becomes a 'crashed' (or,
   * killed by SIGKILL, 'out-of-memory') result; one that does not answer in time is
   * killed and becomes a 'timeout' result. The next job starts a fresh child.
   */
  private request<T extends RunOutcome | ModelOutcome | OverheadOutcome | OptimizeOutcome>(
    id: number,
    msg: ToChild,
    answer: (m: FromChild) => T | null,
    timeoutMs: number,
    what: string,
  ): Promise<T> {
    const child = this.child as LaunchedChild;
    return new Promise<T>((resolve) => {
      const done = (outcome: T): void => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(outcome);
      };
      const onMessage = (m: unknown): void => {
        const outcome = answer(m as FromChild);
        if (outcome) done(outcome);
      };
      const onExit = (code: number | null, signal: string | null): void => {
        this.forget(child);
        const how =
          signal === 'SIGKILL'
            ? 'killed (out of memory?)'
            : signal
              ? `killed by ${signal}`
              : `exited with code ${code}`;
        const kind = signal === 'SIGKILL' ? 'out-of-memory' : 'crashed';
        done({ id, ok: false, kind, error: `${what} runner ${how}` } as T);
      };
      const timer = setTimeout(() => {
        child.off('exit', onExit);
        this.kill();
        done({
          id,
          ok: false,
          kind: 'timeout',
          error: `${what} did not finish within ${Math.round(timeoutMs / 1000)} s`,
        } as T);
      }, timeoutMs);
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.send(msg);
    });
  }

  private forget(child: LaunchedChild): void {
    if (this.child === child) {
      this.child = null;
      this.info = null;
    }
  }

  /** Stops the child at once (Ctrl-C): the kernel in flight is abandoned. */
  kill(): void {
    if (this.child) {
      this.child.kill();
      this.forget(this.child);
    }
  }

  async close(): Promise<void> {
    const child = this.child;
    if (child) {
      this.forget(child);
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          child.off('exit', onExit);
          child.kill();
          resolve();
        }, 2000);
        const onExit = (): void => {
          clearTimeout(t);
          child.off('exit', onExit);
          resolve();
        };
        child.on('exit', onExit);
        child.send({ type: 'exit' } satisfies ToChild);
      });
    }
    rmSync(this.traceDir, { recursive: true, force: true });
  }
}
