/**
 * The kernel-runner child process (built to dist/kernel-runner.js). Runs one job at a
 * time on ONNX Runtime: a micro-kernel (profiled: its nodes' times come from ORT's trace),
 * a user's model (timed with the ORT trace off, then a short traced pass to attribute time
 * to nodes, whose ORT trace can be kept for the caller), chains of tiny nodes (the per-run and per-node overhead, ORT trace off), or
 * a session created only so that ORT writes the graph it executes. Never throws to its
 * parent: a failure becomes a result; a crash is noticed by the parent.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { buildKernelModel, SINK_NODE } from '../../core/kernels/build.js';
import { CHAIN_ELEMENTS, chainModel, parallelChainModel, WAKE_DIM } from '../../core/profiler/overhead.js';
import { shouldStop, summarize, type StopReason, type StoppingRule } from '../../core/profiler/timing-stats.js';
import { groupReadings, wholeReadingsMedianUs, type TraceReadings } from '../../core/profiler/trace-cost.js';
import { errorMessage } from '../../core/errors.js';
import { parseOnnxModel } from '../../core/onnx/onnx-parser.js';
import { cudaLoadFailure, cudaUnavailableReason, isLibraryLoadFailure, sessionOptions } from './ep-options.js';
import { makeFeeds, outputTensor } from './feeds.js';
import { parseTrace, withoutNode, type TraceRuns } from './parse-trace.js';
import { parentChannel } from '../process/parent-port.js';
import { besideMeter } from './beside-meter.js';
import type { EpConfig } from '../../core/domain/execution-provider.js';
import {
  classifyOrtError,
  cleanOrtMessage,
  type FailureKind,
  type FromChild,
  type ModelJob,
  type ModelOutcome,
  type OptimizeJob,
  type OptimizeOutcome,
  type OverheadJob,
  type OverheadOutcome,
  type RunJob,
  type RunOutcome,
  type ToChild,
  type Beside,
} from './protocol.js';

// A forked Node child (process.send) or an Electron utility process (process.parentPort).
const parent = parentChannel<ToChild, FromChild>();

function send(msg: FromChild): void {
  parent.send(msg);
}

/** ORT's trace file for a session's prefix, read; deleted unless `keep` (then the caller owns it). */
function readTrace(prefix: string, keep = false): { text: string; file: string } {
  const dir = path.dirname(prefix);
  const base = path.basename(prefix);
  const file = readdirSync(dir).find((f) => f.startsWith(`${base}_`) && f.endsWith('.json'));
  if (!file) throw new Error('ONNX Runtime wrote no ORT trace');
  const full = path.join(dir, file);
  try {
    return { text: readFileSync(full, 'utf8'), file: full };
  } finally {
    if (!keep) rmSync(full, { force: true });
  }
}

/**
 * Warm-up, then traced runs until the stopping rule says stop; then ORT's trace, with
 * every per-run series cut to the timed runs (the trace holds the warm-ups first). With
 * `keepTrace`, ORT's file stays where it is and `traceFile` names it.
 */
async function timeRuns(
  session: ort.InferenceSession,
  run: () => Promise<unknown>,
  rule: StoppingRule,
  prefix: string,
  keepTrace = false,
): Promise<{
  wallUs: number[];
  stop: StopReason;
  beside: Beside | null;
  trace: TraceRuns;
  traceFile: string;
  timed: (runs: number[]) => number[];
}> {
  const { wallUs, stop, beside } = await timeLoop(run, rule);
  session.endProfiling();
  const { text, file } = readTrace(prefix, keepTrace);
  let trace: TraceRuns;
  try {
    trace = parseTrace(text);
  } catch (e) {
    if (keepTrace) rmSync(file, { force: true });
    throw e;
  }
  return { wallUs, stop, beside, trace, traceFile: file, timed: (runs) => runs.slice(runs.length - wallUs.length) };
}

