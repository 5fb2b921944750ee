/**
 * Planner reality check (issue 6): the planner's predicted pipeline throughput against a
 * pipeline really run on this machine. Run: npm run bench:planner-reality [-- options]
 *
 * Predicted, through the product's own path: a fresh SQLite store, this machine probed, its CPU
 * profiled with the quick suite at 1 thread, predictors trained, the model imported as a
 * workload and priced per layer by the preferred stored predictor (forest), as `plan` does. The
 * planning problem has two 1-thread CPU "devices" and, between them, an alpha-beta link fitted to
 * the measured cost of the real transfer path (below). planAll ranks every plan; the best
 * pipeline plan gives the cut, the microbatch size and the per-stage times.
 *
 * Measured: the model (PaddleOCR cls, a CNN from test/fixtures) cut at that layer boundary into
 * two ONNX models (bench/lib/extract-stages.ts); two child processes each run one stage
 * on onnxruntime-node (CPU EP, intra-op 1, inter-op 1, the profiler's own session options);
 * stage 1 streams every microbatch's cut tensors to stage 2 over a Unix socket (length-prefixed
 * frames, with backpressure). Throughput is stage 2's completions per second after warm-up.
 * The same is done at every other cut (the measured best cut), and the whole model alone in
 * one process (the single-device plan). The link: ping-pong of frames of 1 KiB-1 MiB through
 * the same socket and decoding path, one-way time = fitted alpha + bytes / beta.
 *
 * Options: --microbatches N (timed, default 500), --warmup N (100), --repeats N (3, runs of the
 * chosen cut), --batch N (64, the planner's batch), --no-sweep (skip the other cuts),
 * --predictor NAME (default: the planner's preference).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import { KernelRunner } from '../src-main/adapters/ort/kernel-runner.js';
import { sessionOptions } from '../src-main/adapters/ort/ep-options.js';
import { openDatabase } from '../src-main/adapters/store/open-database.js';
import { splitModel } from './lib/extract-stages.js';
import { OnnxDataType } from '../src-main/core/onnx/model-builder.js';
import { createCostModel } from '../src-main/core/planner/cost/cost-model.js';
import { fitAlphaBeta } from '../src-main/core/planner/cost/nccl-tests.js';
import { pricePlan } from '../src-main/core/planner/cost/plan-cost.js';
import { plannerContext, type PlannerContext } from '../src-main/core/planner/problem/problem.js';
import { planAll } from '../src-main/core/planner/search/index.js';
import type { Plan, PlanDevice, PlanLayer, PlanLink, PlanProblem } from '../src-main/core/planner/types.js';
import { predictWorkload } from '../src-main/core/workload/predict-workload.js';
import { workloadFromOnnx } from '../src-main/core/workload/from-onnx.js';
import { localProbeDeps } from '../src-main/services/machine/local-probe.js';
import { probeAndRecord } from '../src-main/services/machine/machine-service.js';
import { chooseStoredPredictor, trainPredictors } from '../src-main/services/predict/predictor-service.js';
import { profileDevice } from '../src-main/services/profile/profiler-service.js';
import { pickDevice, resolveWorkload } from '../src-main/services/workload/workload-service.js';

const MODEL = 'test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx';
const INPUT = 'x';
const SAMPLE_DIMS = [3, 48, 192];
const LINK_SIZES = [1024, 4096, 16384, 65536, 262144, 1048576];
const LINK_REPS = 200;

// ---------------------------------------------------------------- worker side

type Role = 'first' | 'second' | 'solo' | 'link-send' | 'link-recv';

interface TensorSpec {
  name: string;
  dims: number[];
}

type ToWorker =
  | { type: 'load'; role: Role; model: string | null; socket: string; inputs: TensorSpec[]; outputs: string[] }
  | { type: 'go'; count: number }
  | { type: 'link'; sizes: number[]; reps: number }
  | { type: 'exit' };

type FromWorker =
  | { type: 'loaded' }
  | {
      type: 'done';
      /** session.run wall time per microbatch, µs. */
      runUs: number[];
      /** Stage 1: building and writing each frame (incl. waiting for room); stage 2: decoding it, µs. */
      ioUs: number[];
      /** performance.now() at each microbatch's completion, ms. */
      doneAtMs: number[];
      /** CPU time this process used during the run, µs. */
      cpuUs: number;
    }
  | { type: 'link-done'; rttUs: Record<number, number[]> }
  | { type: 'error'; message: string };

