/**
 * Two profiles that agree (issue 62, item 3). Run: npm run bench:agreement
 *
 * The part of bench:prediction that compares two back-to-back default profiles, alone: two
 * fresh stores each get the default profile of this machine's CPU, each trains its own forest,
 * and the six published models are predicted from both (with and without calibration) at
 * every profiled thread count. No model is timed: this is how far the profile moves a
 * prediction, not how close a prediction lands.
 *
 * AGREE_DBS=a.db,b.db reuses two stores (no profiles); the stores are kept under .tmp/agreement/.
 * AGREE_TRACE_BOUND=1 (with AGREE_DBS) predicts from copies of them with each run's ORT trace cost
 * bounded by its own quickest traced nodes (bench/lib/trace-bound.ts); the stores are left alone.
 * AGREE_REFERENCE_REPLAY=1 (with AGREE_DBS) replays each run's later pass with referenceDrift on
 * copies (bench/lib/reference-replay.ts): a reference read faster than its label beyond the run's
 * spread no longer carries its slow mode into the kernel re-timed. Before the bound, when both are set.
 * Per model, the difference is split by op family (the nodes' own predictions), and the run
 * overhead, so a move is traced to what moved it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KernelRunner } from '../src-main/adapters/ort/kernel-runner.js';
import { openDatabase } from '../src-main/adapters/store/open-database.js';
import type { Database } from '../src-main/adapters/store/types.js';
import { fromNodeUs, type WorkloadPrediction } from '../src-main/core/workload/predict-workload.js';
import { predictModelExecuted } from '../src-main/services/predict/model-prediction-service.js';
import { trainPredictors } from '../src-main/services/predict/predictor-service.js';
import { defaultProfileThreads } from '../src-main/services/profile/device-targets.js';
import { defaultProfile, freshStore, MODELS, modelPath, repeatability } from './lib/bench-profiles.js';
import { replayReferenceDrift, type ReplayedKernel } from './lib/reference-replay.js';
import { boundStoreTraceCost, type BoundedRun } from './lib/trace-bound.js';

const pctOf = (b: number, a: number): string => `${b >= a ? '+' : ''}${((b / a - 1) * 100).toFixed(1)}%`;

/**
 * Per op family, the nodes' predicted µs; the overhead, the Node binding and the rest of the
 * total (terms outside the nodes) as families of their own, so the parts add up to fromNodeUs.
 */
function byFamily(p: WorkloadPrediction): Map<string, number> {
  const out = new Map<string, number>([
    ['(run and node overhead)', p.overheadUs],
    ['(Node binding)', p.binding?.us ?? 0],
  ]);
  let nodes = 0;
  for (const n of p.executed ?? p.nodes) {
    const f = n.family ?? n.opType;
    out.set(f, (out.get(f) ?? 0) + n.timeUs);
    nodes += n.timeUs;
  }
  out.set('(rest of the total)', p.totalUs - p.overheadUs - nodes);
  return out;
}

/** The families whose predictions moved most between two predictions of one model (µs, signed). */
function movers(a: WorkloadPrediction, b: WorkloadPrediction): string {
  const fa = byFamily(a);
  const fb = byFamily(b);
  const keys = new Set([...fa.keys(), ...fb.keys()]);
  const moved = [...keys].map((k) => ({ k, a: fa.get(k) ?? 0, d: (fb.get(k) ?? 0) - (fa.get(k) ?? 0) }));
  moved.sort((x, y) => Math.abs(y.d) - Math.abs(x.d));
  return moved
    .slice(0, 3)
    .map((m) => `${m.k} ${m.d >= 0 ? '+' : ''}${m.d.toFixed(0)} µs of ${m.a.toFixed(0)}`)
    .join(', ');
}

interface Row {
  label: string;
  threads: number;
  firstMs: number;
  secondMs: number;
  bareFirstMs: number;
  bareSecondMs: number;
  movers: string;
}

const work = path.resolve('.tmp/agreement', new Date().toISOString().replace(/[:.]/g, '-'));
mkdirSync(work, { recursive: true });
const threads = defaultProfileThreads(os.cpus().length);
const reuse = process.env['AGREE_DBS']?.split(',');
const bound = reuse !== undefined && process.env['AGREE_TRACE_BOUND'] === '1';
const replay = reuse !== undefined && process.env['AGREE_REFERENCE_REPLAY'] === '1';
const boundRuns: BoundedRun[][] = [];
const replayed: ReplayedKernel[][] = [];
const stores: Database[] = [];
const seconds: number[] = [];
if (reuse)
  for (const f of reuse) {
    const again = replay ? replayReferenceDrift(f) : null;
    if (again) replayed.push(again.moved);
    const copy = bound ? boundStoreTraceCost(again?.file ?? f) : null;
    if (copy) boundRuns.push(copy.runs);
    stores.push(openDatabase(copy?.file ?? again?.file ?? f));
  }
