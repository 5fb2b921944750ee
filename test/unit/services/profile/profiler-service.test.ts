import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { KernelRunner } from '../../../../src-main/adapters/ort/kernel-runner.js';
import type { RunJob, RunOutcome } from '../../../../src-main/adapters/ort/protocol.js';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { MachineRepo } from '../../../../src-main/adapters/store/machine-repo.js';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import { devicesFromProbe, linksFromProbe } from '../../../../src-main/core/domain/devices.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { calibrationModels } from '../../../../src-main/core/profiler/calibration-models.js';
import type { KernelSpec } from '../../../../src-main/core/kernels/types.js';
import { profileDevice } from '../../../../src-main/services/profile/profiler-service.js';
import type {
  KernelRunnerLike,
  ProfileTarget,
  ProfilerDeps,
} from '../../../../src-main/services/profile/profiler-types.js';
import { sampleProbe } from '../../../helpers/sample-probe.js';
import { tempDir } from '../../../helpers/cli.js';

const rule = { warmupRuns: 1, minRepetitions: 5, maxRepetitions: 20, targetCi: 0.05, budgetMs: 60 };
const cpu: ProfileTarget = { machineId: 'm1', deviceKey: 'cpu', ep: { name: 'cpu', threads: 1 } };
const kernels: KernelSpec[] = [
  makeKernel('MatMul', 'fp32', { B: 1, M: 64, N: 64, K: 64 }),
  makeKernel('Add', 'fp32', { n: 4096 }),
  makeKernel('Softmax', 'fp32', { rows: 64, cols: 128 }),
  makeKernel('Relu', 'fp32', { n: 1024 }),
  makeKernel('Transpose', 'fp32', { rows: 64, cols: 64 }),
];

function freshDb(): Database {
  const db = openDatabase(':memory:');
  const probe = sampleProbe();
  new MachineRepo(db).upsertLocalMachine(probe, 'm1', devicesFromProbe(probe), linksFromProbe(probe));
  return db;
}

/** An in-process runner with scripted answers, for the paths a real runner cannot show on demand. */
function scripted(answer: (job: Omit<RunJob, 'id' | 'traceDir'>, n: number) => RunOutcome): KernelRunnerLike {
  let n = 0;
  return {
    start: async () => ({ ortVersion: '9.9.9', backends: [] }),
    run: async (job) => answer(job, n++),
    kill: () => undefined,
    close: async () => undefined,
  };
}
const ok = (samples: number[]): RunOutcome => ({
  id: 0,
  ok: true,
  kernelUs: samples,
  wallUs: samples.map((s) => s + 20),
  providers: ['CPUExecutionProvider'],
  byOpUs: {},
  nodeOps: {},
  stop: 'converged',
  sessionCreateMs: 1,
});