async function runJob(job: RunJob): Promise<RunOutcome> {
  const { id, spec, ep, rule } = job;
  if (ep.name === 'cuda') {
    const reason = cudaUnavailableReason();
    if (reason) return { id, ok: false, kind: 'ep-unavailable', error: reason };
  }
  if ((job.chain ?? 1) > 1) return runChained(job);
  // On the CPU the kernel's output stays in ORT's memory, as inside a model (build.ts, `sink`).
  const sink = ep.name === 'cpu';
  const built = buildKernelModel(spec, { sink });
  const prefix = path.join(job.traceDir, `k${process.pid}_${id}`);
  let session: ort.InferenceSession | null = null;
  try {
    const t0 = performance.now();
    try {
      session = await ort.InferenceSession.create(built.model, sessionOptions(ep, prefix));
    } catch (e) {
      const msg = errorMessage(e);
      return { id, ...sessionFailure(msg, ep.name === 'cuda') };
    }
    const sessionCreateMs = performance.now() - t0;
    const feeds = makeFeeds(built.inputs);
    // A preallocated output keeps the allocation of a fresh JS buffer out of every timed run.
    const fetches = { [built.outputName]: outputTensor(built.output) };
    const run = (): Promise<unknown> => (session as ort.InferenceSession).run(feeds, fetches);
    const runs = await timeRuns(session, run, rule, prefix);
    const { wallUs, stop, beside, timed } = runs;
    const trace = sink ? withoutNode(runs.trace, SINK_NODE) : runs.trace;
    const byOpUs = Object.fromEntries(Object.entries(trace.byOpUs).map(([op, v]) => [op, timed(v)]));
    return {
      id,
      ok: true,
      kernelUs: timed(trace.kernelUs),
      wallUs,
      providers: trace.providers,
      byOpUs,
      nodeOps: trace.nodeOps,
      stop,
      sessionCreateMs,
      beside,
    };
  } catch (e) {
    const msg = errorMessage(e);
    return { id, ok: false, kind: classifyOrtError(msg), error: cleanOrtMessage(msg) };
  } finally {
    await session?.release().catch(() => undefined);
  }
}

/**
 * The kernel alone and `chain` copies of it in a chain, ORT trace off, one run of each in
 * turn (a slow moment of the machine hits both alike), until both medians are pinned down.
 * With an intra-op pool (more than one CPU thread) each session has a pool of its own, and an
 * idle pool's workers keep spinning while the other session runs: a third busy thread on the
 * cores the kernel uses. So there the two are timed one after the other, each session alone.
 */
async function runChained(job: RunJob): Promise<RunOutcome> {
  if (job.ep.name === 'cpu' && job.ep.threads > 1) return runChainedAlone(job);
  const copies = job.chain ?? 1;
  const sessions: ort.InferenceSession[] = [];
  try {
    const runs: (() => Promise<unknown>)[] = [];
    const t0 = performance.now();
    for (const chain of [1, copies]) {
      const built = buildKernelModel(job.spec, { chain });
      const opened = await openSession(built.model, sessionOptions(job.ep, null));
      if (!('session' in opened)) return { id: job.id, ok: false, ...opened };
      const session = opened.session;
      sessions.push(session);
      const feeds = makeFeeds(built.inputs);
      const fetches = { [built.outputName]: outputTensor(built.output) };
      runs.push(() => session.run(feeds, fetches));
    }
    const sessionCreateMs = performance.now() - t0;
    const [single, chained] = runs as [() => Promise<unknown>, () => Promise<unknown>];
    for (let i = 0; i < job.rule.warmupRuns + 1; i++) {
      await single();
      await chained();
    }
    const singleUs: number[] = [];
    const chainUs: number[] = [];
    const meter = besideMeter();
    const started = performance.now();
    let stop: StopReason | null = null;
    while (stop === null) {
      let t = performance.now();
      await single();
      singleUs.push((performance.now() - t) * 1000);
      t = performance.now();
      await chained();
      chainUs.push((performance.now() - t) * 1000);
      const elapsed = performance.now() - started;
      const a = shouldStop(singleUs, elapsed, job.rule);
      const b = shouldStop(chainUs, elapsed, job.rule);
      stop =
        a === null || b === null
          ? null
          : a === 'converged' && b === 'converged'
            ? 'converged'
            : a === 'converged'
              ? b
              : a;
    }
    return chainedOutcome(job.id, { copies, singleUs, chainUs }, stop, sessionCreateMs, meter());
  } catch (e) {
    const msg = errorMessage(e);
    return { id: job.id, ok: false, kind: classifyOrtError(msg), error: cleanOrtMessage(msg) };
  } finally {
    for (const s of sessions) await s.release().catch(() => undefined);
  }
}