else
  for (let i = 0; i < 2; i++) {
    const s = await freshStore(work);
    seconds.push(await defaultProfile(s.db, s.machineId, threads));
    stores.push(s.db);
  }
const [a, b] = stores as [Database, Database];
for (const db of stores) trainPredictors(db, ['forest']);

const runner = new KernelRunner({});
const rows: Row[] = [];
try {
  for (const t of threads)
    for (const m of MODELS) {
      const predict = (db: Database, calibrate: boolean): Promise<WorkloadPrediction> =>
        predictModelExecuted(db, runner, modelPath(m), {
          inputs: m.inputs,
          device: 'cpu',
          threads: t,
          predictor: 'forest',
          calibrate,
        });
      const [pa, pb, ba, bb] = [
        await predict(a, true),
        await predict(b, true),
        await predict(a, false),
        await predict(b, false),
      ];
      rows.push({
        label: m.label,
        threads: t,
        firstMs: fromNodeUs(pa) / 1000,
        secondMs: fromNodeUs(pb) / 1000,
        bareFirstMs: fromNodeUs(ba) / 1000,
        bareSecondMs: fromNodeUs(bb) / 1000,
        movers: movers(ba, bb),
      });
    }
} finally {
  await runner.close();
}

const worst = (key: 'cal' | 'bare'): string => {
  const devs = rows.map((r) => (key === 'cal' ? r.secondMs / r.firstMs : r.bareSecondMs / r.bareFirstMs) - 1);
  return `${(100 * Math.max(...devs.map(Math.abs))).toFixed(1)}%`;
};
/** The kernels each store's runs re-timed for disagreeing rounds (the runs' summaries). */
const retimed = stores.map((db) =>
  db
    .prepare<[], { s: string | null }>('SELECT summary_json AS s FROM profile_runs')
    .all()
    .map((r) => ((JSON.parse(r.s ?? '{}') as { retimed?: { retimed: unknown[] } }).retimed?.retimed ?? []).length)
    .reduce((x, y) => x + y, 0),
);
const rep = repeatability(a, b);
const lines = [
  `Machine: ${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} vCPUs; load average ${os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(', ')} at the end; ${new Date().toISOString()}`,
  reuse
    ? `Stores: ${reuse.join(', ')}`
    : `Default profiles (threads ${threads.join(',')}): ${seconds.map((s) => `${s.toFixed(1)} s`).join(' then ')}; stores in ${work}`,
  ...(bound
    ? [
        `ORT trace cost per node bounded by each run's quickest traced nodes (chain -> bounded µs, labels re-made): ${boundRuns
          .map((rs) => rs.map((r) => `${r.threads}t ${r.chainUs} -> ${r.boundedUs} (${r.relabelled})`).join(', '))
          .join('; ')}.`,
      ]
    : []),
  ...(replay
    ? [
        `Later pass replayed with referenceDrift (kernel: reference drift, label before -> after): ${replayed
          .map(
            (ks, i) =>
              `store ${i + 1}: ${
                ks.length
                  ? ks
                      .map(
                        (k) =>
                          `${k.kernel} @${k.threads}t x${k.drift.toFixed(2)}, ${k.beforeUs.toFixed(1)} -> ${k.afterUs.toFixed(1)} µs`,
                      )
                      .join('; ')
                  : 'none'
              }`,
          )
          .join('; ')}.`,
      ]
    : []),
  `Kernels: median |ratio - 1| ${(rep.medianDev * 100).toFixed(1)}% over ${rep.kernels} (signed ${(rep.drift * 100).toFixed(1)}%); of 100 µs or more ${(rep.big.medianDev * 100).toFixed(1)}% over ${rep.big.kernels}. Kernels re-timed for disagreeing rounds: ${retimed.join(' and ')}.`,
  '',
  '| model | threads | first ms | second ms | moved | without calibration: first, second, moved | families that moved most (without calibration) |',
  '|---|--:|--:|--:|--:|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.label} | ${r.threads} | ${r.firstMs.toFixed(3)} | ${r.secondMs.toFixed(3)} | ${pctOf(r.secondMs, r.firstMs)} | ${r.bareFirstMs.toFixed(3)}, ${r.bareSecondMs.toFixed(3)}, ${pctOf(r.bareSecondMs, r.bareFirstMs)} | ${r.movers} |`,
  ),
  '',
  `Two profiles: every model within ${worst('cal')} (target 5%); without calibration within ${worst('bare')}.`,
];
const text = lines.join('\n');
console.log(text);
writeFileSync(path.join(work, 'agreement.md'), `${text}\n`);
for (const db of stores) db.close();