describe('profiling a device with the real kernel runner', () => {
  const runner = new KernelRunner({ runnerPath: 'dist/kernel-runner.js' });
  let db: Database;
  let deps: ProfilerDeps;
  beforeEach(() => {
    db = freshDb();
    deps = { db, runner, now: () => new Date(), epUnavailable: () => null };
  });
  afterAll(() => runner.close());

  it('measures every kernel, stores them with statistics, and summarizes the device', async () => {
    const r = await profileDevice(deps, cpu, { suite: 'quick', kernels, rule, refineLimit: 0 });
    expect(r.status).toBe('complete');
    // Noisy kernels are stored too (marked noisy in the run).
    expect(r.measured).toBe(kernels.length);
    const ms = new ProfileRepo(db).listMeasurements({ machineId: 'm1' });
    expect(ms).toHaveLength(r.measured);
    for (const m of ms) {
      expect(m.threads).toBe(1);
      expect(m.executionProvider).toBe('cpu');
      expect(m.stats.p10Us).toBeLessThanOrEqual(m.stats.medianUs);
      expect(m.stats.medianUs).toBeLessThanOrEqual(m.stats.p90Us);
      // minRepetitions (5), or 3 on a host so slow that a kernel spent 4x its budget (shouldStop).
      expect(m.stats.repetitions).toBeGreaterThanOrEqual(3);
      expect(m.stats.wallMedianUs).not.toBeNull();
    }
    const run = new ProfileRepo(db).getRun(r.runId as string);
    expect(run?.status).toBe('complete');
    expect(run?.summary).toMatchObject({ executionProvider: 'cpu', threads: 1 });
    // The only GEMM gives the fp32 peak, unless a loaded machine made it too noisy to store.
    const gemmStored = ms.some((m) => m.op === 'MatMul');
    if (gemmStored) expect((run?.summary as { peakGflops: { fp32: number } }).peakGflops.fp32).toBeGreaterThan(0);
    else expect(r.noisy.some((id) => id.startsWith('MatMul'))).toBe(true);
  });

  it('keeps a bandwidth kernel that stays noisy, so the device still gets its bandwidth, with a note', async () => {
    // 48 MiB moved: past the caches, the only kernel that can set the bandwidth. The noise source says it is noisy.
    const big = makeKernel('Add', 'fp32', { n: 4 * 2 ** 20 });
    const gemm = makeKernel('MatMul', 'fp32', { B: 1, M: 256, N: 256, K: 256 });
    const r = await profileDevice(deps, cpu, {
      suite: 'quick',
      kernels: [big, gemm],
      rule: { ...rule, maxRepetitions: 8, minRepetitions: 3 },
      refineLimit: 0,
      rounds: 1,
      forceNoisy: (k) => k.id === big.id,
    });
    expect(r.status).toBe('complete');
    // A loaded machine may make the GEMM noisy too: only the forced one is sure.
    expect(r.noisy).toContain(big.id);
    expect(r.summary?.bandwidthGBps).toBeGreaterThan(0);
    expect(r.notes.join(' ')).toMatch(
      /[12] kernels? stayed too noisy after \d+ retr(y|ies) in this run; kept with (its|their) spread and marked noisy/,
    );
    expect(r.notes.join(' ')).not.toMatch(/could not measure its memory bandwidth/);
    expect(new ProfileRepo(db).getRun(r.runId as string)?.summary?.noisyKernels).toContain(big.id);
  });

  it('keeps the NCHWc reorders ORT puts around a lone conv as measurements of their own maps', async () => {
    // 16 -> 32 channels changes the map, so the conv is traced, not chained.
    const conv = makeKernel('Conv', 'fp32', { N: 1, C: 16, H: 24, W: 24, K: 32, R: 3, S: 3, stride: 2, groups: 1 });
    const ran: string[][] = [];
    const spy: KernelRunnerLike = {
      start: () => runner.start(),
      run: async (job) => {
        const o = await runner.run(job);
        if (o.ok) ran.push(Object.keys(o.byOpUs).filter((op) => op.startsWith('Reorder')));
        return o;
      },
      kill: () => runner.kill(),
      close: async () => undefined,
    };
    const r = await profileDevice({ ...deps, runner: spy }, cpu, {
      suite: 'quick',
      kernels: [conv],
      rule,
      refineLimit: 0,
      rounds: 2,
    });
    expect(r.status).toBe('complete');
    const ms = new ProfileRepo(db).listMeasurements({ machineId: 'm1' });
    const reorders = ms.filter((m) => m.op.startsWith('Reorder'));
    // x86-64 CPUs with AVX2 or AVX-512 run the conv in NCHWc; a CPU without that layout runs no reorder.
    // Which reorders ran is ORT's answer (the trace), not one CPU's layout: AVX2's 8-wide blocks
    // reorder inputs that AVX-512's 16-wide ones read as NCHW. A reorder too noisy on a loaded
    // machine is not stored, so what is stored is a subset of what ran, each with its own map.
    if (process.arch === 'x64') expect(ran.flat()).toContain('ReorderOutput');
    const seen = new Set(ran.flat());
    const maps: Record<string, Record<string, number>> = {
      ReorderInput: { N: 1, C: 16, H: 24, W: 24 },
      ReorderOutput: { N: 1, C: 32, H: 12, W: 12 },
    };
    expect(new Set(reorders.map((m) => m.op)).size).toBe(reorders.length);
    // One kernel measured (over two rounds), the reorders counted beside it, never as kernels.
    expect(r.byOrigin).toEqual({ suite: 1, calibration: 0, refinement: 0 });
    expect(r.reorders).toBe(reorders.length);
    expect(r.summary).toMatchObject({ kernels: ms.length - reorders.length, reorders: reorders.length });
    for (const m of reorders) {
      expect(seen.has(m.op), m.op).toBe(true);
      expect(m.shape, m.op).toEqual(maps[m.op]);
    }
    for (const m of reorders) {
      expect(m).toMatchObject({
        family: 'datamove',
        dtype: 'fp32',
        executionProvider: 'cpu',
        threads: 1,
        source: 'profile',
      });
      expect(m.stats.medianUs).toBeGreaterThan(0);
      // A reorder has no run of its own to time from Node.
      expect(m.stats.wallMedianUs).toBeNull();
    }
  });

  it('spreads the calibration rounds over the profile and keeps each model’s fastest; a slow round is said', async () => {
    const seq: string[] = [];
    let modelRuns = 0;
    const models = calibrationModels().length;
    const spy: KernelRunnerLike = {
      start: () => runner.start(),
      run: async (job) => {
        seq.push('k');
        return runner.run(job);
      },
      optimize: (job) => runner.optimize(job),
      runModel: async (job) => {
        seq.push('m');
        const round = Math.floor(modelRuns++ / models);
        const o = await runner.runModel({ ...job, rule: { ...job.rule, budgetMs: 50, minRepetitions: 3 } });
        // The machine is busy during the second round: every model runs 3x slower.
        return o.ok && round === 1 ? { ...o, wallUs: o.wallUs.map((v) => v * 3) } : o;
      },
      kill: () => runner.kill(),
      close: async () => undefined,
    };
    const two = kernels.slice(0, 2);
    const r = await profileDevice({ ...deps, runner: spy }, cpu, {
      suite: 'quick',
      kernels: two,
      rule,
      refineLimit: 0,
      rounds: 2,
    });
    expect(r.status).toBe('complete');
    // Each kernel round times both kernels; a kernel still noisy on a busy machine is retried after the rounds.
    expect(seq.join('')).toMatch(new RegExp(`^m{${models}}k{2}m{${models}}k{2}m{${models}}k{0,4}$`));
    expect(r.notes.filter((n) => n.startsWith('calibration round'))).toEqual([
      expect.stringMatching(/^calibration round 2 of 3 ran \d+% slower than the fastest/),
    ]);
    const calibration = (r.summary?.['calibration'] ?? []) as { model: string }[];
    expect(calibration.map((c) => c.model)).toEqual(calibrationModels().map((c) => c.name));
  });

  it('profiles the kernels of the calibration models’ nodes with the suite, once, so calibration compares like with like', async () => {
    const events: { type: string; kernels?: number; byOrigin?: Record<string, number> }[] = [];
    const two = kernels.slice(0, 2);
    const r = await profileDevice(deps, cpu, {
      suite: 'quick',
      kernels: two,
      calibrationKernels: true,
      rule: { ...rule, budgetMs: 20, minRepetitions: 3 },
      refineLimit: 0,
      rounds: 1,
      onEvent: (e) => events.push(e),
    });
    expect(r.status).toBe('complete');
    const ms = new ProfileRepo(db).listMeasurements({ machineId: 'm1' });
    const start = events.find((e) => e.type === 'start');
    expect(r.measured + r.failures.length).toBe(start?.kernels);
    expect(start?.kernels).toBeGreaterThan(two.length + 10);
    // The start line's parts: the kernels given (the suite's place) and the calibration nodes they lack.
    const calibrationNodes = (start?.kernels ?? 0) - two.length;
    expect(start?.byOrigin).toEqual({ suite: two.length, calibration: calibrationNodes, refinement: 0 });
    expect(r.byOrigin.suite + r.byOrigin.calibration + r.failures.length).toBe(start?.kernels);
    // resnet-blocks' 3 x 3 conv with its fused Relu, as a kernel of its own.
    const conv = makeKernel('Conv', 'fp32', {
      N: 1,
      C: 32,
      H: 24,
      W: 24,
      K: 32,
      R: 3,
      S: 3,
      stride: 1,
      groups: 1,
      act: 1,
    });
    const same = (m: { op: string; shape: Record<string, number> }): boolean =>
      m.op === 'Conv' && JSON.stringify(m.shape) === JSON.stringify(conv.shape);
    expect(ms.some(same) || r.noisy.includes(conv.id)).toBe(true);
    expect(ms.filter((m) => m.op === 'ReorderInput' && m.stats.wallMedianUs !== null)).toEqual([]);
  });

  it('resumes: a rerun measures only what is missing', async () => {
    const first = await profileDevice(deps, cpu, {
      suite: 'quick',
      kernels: kernels.slice(0, 2),
      rule,
      refineLimit: 0,
    });
    const second = await profileDevice(deps, cpu, { suite: 'quick', kernels, rule, refineLimit: 0 });
    expect(second.alreadyMeasured).toBe(first.measured);
    expect(second.measured).toBe(kernels.length - first.measured);
  });

  it('stops cleanly when cancelled, keeping what finished, and the rest follows on rerun', async () => {
    const controller = new AbortController();
    let timed = 0;
    const r = await profileDevice(deps, cpu, {
      suite: 'quick',
      kernels,
      rule,
      refineLimit: 0,
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'kernel' && ++timed === 2) controller.abort();
      },
    });
    expect(r.status).toBe('interrupted');
    const repo = new ProfileRepo(db);
    expect(repo.getRun(r.runId as string)?.status).toBe('interrupted');
    const kept = repo.listMeasurements({ machineId: 'm1' }).length;
    expect(kept).toBe(r.measured);
    expect(kept).toBeGreaterThan(0);
    const rerun = await profileDevice(deps, cpu, { suite: 'quick', kernels, rule, refineLimit: 0 });
    // What was kept is not timed again, but for a kernel the cancelled run found noisy (a busy
    // host), which the rerun times again; everything else follows.
    expect(rerun.alreadyMeasured).toBeLessThanOrEqual(kept);
    expect(rerun.alreadyMeasured).toBeGreaterThanOrEqual(kept - r.noisy.length);
    expect(rerun.alreadyMeasured + rerun.measured).toBe(kernels.length);
    expect(rerun.status).toBe('complete');
  });

  it('reports a CUDA device without its provider as unavailable, writing no run', async () => {
    const gpu: ProfileTarget = { machineId: 'm1', deviceKey: 'cuda:0', ep: { name: 'cuda', deviceId: 0 } };
    const r = await profileDevice({ ...deps, epUnavailable: () => 'CUDA provider not installed' }, gpu, {
      suite: 'quick',
      kernels,
      rule,
    });
    expect(r).toMatchObject({ status: 'unavailable', runId: null, notes: ['CUDA provider not installed'] });
    expect(new ProfileRepo(db).listRuns('m1')).toEqual([]);
  });

  it('reports WebGPU without an adapter as unavailable after one trial kernel', async () => {
    const gpu: ProfileTarget = { machineId: 'm1', deviceKey: 'webgpu:0', ep: { name: 'webgpu', deviceId: 0 } };
    const r = await profileDevice(deps, gpu, { suite: 'quick', kernels: kernels.slice(0, 1), rule });
    // This machine has no GPU; on one with an adapter the kernel is measured.
    if (r.status === 'unavailable') expect(r.notes[0]).toMatch(/webgpu:0: .*adapter/i);
    else expect(r.status).toBe('complete');
  });
});