const now = (): number => performance.now();
const toParent = (m: FromWorker): void => {
  process.send?.(m);
};

/** Splits a byte stream into [u32 length][u32 index][payload] frames (each byte copied at most once). */
class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  constructor(private readonly onFrame: (index: number, payload: Buffer) => void) {}
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.buffered < 8) return;
      if ((this.chunks[0] as Buffer).length < 8) this.flatten();
      const head = this.chunks[0] as Buffer;
      const len = head.readUInt32LE(0);
      if (this.buffered < 8 + len) return;
      const all = this.flatten();
      const index = all.readUInt32LE(4);
      const payload = all.subarray(8, 8 + len);
      const rest = all.subarray(8 + len);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
      this.onFrame(index, payload);
    }
  }
  private flatten(): Buffer {
    const b = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.buffered);
    this.chunks = [b];
    return b;
  }
}

function frame(index: number, parts: readonly Uint8Array[]): Buffer {
  const len = parts.reduce((a, p) => a + p.byteLength, 0);
  const out = Buffer.allocUnsafe(8 + len);
  out.writeUInt32LE(len, 0);
  out.writeUInt32LE(index, 4);
  let at = 8;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** Float32 tensors from a frame's payload (copied: the payload is not 4-byte aligned in general). */
function decode(payload: Buffer, specs: readonly TensorSpec[]): Record<string, ort.Tensor> {
  const feeds: Record<string, ort.Tensor> = {};
  let at = 0;
  for (const s of specs) {
    const n = s.dims.reduce((a, d) => a * d, 1);
    const data = new Float32Array(n);
    new Uint8Array(data.buffer).set(payload.subarray(at, at + n * 4));
    at += n * 4;
    feeds[s.name] = new ort.Tensor('float32', data, s.dims);
  }
  return feeds;
}

function randomInput(spec: TensorSpec): ort.Tensor {
  const n = spec.dims.reduce((a, d) => a * d, 1);
  let s = 12345;
  const data = Float32Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) >>> 0;
    return s / 2 ** 32 - 0.5;
  });
  return new ort.Tensor('float32', data, spec.dims);
}