/** Rounds of runChainedAlone: each times the kernel, then its chain, so drift between them stays within a round. */
const ALONE_ROUNDS = 3;

/**
 * runChained where each session has its own thread pool: in each of ALONE_ROUNDS rounds the
 * kernel alone, then its chain, each in a session of its own that is released before the next
 * opens, on a sixth of the budget each; samples are paired within a round. Measured on the
 * 2-vCPU Zen 4 VM at 2 threads (bench/runs/h77-pools.md): Add of 1e5 elements read 9.7-18.7 µs
 * (median 15, the 1-thread 14.7) with the two sessions alive in turn, and 7.8-9.6 µs one
 * session at a time.
 */
async function runChainedAlone(job: RunJob): Promise<RunOutcome> {
  const copies = job.chain ?? 1;
  const part: StoppingRule = { ...job.rule, budgetMs: job.rule.budgetMs / (2 * ALONE_ROUNDS) };
  const built = [1, copies].map((chain) => buildKernelModel(job.spec, { chain }));
  const singleUs: number[] = [];
  const chainUs: number[] = [];
  let sessionCreateMs = 0;
  const meter = besideMeter();
  let stop: StopReason = 'converged';
  try {
    for (let r = 0; r < ALONE_ROUNDS; r++) {
      const round: number[][] = [];
      for (const b of built) {
        const t0 = performance.now();
        const opened = await openSession(b.model, sessionOptions(job.ep, null));
        sessionCreateMs += performance.now() - t0;
        if (!('session' in opened)) return { id: job.id, ok: false, ...opened };
        const session = opened.session;
        try {
          const feeds = makeFeeds(b.inputs);
          const fetches = { [b.outputName]: outputTensor(b.output) };
          const loop = await timeLoop(() => session.run(feeds, fetches), { ...part, warmupRuns: part.warmupRuns + 1 });
          round.push(loop.wallUs);
          if (loop.stop !== 'converged') stop = loop.stop;
        } finally {
          await session.release().catch(() => undefined);
        }
      }
      const n = Math.min(round[0]?.length ?? 0, round[1]?.length ?? 0);
      singleUs.push(...(round[0] ?? []).slice(0, n));
      chainUs.push(...(round[1] ?? []).slice(0, n));
    }
  } catch (e) {
    const msg = errorMessage(e);
    return { id: job.id, ok: false, kind: classifyOrtError(msg), error: cleanOrtMessage(msg) };
  }
  return chainedOutcome(job.id, { copies, singleUs, chainUs }, stop, sessionCreateMs, meter());
}

/** A chained timing's outcome: each run pair's (chain - single) / (copies - 1) as the kernel's samples. */
function chainedOutcome(
  id: RunJob['id'],
  chained: { copies: number; singleUs: number[]; chainUs: number[] },
  stop: StopReason,
  sessionCreateMs: number,
  beside: ReturnType<ReturnType<typeof besideMeter>>,
): RunOutcome {
  const { copies, singleUs, chainUs } = chained;
  return {
    id,
    ok: true,
    kernelUs: chainUs.map((v, i) => (v - (singleUs[i] ?? 0)) / (copies - 1)),
    wallUs: singleUs,
    providers: [],
    byOpUs: {},
    nodeOps: {},
    chained,
    stop,
    sessionCreateMs,
    beside,
  };
}

