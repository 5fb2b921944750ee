/**
 * Decode reality (issue 15 target: predicted per-token decode time within 15% of measured).
 * Run: npm run bench:decode [-- DB] [-- --prefill-only | --decode-only] [-- --sets=D,G] [-- --no-torch | --torch-only]
 *
 * 1. This machine's CPU profiled with the default suite at 1 and 2 threads into a fresh store
 *    (or the store DB given), as `pipedejavu profile` does.
 * 2. Decode steps of small Llama-style decoders (test/helpers/decoder-step-model.ts: GQA, SwiGLU,
 *    a KV cache of `context` tokens held in the model) built as ONNX; shapes fixed here before
 *    any run, none of them tuned on.
 * 3. Each step predicted by the decode model (core/workload/generation.ts) from the profile's
 *    measured bandwidth, fp32 peak and per-node and per-run overhead, then run on ONNX Runtime's
 *    CPU EP end to end with profiling off (median of the unprofiled runs). Before: the KV cache
 *    streamed as bytes; after: the attention priced node by node in the step's dataflow
 *    (core/workload/decode-attention.ts), the cache read at no less than the streaming rate.
 * 4. Beside each decoder of sets C and F (F held out for it), its prefill at a few prompt lengths
 *    (bench/lib/prefill-cells.ts): the time to first token `predict-model --mode generate` prints,
 *    and `predict-model FILE` on the prompt's graph, against the run. `--prefill-only` leaves the decode steps out, `--decode-only` the prefill.
 * 5. Where Python's torch is installed, the same decoders on eager PyTorch beside ONNX Runtime
 *    (bench/lib/torch-cells.ts): a torch-cpu profile of its own, the decode step and set C's prefill
 *    (32 and 128 tokens, 3 runs: Debian's torch multiplies through the reference BLAS) predicted
 *    from it and timed by a script in a child. No torch: one line, and the rest goes on.
 *    `--no-torch` leaves torch out, `--torch-only` ONNX Runtime; `--torch-db=PATH` takes a store the
 *    PyTorch backend profiled already, `--torch-decode-only` leaves torch's prefill out.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KernelRunner } from '../src-main/adapters/ort/kernel-runner.js';
import { openDatabase } from '../src-main/adapters/store/open-database.js';
import type { Database } from '../src-main/adapters/store/types.js';
import { decodeStep } from '../src-main/core/workload/generation.js';
import { median } from '../src-main/core/profiler/timing-stats.js';
import { DEFAULT_SUITE } from '../src-main/services/profile/device-targets.js';
import { localProbeDeps } from '../src-main/services/machine/local-probe.js';
import { findMachine, probeAndRecord } from '../src-main/services/machine/machine-service.js';
import { profileDevice } from '../src-main/services/profile/profiler-service.js';
import { decodeDevice } from '../src-main/services/predict/generation-service.js';
import { profiledAttentionUs } from '../src-main/services/predict/decode-attention-time.js';
import { cacheReadRates } from '../src-main/services/predict/stream-rate.js';
import { loadTrainingData } from '../src-main/services/predict/training-data.js';
import { trainPredictors } from '../src-main/services/predict/predictor-service.js';
import { pickDevice } from '../src-main/services/workload/workload-service.js';
import { decoderStepModel } from '../test/helpers/decoder-step-model.js';
import { CONFIGS, type Config, type Set } from './lib/decoder-configs.js';
import { medianRunUs } from './lib/median-run.js';
import { TORCH_HEADER, torchSection } from './lib/torch-cells.js';
import {
  PREFILL_HEADER,
  prefillCells,
  prefillSummary,
  unhiddenShareText,
  type PrefillError,
} from './lib/prefill-cells.js';

/** A decode step's timing: at least 30 runs after 5 warm-ups. */
const STEP_RULE = { warmupRuns: 5, minRepetitions: 30, maxRepetitions: 400, targetCi: 0.01, budgetMs: 3000 };

const THREADS = [1, 2];
const DATAFLOWS = ['concat', 'read-once'] as const;