async function worker(): Promise<void> {
  let role: Role = 'solo';
  let session: ort.InferenceSession | null = null;
  let inputs: TensorSpec[] = [];
  let outputs: string[] = [];
  let server: net.Server | null = null;
  let conn: net.Socket | null = null;
  let onFrame: ((index: number, payload: Buffer) => void) | null = null;
  /** Stage 2: frames that arrived before (or while) it runs, in order. */
  let queue: Buffer[] = [];
  let wake: (() => void) | null = null;
  const attach = (sock: net.Socket): void => {
    conn = sock;
    sock.setNoDelay(true);
    const reader = new FrameReader((i, p) => onFrame?.(i, p));
    sock.on('data', (c: Buffer) => reader.push(c));
    sock.on('error', () => undefined);
  };
  const closeAll = async (): Promise<void> => {
    conn?.destroy();
    conn = null;
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = null;
    await session?.release();
    session = null;
  };

  const load = async (m: Extract<ToWorker, { type: 'load' }>): Promise<void> => {
    await closeAll();
    role = m.role;
    inputs = m.inputs;
    outputs = m.outputs;
    if (m.model)
      session = await ort.InferenceSession.create(m.model, sessionOptions({ name: 'cpu', threads: 1 }, null));
    if (role === 'second' || role === 'link-recv') {
      rmSync(m.socket, { force: true });
      const srv = net.createServer((sock) => attach(sock));
      server = srv;
      await new Promise<void>((r) => srv.listen(m.socket, () => r()));
    } else if (role === 'first' || role === 'link-send') {
      const sock = net.connect(m.socket);
      await new Promise<void>((r, j) => {
        sock.once('connect', () => r());
        sock.once('error', j);
      });
      attach(sock);
    }
    if (role === 'second') {
      queue = [];
      onFrame = (_i, payload) => {
        queue.push(payload);
        const w = wake;
        wake = null;
        w?.();
      };
    }
    if (role === 'link-recv') {
      // Decode like stage 2 does, then a 4-byte acknowledgement.
      onFrame = (index, payload) => {
        decode(payload, [{ name: 'p', dims: [payload.length / 4] }]);
        const ack = Buffer.allocUnsafe(4);
        ack.writeUInt32LE(index, 0);
        conn?.write(ack);
      };
    }
  };

  const write = async (buf: Buffer): Promise<void> => {
    const sock = conn as net.Socket;
    if (!sock.write(buf)) await new Promise<void>((r) => sock.once('drain', () => r()));
  };

  const go = async (count: number): Promise<void> => {
    const cpu0 = process.cpuUsage();
    const cpuUs = (): number => {
      const d = process.cpuUsage(cpu0);
      return d.user + d.system;
    };
    const runUs: number[] = [];
    const ioUs: number[] = [];
    const doneAtMs: number[] = [];
    const s = session as ort.InferenceSession;
    if (role === 'solo' || role === 'first') {
      const feeds = Object.fromEntries(inputs.map((i) => [i.name, randomInput(i)]));
      for (let i = 0; i < count; i++) {
        const t0 = now();
        const out = await s.run(feeds);
        const t1 = now();
        runUs.push((t1 - t0) * 1000);
        if (role === 'first') {
          const parts = outputs.map((o) => {
            const t = out[o] as ort.Tensor;
            const d = t.data as Float32Array;
            return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
          });
          await write(frame(i, parts));
          ioUs.push((now() - t1) * 1000);
        }
        doneAtMs.push(now());
      }
      toParent({ type: 'done', runUs, ioUs, doneAtMs, cpuUs: cpuUs() });
      return;
    }
    // Stage 2: one microbatch at a time, in arrival order.
    while (doneAtMs.length < count) {
      if (queue.length === 0) await new Promise<void>((r) => (wake = r));
      const payload = queue.shift() as Buffer;
      const t0 = now();
      const feeds = decode(payload, inputs);
      const t1 = now();
      await s.run(feeds);
      const t2 = now();
      ioUs.push((t1 - t0) * 1000);
      runUs.push((t2 - t1) * 1000);
      doneAtMs.push(t2);
    }
    toParent({ type: 'done', runUs, ioUs, doneAtMs, cpuUs: cpuUs() });
  };

  const link = async (sizes: number[], reps: number): Promise<void> => {
    const rttUs: Record<number, number[]> = {};
    let waiting: (() => void) | null = null;
    const sock = conn as net.Socket;
    sock.removeAllListeners('data');
    let acked = 0;
    sock.on('data', (c: Buffer) => {
      acked += c.length / 4;
      if (acked > 0 && waiting) {
        acked--;
        const w = waiting;
        waiting = null;
        w();
      }
    });
    for (const size of sizes) {
      const payload = new Uint8Array(size);
      const times: number[] = [];
      for (let r = 0; r < reps + 20; r++) {
        const t0 = now();
        const back = new Promise<void>((res) => (waiting = res));
        await write(frame(r, [payload]));
        await back;
        if (r >= 20) times.push((now() - t0) * 1000);
      }
      rttUs[size] = times;
    }
    toParent({ type: 'link-done', rttUs });
  };

  process.on('message', (m: ToWorker) => {
    const job = async (): Promise<void> => {
      if (m.type === 'exit') {
        await closeAll();
        process.exit(0);
      }
      if (m.type === 'load') {
        await load(m);
        toParent({ type: 'loaded' });
      }
      if (m.type === 'go') await go(m.count);
      if (m.type === 'link') await link(m.sizes, m.reps);
    };
    job().catch((e: unknown) => toParent({ type: 'error', message: (e as Error).stack ?? String(e) }));
  });
  process.on('disconnect', () => process.exit(0));
}