/** Opens a session, or says why not as a failed outcome. */
async function openSession(
  model: string | Uint8Array,
  options: ort.InferenceSession.SessionOptions,
): Promise<{ session: ort.InferenceSession } | { kind: FailureKind; error: string }> {
  try {
    const session =
      typeof model === 'string'
        ? await ort.InferenceSession.create(model, options)
        : await ort.InferenceSession.create(model, options);
    return { session };
  } catch (e) {
    const msg = errorMessage(e);
    const cuda = (options.executionProviders ?? []).some((p) => (typeof p === 'string' ? p : p.name) === 'cuda');
    return sessionFailure(msg, cuda);
  }
}

/** A session that could not be created, in one line; a CUDA provider that cannot load says what it misses. */
function sessionFailure(msg: string, cuda: boolean): { ok: false; kind: FailureKind; error: string } {
  if (cuda && isLibraryLoadFailure(msg)) return { ok: false, kind: 'ep-unavailable', error: cudaLoadFailure() };
  return { ok: false, kind: classifyOrtError(msg), error: `session creation failed: ${cleanOrtMessage(msg)}` };
}

/** Warm-up, then timed runs until the rule says stop; wall time per run (µs). */
async function timeLoop(
  run: () => Promise<unknown>,
  rule: StoppingRule,
): Promise<{ wallUs: number[]; stop: StopReason; beside: Beside | null }> {
  for (let i = 0; i < rule.warmupRuns; i++) await run();
  const wallUs: number[] = [];
  const meter = besideMeter();
  const started = performance.now();
  let stop: StopReason | null = null;
  while (stop === null) {
    const t = performance.now();
    await run();
    wallUs.push((performance.now() - t) * 1000);
    stop = shouldStop(wallUs, performance.now() - started, rule);
  }
  return { wallUs, stop, beside: meter() };
}

/**
 * Runs `run` for `ms` milliseconds, untimed. A fresh runner's first hundred milliseconds of
 * calls are slower and erratic (code not yet optimized, a heap still growing under the
 * outputs the binding allocates): measured 8 vs 13 µs per call for a tiny model, and 2.5 ms
 * against 0.45 ms for a one-node model with 4 MB in and out, in the same process.
 */
async function warmFor(run: () => Promise<unknown>, ms: number): Promise<void> {
  const started = performance.now();
  while (performance.now() - started < ms) await run();
}

/** Untimed calls before each overhead and binding measurement and each model's timed runs (see warmFor). */
const OVERHEAD_WARMUP_MS = 100;

/** timeLoop's wall times alone (sessions without the ORT trace). */
async function timeUntraced(run: () => Promise<unknown>, rule: StoppingRule): Promise<number[]> {
  return (await timeLoop(run, rule)).wallUs;
}

/**
 * A user's model: end to end from runs with the ORT trace off (the ORT trace costs microseconds
 * per node), in two passes with the traced pass that only attributes time to nodes between
 * them; the end to end is the pass with the lower median. A slow phase of a shared machine
 * lasts seconds and only ever slows a pass: at 2 threads here, one timing of PaddleOCR det
 * read 98 ms (p10 51) where the calls before and after it read 51 and 52.
 */
async function runModel(job: ModelJob): Promise<ModelOutcome> {
  const { id, ep, rule } = job;
  if (ep.name === 'cuda') {
    const reason = cudaUnavailableReason();
    if (reason) return { id, ok: false, kind: 'ep-unavailable', error: reason };
  }
  const feeds = makeFeeds(job.inputs.map((i) => ({ ...i, integerFill: 'ones' as const })));
  const passRule: StoppingRule = {
    ...rule,
    warmupRuns: Math.max(1, rule.warmupRuns),
    budgetMs: rule.budgetMs / UNTRACED_PASSES,
    ...(rule.minDurationMs !== undefined ? { minDurationMs: rule.minDurationMs / UNTRACED_PASSES } : {}),
  };
  try {
    const first = await untracedPass(job.modelPath, ep, feeds, passRule);
    if (!first.ok) return { id, ...first };
    const attributed = await attributionPass(job, feeds);
    if (!attributed.ok) return { id, ...attributed };
    const second = await untracedPass(job.modelPath, ep, feeds, passRule);
    if (!second.ok) return { id, ...second };
    const passMediansUs = [first, second].map((p) => summarize(p.wallUs).medianUs);
    const lower = (passMediansUs[1] as number) < (passMediansUs[0] as number) ? second : first;
    return { ...attributed, id, wallUs: lower.wallUs, passMediansUs, outputShapes: first.outputShapes };
  } catch (e) {
    const msg = errorMessage(e);
    return { id, ok: false, kind: classifyOrtError(msg), error: cleanOrtMessage(msg) };
  }
}