describe('profiling with failing and noisy kernels', () => {
  it('records a crashed kernel and goes on with the next ones', async () => {
    const db = freshDb();
    const flag = path.join(tempDir(), 'crashed');
    const runner = new KernelRunner({
      runnerPath: path.resolve('test/helpers/broken-runner.mjs'),
      env: { ...process.env, BROKEN_RUNNER: `crash-once-file:${flag}` },
    });
    const r = await profileDevice({ db, runner, now: () => new Date(), epUnavailable: () => null }, cpu, {
      suite: 'quick',
      kernels,
      rule,
      refineLimit: 0,
    });
    await runner.close();
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatchObject({ kernel: kernels[0]?.id, kind: 'crashed' });
    expect(r.measured).toBe(kernels.length - 1);
    expect(r.status).toBe('complete');
  });

  it('records unsupported and out-of-memory kernels with their reason', async () => {
    const db = freshDb();
    const runner = scripted((job, n) =>
      n === 0
        ? { id: 0, ok: false, kind: 'out-of-memory', error: 'Failed to allocate memory for requested buffer' }
        : n === 1
          ? { id: 0, ok: false, kind: 'unsupported', error: 'Could not find an implementation for Gelu' }
          : ok([100, 100, 101, 99, 100, 100, 100]),
    );
    const r = await profileDevice({ db, runner, now: () => new Date(), epUnavailable: () => null }, cpu, {
      suite: 'quick',
      kernels,
      rule,
      refineLimit: 0,
    });
    expect(r.failures.map((f) => f.kind)).toEqual(['out-of-memory', 'unsupported']);
    expect(r.measured).toBe(3);
  });

  it('keeps a kernel that stays noisy, marked noisy with its spread, after retries later in the run, and says how to redo it', async () => {
    const db = freshDb();
    const noisy = [100, 400, 90, 350, 120, 300, 95, 500];
    const order: string[] = [];
    const runner = scripted((job) => {
      order.push(job.spec.op);
      return job.spec.op === 'Add' ? ok(noisy) : ok([50, 50, 51, 49, 50, 50, 50]);
    });
    const r = await profileDevice({ db, runner, now: () => new Date(), epUnavailable: () => null }, cpu, {
      suite: 'quick',
      kernels,
      rule,
      refineLimit: 0,
      rounds: 2,
    });
    expect(r.noisy).toEqual([kernels[1]?.id]);
    // Timed again, never right after itself: once in the second round among the others, then in the retry passes.
    const adds = order.flatMap((op, i) => (op === 'Add' ? [i] : []));
    expect(adds.length).toBeGreaterThan(2);
    expect(adds[1]! - adds[0]!).toBeGreaterThan(1);
    // Kept, with its spread, and the run says it is noisy.
    const stored = new ProfileRepo(db).listMeasurements({ op: 'Add' });
    expect(stored).toHaveLength(1);
    expect(stored[0]!.stats.p90Us).toBeGreaterThan(stored[0]!.stats.p10Us);
    const run = new ProfileRepo(db).getRun(r.runId as string);
    expect(run?.summary?.noisyKernels).toEqual([kernels[1]?.id]);
    expect(r.notes.join(' ')).toMatch(
      /1 kernel stayed too noisy after \d+ retr(y|ies) in this run; kept with its spread and marked noisy/,
    );
    expect(r.notes.join(' ')).toContain('`pipedejavu profile --device cpu --threads 1`');
  });

  it('stores a kernel noisy at first and clean on its retry as clean', async () => {
    const db = freshDb();
    let addRuns = 0;
    const runner = scripted((job) =>
      job.spec.op === 'Add' && addRuns++ === 0
        ? ok([100, 400, 90, 350, 120, 300, 95, 500])
        : ok([50, 50, 51, 49, 50, 50, 50]),
    );
    const r = await profileDevice({ db, runner, now: () => new Date(), epUnavailable: () => null }, cpu, {
      suite: 'quick',
      kernels,
      rule,
      refineLimit: 0,
      rounds: 2,
    });
    expect(r.noisy).toEqual([]);
    expect(new ProfileRepo(db).listMeasurements({ op: 'Add' })[0]?.stats.medianUs).toBe(50);
    expect(new ProfileRepo(db).getRun(r.runId as string)?.summary?.noisyKernels).toEqual([]);
  });

  it('measures again on a rerun what a past run kept noisy', async () => {
    const db = freshDb();
    let quiet = false;
    const runner = scripted((job) =>
      job.spec.op === 'Add' && !quiet ? ok([100, 400, 90, 350, 120, 300, 95, 500]) : ok([50, 50, 51, 49, 50, 50, 50]),
    );
    const deps = { db, runner, now: () => new Date(), epUnavailable: () => null };
    await profileDevice(deps, cpu, { suite: 'quick', kernels, rule, refineLimit: 0, rounds: 1 });
    quiet = true;
    const again = await profileDevice(deps, cpu, { suite: 'quick', kernels, rule, refineLimit: 0, rounds: 1 });
    expect(again.alreadyMeasured).toBe(kernels.length - 1);
    expect(again.measured).toBe(1);
    expect(again.noisy).toEqual([]);
    expect(new ProfileRepo(db).listMeasurements({ op: 'Add' })[0]?.stats.medianUs).toBe(50);
  });

  it('counts to a total fixed at the start and never goes back, through refinement, failures, rounds and retries', async () => {
    const db = freshDb();
    const gemms = [64, 128, 256].map((n) => makeKernel('MatMul', 'fp32', { B: 1, M: n, N: n, K: n }));
    const runner = scripted((job, n) => {
      if (n === 1) return { id: 0, ok: false, kind: 'unsupported', error: 'no kernel' };
      if (job.spec.shape.M === 64) return ok([100, 400, 90, 350, 120, 300, 95, 500]);
      const gflops = job.spec.shape.M === 256 ? 50 : 10;
      return ok(Array.from({ length: 7 }, () => job.spec.flops / (gflops * 1000)));
    });
    const seen: { index: number; total: number }[] = [];
    let start: { total: number } | null = null;
    await profileDevice({ db, runner, now: () => new Date(), epUnavailable: () => null }, cpu, {
      suite: 'quick',
      kernels: gemms,
      rule,
      refineLimit: 4,
      rounds: 2,
      onEvent: (e) => {
        if (e.type === 'start') start = e;
        if (e.type === 'kernel' || e.type === 'step') seen.push({ index: e.index, total: e.total });
      },
    });
    expect(start).not.toBeNull();
    const total = (start as unknown as { total: number }).total;
    expect(new Set(seen.map((s) => s.total))).toEqual(new Set([total]));
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.index).toBeGreaterThanOrEqual(seen[i - 1]!.index);
    // The last step is the whole: the bar ends at 100%, however many retries went unspent.
    expect(seen.at(-1)!.index).toBe(total);
  });

  it('says what a device summary lacks and the command that measures it', async () => {
    const db = freshDb();
    const runner = scripted(() => ok([50, 50, 51, 49, 50, 50, 50]));
    const r = await profileDevice({ db, runner, now: () => new Date(), epUnavailable: () => null }, cpu, {
      suite: 'quick',
      kernels: [makeKernel('Relu', 'fp32', { n: 1024 })],
      rule,
      refineLimit: 0,
    });
    expect(r.notes.join(' ')).toMatch(/could not measure its fp32 peak .* nor its memory bandwidth/);
    expect(r.notes.join(' ')).toContain('`pipedejavu profile --device cpu --threads 1`');
  });

  it('adds refinement kernels where throughput jumps between neighbours', async () => {
    const db = freshDb();
    const gemms = [64, 128, 256].map((n) => makeKernel('MatMul', 'fp32', { B: 1, M: n, N: n, K: n }));
    // 64 and 128 at 10 GFLOP/s, 256 at 50 GFLOP/s: a bend between 128 and 256.
    const runner = scripted((job) => {
      const gflops = job.spec.shape.M === 256 ? 50 : 10;
      const t = job.spec.flops / (gflops * 1000);
      return ok(Array.from({ length: 7 }, () => t));
    });
    const events: string[] = [];
    const r = await profileDevice({ db, runner, now: () => new Date(), epUnavailable: () => null }, cpu, {
      suite: 'quick',
      kernels: gemms,
      rule,
      refineLimit: 4,
      onEvent: (e) => {
        if (e.type === 'refine') events.push(`refine ${e.added}`);
      },
    });
    expect(events).toEqual(['refine 4']);
    expect(r.measured).toBe(7);
    expect(r.byOrigin).toEqual({ suite: 3, calibration: 0, refinement: 4 });
  });

  it('times every kernel in a second round and keeps the lower median', async () => {
    const db = freshDb();
    const seen = new Map<string, number>();
    // First pass slow (a busy phase), second pass fast: the fast one is what the kernel costs.
    const runner = scripted((job) => {
      const n = seen.get(job.spec.id) ?? 0;
      seen.set(job.spec.id, n + 1);
      const t = n === 0 ? 200 : 150;
      return ok(Array.from({ length: 7 }, () => t));
    });
    const r = await profileDevice({ db, runner, now: () => new Date(), epUnavailable: () => null }, cpu, {
      suite: 'quick',
      kernels: kernels.slice(0, 2),
      rule,
      refineLimit: 0,
      rounds: 2,
    });
    expect(r.measured).toBe(2);
    expect([...seen.values()]).toEqual([2, 2]);
    const medians = new ProfileRepo(db).listMeasurements({ machineId: 'm1' }).map((m) => m.stats.medianUs);
    expect(medians).toEqual([150, 150]);
  });
});