// ---------------------------------------------------------------- parent side

class Worker {
  private readonly child: ChildProcess;
  private waiters: ((m: FromWorker) => void)[] = [];
  constructor() {
    this.child = fork(process.argv[1] as string, ['--worker'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m: FromWorker) => {
      if (m.type === 'error') {
        console.error(`worker failed: ${m.message}`);
        process.exit(1);
      }
      this.waiters.shift()?.(m);
    });
  }
  request(m: ToWorker): Promise<FromWorker> {
    return new Promise((r) => {
      this.waiters.push(r);
      this.child.send(m);
    });
  }
  exit(): void {
    this.child.send({ type: 'exit' });
  }
}

const median = (a: readonly number[]): number => {
  const s = [...a].sort((x, y) => x - y);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? (s[(n - 1) / 2] as number) : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2;
};
const fmt = (v: number, d = 1): string => v.toFixed(d);

/** Busy CPU time of the whole machine so far (user, nice, system, irq, softirq, steal), µs; null off Linux. */
function machineBusyUs(): number | null {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = cpu;
    return ((user + nice + system + irq + softirq + steal) * 1e6) / 100; // USER_HZ = 100
  } catch {
    return null;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Waits (up to maxS) until the rest of the machine uses under `cores` CPUs over a 1 s window:
 * on 2 vCPUs a third busy process stalls one of the two stages. Returns the load last seen.
 */
async function waitQuiet(maxS = 30, cores = 0.15): Promise<number> {
  const started = now();
  let load = 0;
  do {
    const b0 = machineBusyUs();
    const p0 = process.cpuUsage();
    const t0 = now();
    await sleep(1000);
    const b1 = machineBusyUs();
    if (b0 === null || b1 === null) return 0;
    const p = process.cpuUsage(p0);
    load = (b1 - b0 - p.user - p.system) / ((now() - t0) * 1000);
    if (load < cores) return load;
  } while (now() - started < maxS * 1000);
  return load;
}

interface Measured {
  throughput: number;
  /** CPUs used by other processes during the run (machine busy time minus this benchmark's). */
  foreignCores: number;
  stageRunUs: number[];
  stageIoUs: number[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      microbatches: { type: 'string', default: '500' },
      warmup: { type: 'string', default: '100' },
      repeats: { type: 'string', default: '3' },
      batch: { type: 'string', default: '64' },
      'no-sweep': { type: 'boolean', default: false },
      predictor: { type: 'string' },
    },
  });
  const timed = Number(values.microbatches);
  const warmup = Number(values.warmup);
  const repeats = Number(values.repeats);
  const batch = Number(values.batch);
  const lines: string[] = [];
  const log = (s: string): void => {
    lines.push(s);
    console.log(s);
  };
  log(
    `Machine: ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}; Node ${process.version}; onnxruntime-node ${ort.env.versions.common ?? '?'}; date ${new Date().toISOString().slice(0, 10)}`,
  );

  // 1. Profile, train (the product's path).
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdjv-reality-'));
  const db = openDatabase(path.join(dir, 'bench.db'));
  const { machineId } = await probeAndRecord(db, localProbeDeps, {});
  const runner = new KernelRunner({});
  await waitQuiet();
  const t0 = now();
  const prof = await profileDevice(
    { db, runner, now: () => new Date(), epUnavailable: () => null },
    { machineId, deviceKey: 'cpu', ep: { name: 'cpu', threads: 1 } },
    { suite: 'quick' },
  );
  await runner.close();
  log(
    `Profile: quick suite, CPU at 1 thread, ${fmt((now() - t0) / 1000)} s, ${prof.measured} kernels (${prof.status}).`,
  );
  trainPredictors(db, ['roofline', 'analytical', 'linear', 'forest']);
  const chosen = chooseStoredPredictor(db, typeof values.predictor === 'string' ? values.predictor : undefined);

  // 2. The workload at batch 1 (per-sample layer times), as plan-service resolves it.
  const { workload } = resolveWorkload(db, MODEL, { inputs: { [INPUT]: [1, ...SAMPLE_DIMS] }, mode: 'inference' });
  const features = pickDevice(db, 'cpu', 1).features;
  const L = workload.layers.length;

  // 3. Two workers; the link first.
  const wa = new Worker();
  const wb = new Worker();
  const sockPath = path.join(dir, 'stage.sock');
  await waitQuiet();
  await wb.request({ type: 'load', role: 'link-recv', model: null, socket: sockPath, inputs: [], outputs: [] });
  await wa.request({ type: 'load', role: 'link-send', model: null, socket: sockPath, inputs: [], outputs: [] });
  const link = (await wa.request({ type: 'link', sizes: LINK_SIZES, reps: LINK_REPS })) as Extract<
    FromWorker,
    { type: 'link-done' }
  >;
  // One way = round trip minus the acknowledgement's way back (half the smallest round trip);
  // alpha and beta fitted as nccl-tests results are (least squares weighted by 1/time²).
  const ys = LINK_SIZES.map((s) => median(link.rttUs[s] ?? []));
  const back = (ys[0] as number) / 2;
  const fit = fitAlphaBeta(LINK_SIZES.map((sizeBytes, i) => ({ sizeBytes, timeUs: (ys[i] as number) - back })));
  if (!fit) throw new Error('no alpha-beta fit of the link');
  const { alphaUs, gbps } = fit;
  log(
    `Link (Unix socket between the stage processes, ping-pong, ${LINK_REPS} per size): median RTT ${LINK_SIZES.map(
      (s, i) => `${s / 1024} KiB ${fmt(ys[i] as number)} µs`,
    ).join(
      ', ',
    )}; fitted one-way alpha ${fmt(alphaUs)} µs, beta ${fmt(gbps, 2)} GB/s (largest error ${fmt(fit.maxRelError * 100)}%).`,
  );

  // 4. The planning problem: two 1-thread CPU devices and that link.
  const devA: PlanDevice = {
    id: 'local/cpu-a',
    name: 'CPU (1 thread)',
    kind: 'cpu',
    machine: 'local',
    memoryBytes: os.totalmem() / 2,
    estimate: 'profiled',
  };
  const devB: PlanDevice = { ...devA, id: 'local/cpu-b' };
  const perLayerUs = (predictorName?: string): number[] => {
    const p = predictorName ? chooseStoredPredictor(db, predictorName) : chosen;
    return predictWorkload(workload, p.predictor, features, 'inference').layers.map((l) => l.timeUs);
  };
  const wBatch = workload.bindings.batch ?? 1;
  const buildProblem = (times: number[]): PlanProblem => {
    const layers: PlanLayer[] = workload.layers.map((l, i) => {
      const f = (times[i] ?? 0) / wBatch;
      return {
        name: l.name,
        forwardUs: { [devA.id]: f, [devB.id]: f },
        backwardUs: { [devA.id]: 2 * f, [devB.id]: 2 * f },
        params: l.params,
        outBytesPerSample: l.outBytes / wBatch,
        activationBytesPerSample: (l.trainingActivationBytes ?? l.activationBytes) / wBatch,
      };
    });
    const links: PlanLink[] = [{ a: devA.id, b: devB.id, alphaUs, gbps, kind: 'unix-socket' }];
    return {
      layers,
      devices: [devA, devB],
      links,
      mode: 'inference',
      batch,
      bytesPerParam: 2,
      zeroStage: 0,
      overheadBytes: 2 ** 29,
    };
  };
  const problem = buildProblem(perLayerUs());
  const cost = createCostModel(problem.links);
  const result = planAll(problem, cost, { topN: 50 });
  const bestAny = result.plans.find((p) => p.feasible) as Plan;
  const best = result.plans.find((p) => p.feasible && p.kind === 'pipeline');
  if (!best) throw new Error('the planner found no pipeline plan');
  const mbSize = batch / best.microbatches;
  const cutLayer = (best.stages[0] as Plan['stages'][number]).to; // stage 1 = layers [0, cutLayer)
  const ctx = plannerContext(problem, cost);
  /** Predicted per-microbatch stage and link times, and steady-state throughput, for a cut. */
  const predictedAt = (
    c: PlannerContext,
    cut: number,
  ): { plan: Plan; stageUs: number[]; linkUs: number; throughput: number } => {
    const plan = pricePlan(c, {
      stages: [
        { from: 0, to: cut, devices: [devA.id] },
        { from: cut, to: L, devices: [devB.id] },
      ],
      microbatches: best.microbatches,
      schedule: '1f1b',
    });
    const stageUs = plan.stages.map((s) => s.timeUs);
    const linkUs = c.tables.cutUs([0], [1], cut - 1, mbSize);
    return { plan, stageUs, linkUs, throughput: mbSize / (Math.max(...stageUs, linkUs) * 1e-6) };
  };
  const pred = predictedAt(ctx, cutLayer);
  const single = result.plans.find((p) => p.kind === 'single');
  log(
    `Workload: ${workload.name}, ${workload.nodes.length} nodes, ${L} layers; predictor ${chosen.name}; predicted whole model ${fmt(
      perLayerUs().reduce((a, b) => a + b, 0) / 1000,
      3,
    )} ms per sample at 1 thread.`,
  );
  log(
    `Planner (batch ${batch}, inference, 2 x CPU 1 thread): best plan ${bestAny.kind} (${fmt(bestAny.throughputSamplesPerS)} samples/s); best pipeline: cut after layer ${cutLayer - 1} (${cutLayer} + ${L - cutLayer} layers), ${best.microbatches} microbatches of ${mbSize}, ${fmt(best.throughputSamplesPerS)} samples/s over the batch (fill and drain included).`,
  );
  log(
    `Predicted steady state at that cut: stage 1 ${fmt(pred.stageUs[0] as number)} µs, stage 2 ${fmt(pred.stageUs[1] as number)} µs, link ${fmt(pred.linkUs)} µs per microbatch -> ${fmt(pred.throughput)} samples/s.`,
  );

  // 5. Stage models for a cut, and a measured pipeline run.
  const shapesAt = workloadFromOnnx(new Uint8Array(readFileSync(MODEL)), {
    name: 'cls',
    inputs: { [INPUT]: [mbSize, ...SAMPLE_DIMS] },
  });
  const dims = new Map(shapesAt.nodes.flatMap((n) => n.outputs.map((o) => [o.name, o.dims] as const)));
  const bytes = new Uint8Array(readFileSync(MODEL));
  const stageFiles = (cut: number): { first: string; second: string; cutSpecs: TensorSpec[] } => {
    const cutTensors = (workload.layers[cut - 1] as (typeof workload.layers)[number]).outTensors;
    const cutSpecs = cutTensors.map((name) => ({ name, dims: dims.get(name) ?? [] }));
    const split = splitModel(
      bytes,
      cutTensors,
      cutSpecs.map((s) => ({ ...s, elemType: OnnxDataType.FLOAT })),
    );
    const first = path.join(dir, `stage1-${cut}.onnx`);
    const second = path.join(dir, `stage2-${cut}.onnx`);
    writeFileSync(first, split.first.bytes);
    writeFileSync(second, split.second.bytes);
    return { first, second, cutSpecs };
  };
  const inputSpec: TensorSpec = { name: INPUT, dims: [mbSize, ...SAMPLE_DIMS] };
  const count = warmup + timed;
  const throughputOf = (doneAtMs: number[]): number => {
    const a = doneAtMs[warmup - 1] as number;
    const b = doneAtMs[count - 1] as number;
    return ((count - warmup) * mbSize) / ((b - a) / 1000);
  };
  const steady = (a: number[]): number[] => a.slice(warmup);
  const runPipeline = async (cut: number): Promise<Measured> => {
    const f = stageFiles(cut);
    const sock = path.join(dir, `p${cut}.sock`);
    await wb.request({
      type: 'load',
      role: 'second',
      model: f.second,
      socket: sock,
      inputs: f.cutSpecs,
      outputs: [],
    });
    await wa.request({
      type: 'load',
      role: 'first',
      model: f.first,
      socket: sock,
      inputs: [inputSpec],
      outputs: f.cutSpecs.map((s) => s.name),
    });
    await waitQuiet();
    const b0 = machineBusyUs();
    const p0 = process.cpuUsage();
    const t0 = now();
    const [ra, rb] = (await Promise.all([wa.request({ type: 'go', count }), wb.request({ type: 'go', count })])) as [
      Extract<FromWorker, { type: 'done' }>,
      Extract<FromWorker, { type: 'done' }>,
    ];
    const b1 = machineBusyUs();
    const p = process.cpuUsage(p0);
    const foreign =
      b0 === null || b1 === null ? 0 : (b1 - b0 - ra.cpuUs - rb.cpuUs - p.user - p.system) / ((now() - t0) * 1000);
    return {
      throughput: throughputOf(rb.doneAtMs),
      foreignCores: Math.max(0, foreign),
      stageRunUs: [median(steady(ra.runUs)), median(steady(rb.runUs))],
      stageIoUs: [median(steady(ra.ioUs)), median(steady(rb.ioUs))],
    };
  };
  const runSolo = async (): Promise<Measured> => {
    await wa.request({
      type: 'load',
      role: 'solo',
      model: path.resolve(MODEL),
      socket: '',
      inputs: [inputSpec],
      outputs: [],
    });
    await waitQuiet();
    const b0 = machineBusyUs();
    const p0 = process.cpuUsage();
    const t0 = now();
    const r = (await wa.request({ type: 'go', count })) as Extract<FromWorker, { type: 'done' }>;
    const b1 = machineBusyUs();
    const p = process.cpuUsage(p0);
    const foreign = b0 === null || b1 === null ? 0 : (b1 - b0 - r.cpuUs - p.user - p.system) / ((now() - t0) * 1000);
    return {
      throughput: throughputOf(r.doneAtMs),
      foreignCores: Math.max(0, foreign),
      stageRunUs: [median(steady(r.runUs))],
      stageIoUs: [],
    };
  };

  const soloRuns: Measured[] = [];
  const chosenRuns: Measured[] = [];
  for (let r = 0; r < repeats; r++) {
    chosenRuns.push(await runPipeline(cutLayer));
    soloRuns.push(await runSolo());
  }
  const clean = chosenRuns.filter((m) => m.foreignCores < 0.1);
  const mThr = median((clean.length > 0 ? clean : chosenRuns).map((m) => m.throughput));
  const ratio = mThr / pred.throughput;
  log('');
  log(`Measured at the planner's cut (${repeats} runs of ${timed} microbatches after ${warmup} warm-up):`);
  chosenRuns.forEach((m, i) =>
    log(
      `  run ${i + 1}: ${fmt(m.throughput)} samples/s (other processes: ${fmt(m.foreignCores, 2)} CPUs); stage 1 run ${fmt(m.stageRunUs[0] as number)} µs + send ${fmt(m.stageIoUs[0] as number)} µs; stage 2 decode ${fmt(m.stageIoUs[1] as number)} µs + run ${fmt(m.stageRunUs[1] as number)} µs`,
    ),
  );
  log(
    `  median${clean.length > 0 && clean.length < chosenRuns.length ? ` of the ${clean.length} runs without other load` : ''} ${fmt(mThr)} samples/s vs predicted ${fmt(pred.throughput)}: measured/predicted ${fmt(ratio, 3)} (error of the prediction ${fmt(((pred.throughput - mThr) / mThr) * 100)}%).`,
  );
  const soloThr = median(soloRuns.map((m) => m.throughput));
  const predSolo = single ? single.throughputSamplesPerS : NaN;
  log(
    `  one process, whole model: ${soloRuns.map((m) => fmt(m.throughput)).join(', ')} samples/s (run ${fmt(median(soloRuns.map((m) => m.stageRunUs[0] as number)))} µs) vs predicted ${fmt(predSolo)}; pipeline speed-up measured ${fmt(mThr / soloThr, 2)}x, predicted ${fmt(pred.throughput / predSolo, 2)}x.`,
  );

  // 6. Every other cut (the measured best cut), one run each.
  const sweep: { cut: number; predicted: number; predictedStageUs: number[]; measured: Measured }[] = [];
  if (!values['no-sweep']) {
    log('');
    log(
      'Every cut (one run each): cut after layer | predicted samples/s (stage 1, stage 2 µs) | measured samples/s (stage 1, stage 2 run µs)',
    );
    for (let cut = 1; cut < L; cut++) {
      const p = predictedAt(ctx, cut);
      const m = cut === cutLayer ? (chosenRuns[0] as Measured) : await runPipeline(cut);
      sweep.push({ cut, predicted: p.throughput, predictedStageUs: p.stageUs, measured: m });
      log(
        `  ${cut - 1} | ${fmt(p.throughput)} (${p.stageUs.map((x) => fmt(x)).join(', ')}) | ${fmt(m.throughput)} (${m.stageRunUs.map((x) => fmt(x)).join(', ')})${m.foreignCores > 0.1 ? ` [other processes ${fmt(m.foreignCores, 2)} CPUs]` : ''}`,
      );
    }
    const bestMeasured = sweep.reduce((a, b) => (b.measured.throughput > a.measured.throughput ? b : a));
    const bestPredicted = sweep.reduce((a, b) => (b.predicted > a.predicted ? b : a));
    const atChosen = sweep.find((s) => s.cut === cutLayer) as (typeof sweep)[number];
    log(
      `Measured best cut: after layer ${bestMeasured.cut - 1} (${fmt(bestMeasured.measured.throughput)} samples/s); the planner's cut (after layer ${cutLayer - 1}, its best predicted: after layer ${bestPredicted.cut - 1}) measured ${fmt(atChosen.measured.throughput)}, ${fmt((atChosen.measured.throughput / bestMeasured.measured.throughput) * 100)}% of the best.`,
    );
  }
  wa.exit();
  wb.exit();

  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    `bench/results/planner-reality-${new Date().toISOString().slice(0, 10)}.json`,
    `${JSON.stringify(
      {
        lines,
        link: { sizes: LINK_SIZES, medianRttUs: ys, fit },
        predictor: chosen.name,
        plan: { bestKind: bestAny.kind, cutLayer, microbatches: best.microbatches, mbSize, predicted: pred },
        chosenRuns,
        soloRuns,
        sweep,
      },
      null,
      2,
    )}\n`,
  );
  db.close();
  rmSync(dir, { recursive: true, force: true });
}

if (process.argv.includes('--worker')) await worker();
else await main();