/** Untraced passes of a user's model (runModel). */
const UNTRACED_PASSES = 2;

type Failed = { ok: false; kind: FailureKind; error: string };

/** One untraced pass in a session of its own: wall time per run (µs) and the outputs' shapes. */
async function untracedPass(
  modelPath: string,
  ep: EpConfig,
  feeds: Record<string, ort.Tensor>,
  rule: StoppingRule,
): Promise<{ ok: true; wallUs: number[]; outputShapes: Record<string, number[]> } | Failed> {
  const plain = await openSession(modelPath, sessionOptions(ep, null));
  if (!('session' in plain)) return { ok: false, ...plain };
  const session = plain.session;
  try {
    let outputs: ort.InferenceSession.OnnxValueMapType = {};
    const runPlain = async (): Promise<void> => {
      outputs = await session.run(feeds);
    };
    await warmFor(runPlain, OVERHEAD_WARMUP_MS);
    const wallUs = await timeUntraced(runPlain, rule);
    const outputShapes: Record<string, number[]> = {};
    for (const [name, v] of Object.entries(outputs)) if (v instanceof ort.Tensor) outputShapes[name] = [...v.dims];
    return { ok: true, wallUs, outputShapes };
  } finally {
    await session.release().catch(() => undefined);
  }
}

type Attributed = Omit<Extract<ModelOutcome, { ok: true }>, 'id' | 'wallUs' | 'passMediansUs' | 'outputShapes'>;

/** The traced pass: only attributes time to nodes (the ORT trace costs microseconds per node). */
async function attributionPass(job: ModelJob, feeds: Record<string, ort.Tensor>): Promise<Attributed | Failed> {
  const prefix = path.join(job.traceDir, `m${process.pid}_${job.id}`);
  const { opened, nodeOutputs } = await openTraced(job.modelPath, job.ep, prefix);
  if (!('session' in opened)) return { ok: false, ...opened };
  const session = opened.session;
  try {
    const runs = Math.max(1, job.attributionRuns ?? 10);
    const { wallUs, trace, traceFile, timed } = await timeRuns(
      session,
      async () => session.run(feeds),
      { warmupRuns: 1, minRepetitions: runs, maxRepetitions: runs, targetCi: 1, budgetMs: 600_000 },
      prefix,
      job.keepTrace === true,
    );
    return {
      ok: true,
      tracedWallUs: wallUs,
      modelRunUs: timed(trace.modelRunUs),
      kernelUs: timed(trace.kernelUs),
      byNodeUs: Object.fromEntries(Object.entries(trace.byNodeUs).map(([n, v]) => [n, timed(v)])),
      nodeOps: trace.nodeOps,
      ...(nodeOutputs ? { nodeOutputs } : {}),
      providers: trace.providers,
      ...(job.keepTrace ? { traceFile } : {}),
    };
  } finally {
    await session.release().catch(() => undefined);
  }
}

/**
 * The attribution pass's traced session, writing the graph it runs (weights of 1 KiB and
 * up to a side file) to read each node's first output from: ORT names the nodes it inserts
 * differently in each session, and the outputs name them across sessions. Opened without
 * that when ORT cannot write the graph.
 */