async function profiledStore(given: string | undefined): Promise<Database> {
  if (given) return openDatabase(given);
  const db = openDatabase(path.join(mkdtempSync(path.join(os.tmpdir(), 'pdjv-decode-')), 'store.db'));
  const { machineId } = await probeAndRecord(db, localProbeDeps, {});
  const runner = new KernelRunner({});
  try {
    for (const t of THREADS) {
      const t0 = Date.now();
      await profileDevice(
        { db, runner, now: () => new Date(), epUnavailable: () => null },
        { machineId, deviceKey: 'cpu', ep: { name: 'cpu', threads: t } },
        { suite: DEFAULT_SUITE },
      );
      notes.push(`profile at ${t} thread(s): ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
  } finally {
    await runner.close();
  }
  return db;
}

const startLoad = os
  .loadavg()
  .map((x) => x.toFixed(1))
  .join(', ');
const notes: string[] = [];
const args = process.argv.slice(2);
/**
 * The decoders whose prefill is timed: set C (runs j-m, and the cold weights of
 * core/workload/cold-weights.ts were found on it) and set F, held out for the prefill: fixed on
 * 2026-11-30 at 12:10 UTC, before any prefill of it ran.
 */
const PREFILL_SETS: readonly Set[] = ['C', 'F'];
const prefillOnly = args.includes('--prefill-only');
const decodeOnly = args.includes('--decode-only');
/** `--sets=G` or `--sets=D,G`: only those sets' decoders (all by default). */
const onlySets = args
  .find((a) => a.startsWith('--sets='))
  ?.slice('--sets='.length)
  .split(',');
const configs = onlySets ? CONFIGS.filter((c) => onlySets.includes(c.set)) : CONFIGS;

/** ONNX Runtime's cells: the profile, the decode steps in both dataflows, set C's prefill; the report's lines. */
async function ortSection(): Promise<string[]> {
  const db = await profiledStore(args.find((a) => !a.startsWith('--')));
  if (!findMachine(db)) throw new Error('no machine in the store');
  // The prefill's prediction is node by node, by a trained predictor (as `pipedejavu train` leaves one).
  trainPredictors(db, ['forest']);
  for (const threads of THREADS) {
    const device = pickDevice(db, 'cpu', threads);
    const chains = loadTrainingData(db, { machineId: device.machineId }).streams.filter(
      (x) => x.device.deviceId === device.deviceId,
    );
    const rates = chains.map((x) => {
      const { B, M, N, K, distinct } = x.shape;
      const what = (B ?? 1) > 1 ? `${B} x ${M} x ${K} x ${N} caches` : `${M} x ${K}^2`;
      return `${what} x ${distinct}: ${(x.bytes / (x.timeUs * 1e3)).toFixed(1)} GB/s`;
    });
    notes.push(`distinct-weight and distinct-cache chains at ${threads} thread(s): ${rates.join('; ') || 'none'}`);
    notes.push(`the read a product does not hide at ${threads} thread(s): ${unhiddenShareText(db, device)}`);
    const cache = cacheReadRates(db, device).map(
      (r) => `${r.gbps.toFixed(1)} GB/s at ${(r.matrixBytes / 2 ** 20).toFixed(0)} MiB`,
    );
    notes.push(
      `grouped attention products over caches from memory at ${threads} thread(s): ${cache.join(', ') || 'not profiled'}`,
    );
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdjv-decode-models-'));
  const runner = new KernelRunner({});
  const rows: string[] = [];
  const errors: { set: Set; dataflow: string; err: number; before: number }[] = [];
  const prefillRows: string[] = [];
  const prefillErrors: PrefillError[] = [];

  /** One decoder's decode step in one dataflow at each thread count: predicted before and after, and run. */
  async function decodeCells(c: Config, dataflow: (typeof DATAFLOWS)[number]): Promise<void> {
    const step = decoderStepModel({ ...c, dataflow });
    const file = path.join(dir, `${c.label.replace(/\W+/g, '_')}-${dataflow}.onnx`);
    writeFileSync(file, step.model);
    for (const threads of THREADS) {
      const device = pickDevice(db, 'cpu', threads);
      const matrixBytes = (step.shape.meanMatrixParams ?? 0) * 4;
      const dev = decodeDevice(db, device, 'fp32', [], matrixBytes);
      const at = { batch: 1, context: c.context, elementBytes: 4 };
      // Before: the cache streamed as bytes; after: the attention priced node by node in its dataflow.
      const before = decodeStep(step.shape, at, dev);
      const attentionUs = profiledAttentionUs(db, device, step.shape, c.context, {
        batch: 1,
        dataflow,
        dtype: 'fp32',
        bandwidthGBps: dev.bandwidthGBps,
      });
      const predicted = decodeStep(step.shape, { ...at, ...(attentionUs === null ? {} : { attentionUs }) }, dev);
      const measured = await medianRunUs(
        runner,
        {
          file,
          inputs: step.inputs,
          threads,
          rule: STEP_RULE,
        },
        `${c.label}, ${dataflow}`,
      );
      if (measured === null) continue;
      const err = predicted.stepUs / measured - 1;
      const errBefore = before.stepUs / measured - 1;
      errors.push({ set: c.set, dataflow, err: Math.abs(err), before: Math.abs(errBefore) });
      rows.push(
        `| ${c.set} | ${c.label} | ${dataflow} | ${threads} | ${(predicted.bytes / 2 ** 20).toFixed(1)} | ${(matrixBytes / 2 ** 20).toFixed(2)} | ${dev.bandwidthGBps.toFixed(1)} | ${(predicted.attentionUs / 1000).toFixed(3)} | ${(measured / 1000).toFixed(3)} | ${(before.stepUs / 1000).toFixed(3)} | ${(errBefore * 100).toFixed(1)}% | ${(predicted.stepUs / 1000).toFixed(3)} | ${(err * 100).toFixed(1)}% | ${os.loadavg()[0]?.toFixed(1)} |`,
      );
    }
  }

  try {
    for (const c of configs) {
      if (!prefillOnly) for (const dataflow of DATAFLOWS) await decodeCells(c, dataflow);
      if (decodeOnly || !PREFILL_SETS.includes(c.set)) continue;
      const p = await prefillCells(db, runner, dir, c, THREADS);
      prefillRows.push(...p.rows);
      prefillErrors.push(...p.errors);
    }
  } finally {
    await runner.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const summary = (set: Set, dataflow: string): string => {
    const of = errors.filter((x) => x.set === set && x.dataflow === dataflow);
    const line = (e: number[]): string =>
      `${e.filter((x) => x <= 0.15).length} of ${e.length} within 15%, median |error| ${(median(e) * 100).toFixed(1)}%`;
    return `set ${set}, ${dataflow}: cache streamed ${line(of.map((x) => x.before))}; attention by node ${line(of.map((x) => x.err))}`;
  };
  return [
    '| set | decoder step | dataflow | threads | MiB moved | MiB per matrix | streamed GB/s | attention ms | measured ms | cache streamed ms | error | attention by node ms | error | load |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    ...CONFIGS.map((c) => c.set)
      .filter((set, i, all) => all.indexOf(set) === i)
      .flatMap((set) => DATAFLOWS.map((d) => summary(set, d))),
    '',
    ...PREFILL_HEADER,
    ...prefillRows,
    '',
    ...PREFILL_SETS.flatMap((set) =>
      prefillSummary(
        prefillErrors.filter((e) => e.set === set),
        THREADS,
      ).map((l) => `set ${set}, ${l}`),
    ),
    '',
  ];
}

const ort = args.includes('--torch-only') ? ['ONNX Runtime: left out (--torch-only)', ''] : await ortSection();
const torchDb = args.find((a) => a.startsWith('--torch-db='))?.slice('--torch-db='.length);
const torch = args.includes('--no-torch')
  ? null
  : await torchSection(configs, THREADS, {
      ...(torchDb ? { db: torchDb } : {}),
      decodeOnly: args.includes('--torch-decode-only'),
    });
process.stdout.write(
  [
    `${new Date().toISOString()}; load average at the start ${startLoad}`,
    '',
    ...ort,
    ...(torch === null
      ? ['torch: left out (--no-torch)']
      : torch.skipped
        ? [torch.skipped]
        : [...TORCH_HEADER, ...torch.rows, '', ...torch.summary, '', ...torch.notes]),
    '',
    ...notes,
  ].join('\n') + '\n',
);
