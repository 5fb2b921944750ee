/**
 * bench:decode's torch cells: the decode check's decoders (decoder-configs.ts) as eager PyTorch
 * (torch-decoder.ts), predicted from a torch-cpu profile the way a user with only that profile
 * gets them, and timed unprofiled.
 *
 * 1. This machine's CPU profiled with the PyTorch backend (the default suite, overhead chains
 *    included: torch's eager dispatch per op) at each thread count, into a store of its own, so
 *    `pickDevice(db, 'cpu', t)` finds the torch-cpu device as `predict-model` does there.
 * 2. The decode step: the decode model (core/workload/generation.ts) from that profile's
 *    streaming bandwidth, fp32 peak, per-run cost and dispatch per op times the torch step's ops.
 * 3. The prefill (set C, prompts of 32 and 128 tokens, 3 runs each): the time to first token
 *    `predict-model --mode generate` prints (predictPrefill), node by node from the torch kernels
 *    (each an eager call, dispatch inside).
 * 4. Each measured by the script in a child: the decode step and each prompt, at each thread count.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KernelRunner } from '../../src-main/adapters/ort/kernel-runner.js';
import { openDatabase } from '../../src-main/adapters/store/open-database.js';
import { TorchRunner } from '../../src-main/adapters/torch/torch-runner.js';
import type { Database } from '../../src-main/adapters/store/types.js';
import { median } from '../../src-main/core/profiler/timing-stats.js';
import { decodeStep } from '../../src-main/core/workload/generation.js';
import { profiledAttentionUs } from '../../src-main/services/predict/decode-attention-time.js';
import { localProbeDeps } from '../../src-main/services/machine/local-probe.js';
import { probeAndRecord } from '../../src-main/services/machine/machine-service.js';
import { decodeBandwidthGBps, type ColdWeightsOption } from '../../src-main/services/predict/stream-rate.js';
import { decodeDevice, decoderEntry, predictPrefill } from '../../src-main/services/predict/generation-service.js';
import { trainPredictors } from '../../src-main/services/predict/predictor-service.js';
import { DEFAULT_SUITE } from '../../src-main/services/profile/device-targets.js';
import { profileDevice } from '../../src-main/services/profile/profiler-service.js';
import { deviceOverhead } from '../../src-main/services/workload/stored-device-figures.js';
import { pickDevice } from '../../src-main/services/workload/workload-service.js';
import { prefillEntry } from '../../test/helpers/decoder-prefill-model.js';
import type { Config } from './decoder-configs.js';
import { unhiddenShareText } from './prefill-cells.js';
import { runTorchDecoder, torchStepShape, type TorchCell } from './torch-decoder.js';

export const TORCH_HEADER = [
  '| engine | set | decoder | kind | tokens | threads | measured ms | predicted ms | error | read hidden: ms, error | load |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

/** The torch rows, their summary lines and notes; `skipped` is the one line when torch could not run. */
export interface TorchSection {
  rows: string[];
  summary: string[];
  notes: string[];
  skipped: string | null;
}

/** A fresh store with this machine's CPU profiled by the PyTorch backend at each thread count; null and why when it cannot. */
async function torchProfile(threads: readonly number[], notes: string[], given?: string): Promise<Database | string> {
  if (given) return openDatabase(given);
  const db = openDatabase(path.join(mkdtempSync(path.join(os.tmpdir(), 'pdjv-decode-torch-')), 'store.db'));
  const { machineId } = await probeAndRecord(db, localProbeDeps, {});
  const runner = new KernelRunner({});
  const torch = new TorchRunner({});
  try {
    for (const t of threads) {
      const t0 = Date.now();
      const r = await profileDevice(
        { db, runner, torch, now: () => new Date(), epUnavailable: () => null },
        { machineId, deviceKey: 'cpu', ep: { name: 'torch-cpu', threads: t } },
        { suite: DEFAULT_SUITE },
      );
      if (r.status === 'unavailable') return `torch: skipped (${r.notes.join('; ')})`;
      const load = os.loadavg()[0]?.toFixed(1);
      notes.push(
        `torch-cpu profile at ${t} thread(s): ${((Date.now() - t0) / 1000).toFixed(0)} s, ${r.status}, load ${load} at its end`,
      );
    }
  } finally {
    await torch.close();
    await runner.close();
  }
  trainPredictors(db, ['forest']);
  return db;
}

/** A decode step: 30 runs or more (3 s) after 3 warm-ups. */
const DECODE_RUNS = { warmupRuns: 3, minRuns: 30, budgetMs: 3000 };

/**
 * Torch's prefill: 3 runs after 1 warm-up, prompts of 32 and 128 tokens. Debian's torch multiplies
 * through the reference BLAS at a few GFLOP/s: a 128-token prompt of set C took 3.7-8.6 s a run at
 * load 9.5, a 512-token one tens of seconds (ONNX Runtime's prefill cells keep 512).
 */
const PREFILL_RUNS = { warmupRuns: 1, minRuns: 3, budgetMs: 0 };
const TORCH_PREFILL_PROMPTS = [32, 128];

const ms = (us: number): string => (us / 1000).toFixed(3);

