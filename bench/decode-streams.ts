/**
 * Where a decode step's time goes, on a shared host (issue 62). Run:
 *   esbuild bench/decode-streams.ts --bundle --platform=node --format=esm --packages=external \
 *     --outfile=.tmp/decode-streams.mjs && node .tmp/decode-streams.mjs STORE.db
 *
 * In one process, ORT's CPU EP, runs interleaved round-robin over every model (a slow moment of
 * the host hits them all), at 1 and 2 intra-op threads: one 4096^2 GEMV (the single GEMV the
 * decode model streamed weights at before), the suite's three chains of distinct GEMVs
 * (128 MiB of 1, 4 and 16 MiB weights) and decode steps of test/helpers/decoder-step-model.ts.
 * Each model keeps the fastest of its runs and their median: on a loaded host the fastest is the
 * run least disturbed. Each step is predicted by core/workload/generation.ts with the store's
 * per-node and per-run costs and peak (STORE: a profile of this machine, e.g. bench:decode's)
 * and the weights streamed at (a) the one GEMV's rate, (b) the chains' rate at the step's mean
 * matrix size, both measured here in the same rounds.
 */
import os from 'node:os';
import * as ort from 'onnxruntime-node';
import { openDatabase } from '../src-main/adapters/store/open-database.js';
import { buildKernelModel } from '../src-main/core/kernels/build.js';
import { makeKernel } from '../src-main/core/kernels/cost.js';
import { decodeStep } from '../src-main/core/workload/generation.js';
import { decodeDevice } from '../src-main/services/predict/generation-service.js';
import { streamRateAt } from '../src-main/services/predict/stream-rate.js';
import { pickDevice } from '../src-main/services/workload/workload-service.js';
import { decoderStepModel, type DecoderStepConfig } from '../test/helpers/decoder-step-model.js';
import { CONFIGS } from './lib/decoder-configs.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 40);
/** Set C of bench:decode (held out there), and its last decoder again at a long context. */
const HELD_OUT = CONFIGS.filter((c) => c.set === 'C');
const STEPS: (DecoderStepConfig & { label: string })[] = [
  ...HELD_OUT,
  { ...(HELD_OUT[HELD_OUT.length - 1] as DecoderStepConfig), label: 'L9 h576 GQA 9/3, ctx 2048', context: 2048 },
];
const GEMVS: [number, number][] = [
  [4096, 0],
  [512, 128],
  [1024, 32],
  [2048, 8],
];

interface Timed {
  label: string;
  session: ort.InferenceSession;
  feeds: Record<string, ort.Tensor>;
  us: number[];
}

const db = openDatabase(process.argv[2] ?? 'store.db');
const out: string[] = [
  `${new Date().toISOString()}, ${ROUNDS} rounds, load average at the start ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(', ')}`,
];
for (const threads of [1, 2]) {
  const opts = {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential' as const,
    graphOptimizationLevel: 'all' as const,
  };
  const timed: Timed[] = [];
  const add = async (label: string, model: Uint8Array, feeds: Record<string, ort.Tensor>): Promise<void> => {
    timed.push({ label, session: await ort.InferenceSession.create(model, opts), feeds, us: [] });
  };
  for (const [d, distinct] of GEMVS) {
    const spec = makeKernel('MatMul', 'fp32', { B: 1, M: 1, N: d, K: d, ...(distinct ? { distinct } : {}) });
    const A = new ort.Tensor('float32', new Float32Array(d).fill(0.01), [1, d]);
    await add(`gemv ${d} x ${distinct || 1}`, buildKernelModel(spec).model, { A });
  }
  const steps = STEPS.map((c) => decoderStepModel(c));
  const ids = new ort.Tensor('int64', BigInt64Array.from([1n]), [1, 1]);
  for (const [i, s] of steps.entries()) await add((STEPS[i] as { label: string }).label, s.model, { input_ids: ids });
  for (let r = 0; r < ROUNDS + 2; r++)
    for (const t of timed) {
      const t0 = performance.now();
      await t.session.run(t.feeds);
      if (r >= 2) t.us.push((performance.now() - t0) * 1000);
    }
  const min = (t: Timed): number => Math.min(...t.us);
  const med = (t: Timed): number => [...t.us].sort((a, b) => a - b)[Math.floor(t.us.length / 2)] as number;
  const gemvBytes = ([d, distinct]: [number, number]): number => d * d * 4 * (distinct || 1);
  const rate = (i: number, f: (t: Timed) => number): number =>
    gemvBytes(GEMVS[i] as [number, number]) / (f(timed[i] as Timed) * 1e3);
  out.push('', `${threads} thread(s); load average now ${os.loadavg()[0]?.toFixed(1)}`);
  for (const [i, g] of GEMVS.entries())
    out.push(
      `${(timed[i] as Timed).label}: fastest ${rate(i, min).toFixed(1)} GB/s, median ${rate(i, med).toFixed(1)} GB/s (${(gemvBytes(g) / 2 ** 20).toFixed(0)} MiB)`,
    );
  out.push(
    '',
    '| decode step | MiB per matrix | measured fastest ms | one GEMV: predicted, error | chains: predicted, error | measured median ms |',
    '| --- | --- | --- | --- | --- | --- |',
  );
  const dev = decodeDevice(db, pickDevice(db, 'cpu', threads), 'fp32', []);
  const chains = GEMVS.slice(1).map(([d], j) => ({ matrixBytes: d * d * 4, gbps: rate(j + 1, min) }));
  for (const [i, s] of steps.entries()) {
    const t = timed[GEMVS.length + i] as Timed;
    const matrixBytes = (s.shape.meanMatrixParams ?? 0) * 4;
    const at = { batch: 1, context: (STEPS[i] as DecoderStepConfig).context, elementBytes: 4 };
    const one = decodeStep(s.shape, at, { ...dev, bandwidthGBps: rate(0, min) }).stepUs;
    const streamed = decodeStep(s.shape, at, { ...dev, bandwidthGBps: streamRateAt(chains, matrixBytes) }).stepUs;
    const e = (p: number): string => `${(p / 1000).toFixed(3)}, ${((p / min(t) - 1) * 100).toFixed(1)}%`;
    out.push(
      `| ${t.label} | ${(matrixBytes / 2 ** 20).toFixed(2)} | ${(min(t) / 1000).toFixed(3)} | ${e(one)} | ${e(streamed)} | ${(med(t) / 1000).toFixed(3)} |`,
    );
  }
  out.push(
    `per-node ${dev.nodeUs.toFixed(2)} µs, per-run ${dev.runUs.toFixed(1)} µs, peak ${dev.peakGflops.toFixed(0)} GFLOP/s (the store's)`,
  );
  for (const t of timed) await t.session.release();
}
process.stdout.write(out.join('\n') + '\n');
