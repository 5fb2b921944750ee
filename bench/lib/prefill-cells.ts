/**
 * bench:decode's prefill cells: a prompt of P tokens through a decoder of bench/lib/decoder-configs.ts
 * (test/helpers/decoder-prefill-model.ts), predicted two ways from the same profile and run on ONNX
 * Runtime's CPU EP with profiling off (the median of the unprofiled runs):
 * - catalog: the time to first token `predict-model DECODER --mode generate` prints (predictPrefill:
 *   the catalog's kernels for the decoder at the profile's rates, per-node and per-run costs);
 * - file: `predict-model FILE` on the very graph that runs (ONNX Runtime's executed graph), as
 *   Node times it, with its 90% band.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KernelRunner } from '../../src-main/adapters/ort/kernel-runner.js';
import type { Database } from '../../src-main/adapters/store/types.js';
import { median } from '../../src-main/core/profiler/timing-stats.js';
import { fromNodeUs } from '../../src-main/core/workload/predict-workload.js';
import { decoderEntry, predictPrefill } from '../../src-main/services/predict/generation-service.js';
import { predictModelExecuted } from '../../src-main/services/predict/model-prediction-service.js';
import { coldWeightsOn } from '../../src-main/services/predict/stream-rate.js';
import type { DeviceGroup } from '../../src-main/services/predict/training-data.js';
import { pickDevice } from '../../src-main/services/workload/workload-service.js';
import { decoderPrefillModel } from '../../test/helpers/decoder-prefill-model.js';
import type { Config, Set } from './decoder-configs.js';
import { medianRunUs } from './median-run.js';

/** A prompt's timing: at least 7 runs after 2 warm-ups (a 512-token prompt takes seconds on a loaded host). */
const PREFILL_RULE = { warmupRuns: 2, minRepetitions: 7, maxRepetitions: 200, targetCi: 0.02, budgetMs: 3000 };

/** Prompt lengths, fixed before the first prefill run and not tuned on. */
export const PREFILL_PROMPTS = [32, 128, 512];

export const PREFILL_HEADER = [
  '| set | decoder | prompt | threads | measured ms | catalog ms | catalog error | file ms | file error | read hidden (a floor only): catalog / file error | weights in cache: catalog / file error | file 90% band | load |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

export interface PrefillError {
  set: Set;
  prompt: number;
  threads: number;
  catalog: number;
  file: number;
  /** The errors with every weight priced in cache (before cold-weights.ts). */
  catalogWarm: number;
  fileWarm: number;
  /** The errors with the read a floor only (before the profile measured what a product hides). */
  catalogFloor: number;
  fileFloor: number;
}

const ms = (us: number): string => (us / 1000).toFixed(3);

/** The share of a weight's read a 32-row product does not hide, at the weight sizes the profile measured it (stream-rate.ts). */
export function unhiddenShareText(db: Database, device: DeviceGroup): string {
  const share = coldWeightsOn(db, device, 'inference')?.unhiddenShare;
  return share ? [4, 16].map((m) => `${m} MiB ${share(m * 2 ** 20).toFixed(2)}`).join(', ') : 'not measured';
}
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** One decoder's prompts at each thread count: a table row per cell, and its errors. */
export async function prefillCells(
  db: Database,
  runner: KernelRunner,
  dir: string,
  c: Config,
  threadCounts: readonly number[],
): Promise<{ rows: string[]; errors: PrefillError[] }> {
  const rows: string[] = [];
  const errors: PrefillError[] = [];
  for (const prompt of PREFILL_PROMPTS) {
    const m = decoderPrefillModel({ ...c, prompt });
    const file = path.join(dir, `${c.label.replace(/\W+/g, '_')}-prefill-${prompt}.onnx`);
    writeFileSync(file, m.model);
    for (const threads of threadCounts) {
      const device = pickDevice(db, 'cpu', threads);
      const entry = decoderEntry(m.entry.name, m.entry);
      const catalog = predictPrefill(db, entry, { prompt, batch: 1, dtype: 'fp32' }, device);
      const fileOpts = { inputs: { input_ids: [1, prompt] }, device: 'cpu', threads };
      const onFile = await predictModelExecuted(db, runner, file, fileOpts);
      // Before core/workload/cold-weights.ts: every weight priced in cache, as profiled.
      const catalogWarm = predictPrefill(db, entry, { prompt, batch: 1, dtype: 'fp32', coldWeights: false }, device);
      const fileWarm = await predictModelExecuted(db, runner, file, { ...fileOpts, coldWeights: false });
      const floorOnly = { prompt, batch: 1, dtype: 'fp32', coldWeights: 'floor' } as const;
      const catalogFloor = predictPrefill(db, entry, floorOnly, device);
      const fileFloor = await predictModelExecuted(db, runner, file, { ...fileOpts, coldWeights: 'floor' });
      const measured = await medianRunUs(
        runner,
        {
          file,
          inputs: m.inputs,
          threads,
          rule: PREFILL_RULE,
        },
        `${c.label}, prefill ${prompt}`,
      );
      if (measured === null) continue;
      const fileUs = fromNodeUs(onFile);
      const e = {
        set: c.set,
        prompt,
        threads,
        catalog: catalog.ttftUs / measured - 1,
        file: fileUs / measured - 1,
        catalogWarm: catalogWarm.ttftUs / measured - 1,
        fileWarm: fromNodeUs(fileWarm) / measured - 1,
        catalogFloor: catalogFloor.ttftUs / measured - 1,
        fileFloor: fromNodeUs(fileFloor) / measured - 1,
      };
      errors.push(e);
      const band = onFile.band90 ? `${ms(onFile.band90.lowUs)}-${ms(onFile.band90.highUs)}` : 'none';
      rows.push(
        `| ${c.set} | ${c.label} | ${prompt} | ${threads} | ${ms(measured)} | ${ms(catalog.ttftUs)} | ${pct(e.catalog)} | ${ms(fileUs)} | ${pct(e.file)} | ${pct(e.catalogFloor)} / ${pct(e.fileFloor)} | ${pct(e.catalogWarm)} / ${pct(e.fileWarm)} | ${band} | ${os.loadavg()[0]?.toFixed(1)} |`,
      );
    }
  }
  return { rows, errors };
}

/** Per thread count: how many cells each prediction put within 15%, and the median |error|. */
export function prefillSummary(errors: readonly PrefillError[], threadCounts: readonly number[]): string[] {
  return threadCounts.map((t) => {
    const of = errors.filter((x) => x.threads === t);
    const line = (e: number[]): string =>
      `${e.filter((x) => x <= 0.15).length} of ${e.length} within 15%, median |error| ${pct(median(e))}`;
    const abs = (f: (x: PrefillError) => number): number[] => of.map((x) => Math.abs(f(x)));
    return `prefill at ${t} thread(s): catalog ${line(abs((x) => x.catalog))}; file ${line(abs((x) => x.file))}; read hidden: catalog ${line(abs((x) => x.catalogFloor))}, file ${line(abs((x) => x.fileFloor))}; weights in cache: catalog ${line(abs((x) => x.catalogWarm))}, file ${line(abs((x) => x.fileWarm))}`;
  });
}