/**
 * Predicted µs of one measured cell, from the torch-cpu profile at its thread count; a prompt's
 * weights read from memory as the profile measured them, or (`coldWeights: 'floor'`) as a floor only.
 */
function predictedUs(db: Database, c: Config, cell: TorchCell, coldWeights: ColdWeightsOption = true): number {
  const device = pickDevice(db, 'cpu', cell.threads);
  if (cell.kind === 'prefill') {
    const entry = prefillEntry({ ...c, prompt: cell.tokens }, 'rmsnorm');
    const p = { prompt: cell.tokens, batch: 1, dtype: 'fp32', coldWeights } as const;
    return predictPrefill(db, decoderEntry(entry.name, entry), p, device).ttftUs;
  }
  const shape = torchStepShape(c);
  const dev = decodeDevice(db, device, 'fp32', [], (shape.meanMatrixParams ?? 0) * 4);
  // The torch decoder reads its cache in place, as the ONNX 'read-once' step does.
  const at = { batch: 1, dataflow: 'read-once', dtype: 'fp32', bandwidthGBps: dev.bandwidthGBps } as const;
  const attentionUs = profiledAttentionUs(db, device, shape, c.context, at);
  const step = { batch: 1, context: c.context, elementBytes: 4, ...(attentionUs === null ? {} : { attentionUs }) };
  return decodeStep(shape, step, dev).stepUs;
}

/** Every decoder's decode step (and set C's prompts) on eager PyTorch at each thread count: predicted and measured. */
export async function torchSection(
  configs: readonly Config[],
  threads: readonly number[],
  /** A store the PyTorch backend profiled already (`--torch-db`); decode steps only (`--torch-decode-only`). */
  opts: { db?: string; decodeOnly?: boolean } = {},
): Promise<TorchSection> {
  const out: TorchSection = { rows: [], summary: [], notes: [], skipped: null };
  const profiled = await torchProfile(threads, out.notes, opts.db);
  if (typeof profiled === 'string') return { ...out, skipped: profiled };
  const db = profiled;
  for (const t of threads) {
    const device = pickDevice(db, 'cpu', t);
    const o = deviceOverhead(db, device);
    const gbps = decodeBandwidthGBps(db, device);
    out.notes.push(
      `torch-cpu at ${t} thread(s): streaming ${gbps?.toFixed(1) ?? 'not measured'} GB/s (median over sizes), fp32 peak ${device.features.peakGflops.fp32?.toFixed(0) ?? '?'} GFLOP/s`,
    );
    out.notes.push(
      `torch-cpu at ${t} thread(s): eager dispatch ${o?.dispatchUs?.toFixed(2) ?? 'not measured'} µs per op`,
    );
    out.notes.push(`torch-cpu at ${t} thread(s): the read a product does not hide: ${unhiddenShareText(db, device)}`);
  }
  const errors: { kind: string; threads: number; err: number }[] = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdjv-decode-torch-scripts-'));
  try {
    for (const c of configs) {
      const decode = { ...DECODE_RUNS, config: c, threads: [...threads], prompts: [], decode: true };
      const prefill = {
        ...PREFILL_RUNS,
        config: c,
        threads: [...threads],
        prompts: TORCH_PREFILL_PROMPTS,
        decode: false,
      };
      const jobs = c.set === 'C' && !opts.decodeOnly ? [decode, prefill] : [decode];
      const cells: TorchCell[] = [];
      let version = '';
      for (const job of jobs) {
        const r = await runTorchDecoder(job, { dir, timeoutMs: 900_000 });
        if (!r.ok) {
          if (!out.rows.length && !cells.length) return { ...out, skipped: r.line };
          out.notes.push(`${c.label}: ${r.line}`);
          continue;
        }
        version = r.torch;
        cells.push(...r.cells);
      }
      for (const cell of cells) {
        const predicted = predictedUs(db, c, cell);
        const err = predicted / cell.medianUs - 1;
        errors.push({ kind: cell.kind, threads: cell.threads, err: Math.abs(err) });
        const floor = cell.kind === 'prefill' ? predictedUs(db, c, cell, 'floor') : null;
        const hidden = floor === null ? '-' : `${ms(floor)}, ${((floor / cell.medianUs - 1) * 100).toFixed(1)}%`;
        const row = `| torch ${version} | ${c.set} | ${c.label} | ${cell.kind} | ${cell.tokens} | ${cell.threads} | ${ms(cell.medianUs)} (${cell.runs} runs) | ${ms(predicted)} | ${(err * 100).toFixed(1)}% | ${hidden} | ${os.loadavg()[0]?.toFixed(1)} |`;
        process.stderr.write(`${row}\n`);
        out.rows.push(row);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const kind of ['decode', 'prefill'])
    for (const t of threads) {
      const e = errors.filter((x) => x.kind === kind && x.threads === t).map((x) => x.err);
      if (e.length)
        out.summary.push(
          `torch ${kind} at ${t} thread(s): ${e.filter((x) => x <= 0.15).length} of ${e.length} within 15%, median |error| ${(median(e) * 100).toFixed(1)}%`,
        );
    }
  return out;
}