async function openTraced(
  modelPath: string,
  ep: EpConfig,
  prefix: string,
): Promise<{ opened: Awaited<ReturnType<typeof openSession>>; nodeOutputs?: Record<string, string> }> {
  const graphFile = `${prefix}.graph.onnx`;
  const weightsFile = `${path.basename(prefix)}.graph.weights`;
  const opened = await openSession(modelPath, writingGraph(sessionOptions(ep, prefix), graphFile, weightsFile));
  if (!('session' in opened)) return { opened: await openSession(modelPath, sessionOptions(ep, prefix)) };
  try {
    const nodes = parseOnnxModel(new Uint8Array(readFileSync(graphFile))).graph.nodes;
    const nodeOutputs: Record<string, string> = {};
    for (const n of nodes) if (n.name && n.outputs[0]) nodeOutputs[n.name] = n.outputs[0];
    return { opened, nodeOutputs };
  } catch {
    return { opened };
  } finally {
    rmSync(graphFile, { force: true });
    rmSync(path.join(path.dirname(prefix), weightsFile), { force: true });
  }
}

/** Runs `f` on a session of `model` (ORT trace on when `prefix` is given), released afterwards; throws if ORT cannot open it. */
async function withSession<T>(
  model: Uint8Array,
  ep: EpConfig,
  prefix: string | null,
  f: (s: ort.InferenceSession) => Promise<T>,
): Promise<T> {
  const opened = await openSession(model, sessionOptions(ep, prefix));
  if (!('session' in opened)) throw new Error(opened.error);
  try {
    return await f(opened.session);
  } finally {
    await opened.session.release().catch(() => undefined);
  }
}

/** A chain to time: its model at a length, the provider it runs on and its data input's dims. */
interface ChainVariant {
  model: (n: number) => Uint8Array;
  ep: EpConfig;
  dims: number[];
}

/**
 * Each chain's wall time, ORT trace off: the lowest over `rounds` rounds that visit every length
 * (of every variant) in turn of that round's median, so a disturbance that lasts through one
 * length's timing does not become its time (one such burst had made a 64-node chain read 52 µs
 * where the line says 23). One list of points per variant. Where a variant has an intra-op pool
 * (more than one CPU thread), each visit opens its own session and releases it after: an idle
 * session's pool keeps spinning beside the one timed (runChainedAlone).
 */
async function timeChains(
  lengths: readonly number[],
  rounds: number,
  variants: readonly ChainVariant[],
  rule: StoppingRule,
): Promise<{ nodes: number; medianUs: number }[][]> {
  const pooled = variants.some((v) => v.ep.name === 'cpu' && v.ep.threads > 1);
  const entries = variants.flatMap((v, variant) => lengths.map((nodes) => ({ variant, nodes, v })));
  const kept = new Map<number, ChainSession>();
  try {
    const lowest = entries.map(() => Number.POSITIVE_INFINITY);
    const perRound = { ...rule, budgetMs: rule.budgetMs / rounds };
    for (let r = 0; r < rounds; r++)
      for (const [i, e] of entries.entries()) {
        const t = kept.get(i) ?? (await openChain(e.v, e.nodes));
        try {
          await warmFor(t.run, r === 0 || pooled ? OVERHEAD_WARMUP_MS : OVERHEAD_WARMUP_MS / 5);
          lowest[i] = Math.min(lowest[i] as number, summarize(await timeUntraced(t.run, perRound)).medianUs);
        } finally {
          if (pooled) await t.session.release().catch(() => undefined);
          else kept.set(i, t);
        }
      }
    return variants.map((_, v) =>
      entries.flatMap((e, i) => (e.variant === v ? [{ nodes: e.nodes, medianUs: lowest[i] as number }] : [])),
    );
  } finally {
    for (const t of kept.values()) await t.session.release().catch(() => undefined);
  }
}

interface ChainSession {
  session: ort.InferenceSession;
  run: () => Promise<unknown>;
}

/** A session of variant `v`'s chain of `nodes` nodes, with its feeds bound; throws when it cannot open. */
async function openChain(v: ChainVariant, nodes: number): Promise<ChainSession> {
  const { feeds, fetches } = chainFeeds(v.dims);
  const opened = await openSession(v.model(nodes), sessionOptions(v.ep, null));
  if (!('session' in opened)) throw new Error(opened.error);
  const session = opened.session;
  return { session, run: () => session.run(feeds, fetches) };
}

