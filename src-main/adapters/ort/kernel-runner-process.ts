/**
 * The kernel-runner child process (built to dist/kernel-runner.js). Runs one kernel
 * at a time on ONNX Runtime: builds its model, creates a session with profiling,
 * warms up, repeats until the stopping rule says so, reads the per-node kernel times
 * from ORT's trace, and answers with the raw samples. Never throws to its parent: a
 * failure becomes a result; a crash is noticed by the parent.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { buildKernelModel } from '../../core/kernels/build.js';
import { shouldStop, type StopReason, type StoppingRule } from '../../core/profiler/timing-stats.js';
import { errorMessage } from '../../core/errors.js';
import { cudaUnavailableReason, sessionOptions } from './ep-options.js';
import { makeFeeds, outputTensor } from './feeds.js';
import { parseTrace, type TraceRuns } from './parse-trace.js';
import {
  classifyOrtError,
  cleanOrtMessage,
  type FromChild,
  type ModelJob,
  type ModelOutcome,
  type RunJob,
  type RunOutcome,
  type ToChild,
} from './protocol.js';

function send(msg: FromChild): void {
  process.send?.(msg);
}

function readTrace(prefix: string): string {
  const dir = path.dirname(prefix);
  const base = path.basename(prefix);
  const file = readdirSync(dir).find((f) => f.startsWith(`${base}_`) && f.endsWith('.json'));
  if (!file) throw new Error('ONNX Runtime wrote no profile trace');
  const full = path.join(dir, file);
  try {
    return readFileSync(full, 'utf8');
  } finally {
    rmSync(full, { force: true });
  }
}

/**
 * Warm-up, then timed runs until the stopping rule says stop; then ORT's trace, with
 * every per-run series cut to the timed runs (the trace holds the warm-ups first).
 */
async function timeRuns(
  session: ort.InferenceSession,
  run: () => Promise<unknown>,
  rule: StoppingRule,
  prefix: string,
): Promise<{ wallUs: number[]; stop: StopReason; trace: TraceRuns; timed: (runs: number[]) => number[] }> {
  for (let i = 0; i < rule.warmupRuns; i++) await run();
  const wallUs: number[] = [];
  const started = performance.now();
  let stop: StopReason | null = null;
  while (stop === null) {
    const t = performance.now();
    await run();
    wallUs.push((performance.now() - t) * 1000);
    stop = shouldStop(wallUs, performance.now() - started, rule);
  }
  session.endProfiling();
  const trace = parseTrace(readTrace(prefix));
  return { wallUs, stop, trace, timed: (runs) => runs.slice(runs.length - wallUs.length) };
}

async function runJob(job: RunJob): Promise<RunOutcome> {
  const { id, spec, ep, rule } = job;
  if (ep.name === 'cuda') {
    const reason = cudaUnavailableReason();
    if (reason) return { id, ok: false, kind: 'ep-unavailable', error: reason };
  }
  const built = buildKernelModel(spec);
  const prefix = path.join(job.traceDir, `k${process.pid}_${id}`);
  let session: ort.InferenceSession | null = null;
  try {
    const t0 = performance.now();
    try {
      session = await ort.InferenceSession.create(built.model, sessionOptions(ep, prefix));
    } catch (e) {
      const msg = errorMessage(e);
      return { id, ok: false, kind: classifyOrtError(msg), error: `session creation failed: ${cleanOrtMessage(msg)}` };
    }
    const sessionCreateMs = performance.now() - t0;
    const feeds = makeFeeds(built.inputs);
    // A preallocated output keeps the allocation of a fresh JS buffer out of every timed run.
    const fetches = { [built.outputName]: outputTensor(built.output) };
    const run = (): Promise<unknown> => (session as ort.InferenceSession).run(feeds, fetches);
    const { wallUs, stop, trace, timed } = await timeRuns(session, run, rule, prefix);
    const byOpUs = Object.fromEntries(Object.entries(trace.byOpUs).map(([op, v]) => [op, timed(v)]));
    return {
      id,
      ok: true,
      kernelUs: timed(trace.kernelUs),
      wallUs,
      providers: trace.providers,
      byOpUs,
      stop,
      sessionCreateMs,
    };
  } catch (e) {
    const msg = errorMessage(e);
    return { id, ok: false, kind: classifyOrtError(msg), error: cleanOrtMessage(msg) };
  } finally {
    await session?.release().catch(() => undefined);
  }
}

async function runModel(job: ModelJob): Promise<ModelOutcome> {
  const { id, ep, rule } = job;
  if (ep.name === 'cuda') {
    const reason = cudaUnavailableReason();
    if (reason) return { id, ok: false, kind: 'ep-unavailable', error: reason };
  }
  const prefix = path.join(job.traceDir, `m${process.pid}_${id}`);
  let session: ort.InferenceSession | null = null;
  try {
    try {
      session = await ort.InferenceSession.create(job.modelPath, sessionOptions(ep, prefix));
    } catch (e) {
      const msg = errorMessage(e);
      return { id, ok: false, kind: classifyOrtError(msg), error: `session creation failed: ${cleanOrtMessage(msg)}` };
    }
    const feeds = makeFeeds(job.inputs.map((i) => ({ ...i, integerFill: 'ones' as const })));
    let outputs: ort.InferenceSession.OnnxValueMapType = {};
    const run = async (): Promise<void> => {
      outputs = await (session as ort.InferenceSession).run(feeds);
    };
    const { wallUs, trace, timed } = await timeRuns(
      session,
      run,
      { ...rule, warmupRuns: Math.max(1, rule.warmupRuns) },
      prefix,
    );
    const outputShapes: Record<string, number[]> = {};
    for (const [name, v] of Object.entries(outputs)) if (v instanceof ort.Tensor) outputShapes[name] = [...v.dims];
    return {
      id,
      ok: true,
      kernelUs: timed(trace.kernelUs),
      wallUs,
      byNodeUs: Object.fromEntries(Object.entries(trace.byNodeUs).map(([n, v]) => [n, timed(v)])),
      nodeOps: trace.nodeOps,
      providers: trace.providers,
      outputShapes,
    };
  } catch (e) {
    const msg = errorMessage(e);
    return { id, ok: false, kind: classifyOrtError(msg), error: cleanOrtMessage(msg) };
  } finally {
    await session?.release().catch(() => undefined);
  }
}

process.on('message', (msg: ToChild) => {
  if (msg.type === 'exit') {
    process.exit(0);
  }
  if (msg.type === 'run') {
    void runJob(msg.job).then((outcome) => send({ type: 'result', outcome }));
  }
  if (msg.type === 'run-model') {
    void runModel(msg.job).then((outcome) => send({ type: 'model-result', outcome }));
  }
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready', ortVersion: ort.env.versions.common ?? 'unknown', backends: ort.listSupportedBackends() });