/** The pool's wake-up chains (parallelChainModel) at the job's thread count and at one thread, interleaved. */
async function timeWake(job: OverheadJob): Promise<NonNullable<Extract<OverheadOutcome, { ok: true }>['wake']>> {
  const ep = job.ep;
  if (ep.name !== 'cpu') throw new Error('the pool wake-up is timed on the CPU provider only');
  const variant = (threads: number): ChainVariant => ({
    model: (n) => parallelChainModel(n),
    ep: { ...ep, threads },
    dims: [WAKE_DIM, WAKE_DIM],
  });
  const [atThreads = [], atOneThread = []] = await timeChains(
    job.wakeLengths ?? [],
    Math.max(1, job.rounds ?? 1),
    [variant(ep.threads), variant(1)],
    job.rule,
  );
  return { atThreads, atOneThread };
}

function chainFeeds(dims: number[] = [1, CHAIN_ELEMENTS]): {
  feeds: Record<string, ort.Tensor>;
  fetches: Record<string, ort.Tensor>;
} {
  const info = { dims, dtype: 'fp32' as const };
  return { feeds: makeFeeds([{ name: 'X', ...info }]), fetches: { Y: outputTensor({ name: 'Y', ...info }) } };
}

/** Ten traced runs after two warm-ups: enough for a median of trace times. */
const TRACED_PASS: StoppingRule = {
  warmupRuns: 2,
  minRepetitions: 10,
  maxRepetitions: 10,
  targetCi: 1,
  budgetMs: 600_000,
};

/**
 * A chain of `n` tiny nodes with the ORT trace on: the ORT trace's cost inside a node's trace time
 * (a tiny node's median trace time, read between the whole µs ORT writes; µs) and the median model_run (µs).
 */
async function tracedChain(
  n: number,
  job: OverheadJob,
): Promise<{ nodeUs: number | null; readings: TraceReadings; modelRunUs: number }> {
  const prefix = path.join(job.traceDir, `o${process.pid}_${job.id}_${n}`);
  const { feeds, fetches } = chainFeeds();
  return withSession(chainModel(n), job.ep, prefix, async (s) => {
    const { trace, timed } = await timeRuns(s, () => s.run(feeds, fetches), TRACED_PASS, prefix);
    const readings = groupReadings(Object.values(trace.byNodeUs).flatMap((v) => timed(v)));
    return {
      // Whole-µs readings: their median read between the integers, not one that flips (trace-cost.ts).
      nodeUs: wholeReadingsMedianUs(readings),
      readings,
      modelRunUs: summarize(timed(trace.modelRunUs)).medianUs,
    };
  });
}

/**
 * One Relu over [1, elements] as a caller runs it (feeds only, the outputs wrapped for Node):
 * the untraced wall time (10th percentile) and, from a traced pass, the median model_run (µs).
 */
async function timeOneNode(
  elements: number,
  job: OverheadJob,
): Promise<{ bytes: number; wallUs: number; modelRunUs: number }> {
  const model = chainModel(1, elements);
  const feeds = makeFeeds([{ name: 'X', dims: [1, elements], dtype: 'fp32' }]);
  const wallUs = await withSession(model, job.ep, null, async (s) => {
    await warmFor(() => s.run(feeds), OVERHEAD_WARMUP_MS);
    // The 10th percentile: calls that allocate outputs run in phases of Node's collector (the
    // same call's median moved 5x between runs here); its quiet phase is the binding's own cost.
    return summarize(await timeUntraced(() => s.run(feeds), job.rule)).p10Us;
  });
  const prefix = path.join(job.traceDir, `b${process.pid}_${job.id}_${elements}`);
  const modelRunUs = await withSession(model, job.ep, prefix, async (s) => {
    const { trace, timed } = await timeRuns(s, () => s.run(feeds), TRACED_PASS, prefix);
    return summarize(timed(trace.modelRunUs)).medianUs;
  });
  return { bytes: 2 * 4 * elements, wallUs, modelRunUs };
}

/** Chains of 1..N tiny nodes timed without the ORT trace, the ORT trace's cost per node, and the binding's samples. */
async function runOverhead(job: OverheadJob): Promise<OverheadOutcome> {
  try {
    const serial: ChainVariant = { model: (n) => chainModel(n), ep: job.ep, dims: [1, CHAIN_ELEMENTS] };
    const [points = []] = await timeChains(job.lengths, Math.max(1, job.rounds ?? 1), [serial], job.rule);
    // The traced ends: the longest gives the ORT trace's cost per trace event; both, its cost per node in model_run.
    const longest = Math.max(...job.lengths);
    const tracedRuns: { nodes: number; modelRunUs: number }[] = [];
    let traceNodeUs: number | null = null;
    let traceReadings: TraceReadings | undefined;
    for (const n of new Set([Math.min(...job.lengths), longest])) {
      const p = await tracedChain(n, job).catch(() => null);
      if (!p) continue;
      tracedRuns.push({ nodes: n, modelRunUs: p.modelRunUs });
      if (n === longest) [traceNodeUs, traceReadings] = [p.nodeUs, p.readings];
    }
    const binding = [];
    for (const e of job.bindingElements ?? []) binding.push(await timeOneNode(e, job));
    const wake = job.wakeLengths?.length ? await timeWake(job) : undefined;
    return {
      id: job.id,
      ok: true,
      points,
      traceNodeUs,
      ...(traceReadings ? { traceReadings } : {}),
      tracedRuns,
      binding,
      ...(wake ? { wake } : {}),
    };
  } catch (e) {
    const msg = errorMessage(e);
    return { id: job.id, ok: false, kind: classifyOrtError(msg), error: cleanOrtMessage(msg) };
  }
}

/**
 * Session options that make ORT write the graph it executes to `outPath` when the session is
 * created, with weights of 1 KiB and up in `weightsFile` (a name beside it).
 */
function writingGraph(
  options: ort.InferenceSession.SessionOptions,
  outPath: string,
  weightsFile: string,
): ort.InferenceSession.SessionOptions {
  return {
    ...options,
    optimizedModelFilePath: outPath,
    extra: {
      session: {
        optimized_model_external_initializers_file_name: weightsFile,
        optimized_model_external_initializers_min_size_in_bytes: '1024',
      },
    },
  };
}

/** Creates a session so that ORT writes the graph it executes; nothing is run. */
async function runOptimize(job: OptimizeJob): Promise<OptimizeOutcome> {
  if (job.ep.name === 'cuda') {
    const reason = cudaUnavailableReason();
    if (reason) return { id: job.id, ok: false, kind: 'ep-unavailable', error: reason };
  }
  const opened = await openSession(
    job.modelPath,
    writingGraph(sessionOptions(job.ep, null), job.outPath, job.weightsFile),
  );
  if (!('session' in opened)) return { id: job.id, ok: false, ...opened };
  await opened.session.release().catch(() => undefined);
  return { id: job.id, ok: true };
}

parent.onMessage((msg) => {
  if (msg.type === 'exit') {
    process.exit(0);
  }
  if (msg.type === 'run') {
    void runJob(msg.job).then((outcome) => send({ type: 'result', outcome }));
  }
  if (msg.type === 'run-model') {
    void runModel(msg.job).then((outcome) => send({ type: 'model-result', outcome }));
  }
  if (msg.type === 'overhead') {
    void runOverhead(msg.job).then((outcome) => send({ type: 'overhead-result', outcome }));
  }
  if (msg.type === 'optimize') {
    void runOptimize(msg.job).then((outcome) => send({ type: 'optimize-result', outcome }));
  }
});
// A forked child whose parent went away; a utility process ends with its parent.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready', ortVersion: ort.env.versions.common ?? 'unknown', backends: ort.listSupportedBackends() });
