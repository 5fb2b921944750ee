/**
 * A stored profile's later pass replayed with referenceDrift (src-main/core/profiler/round-agreement.ts),
 * on a copy: what bench:agreement reads with AGREE_REFERENCE_REPLAY=1, to show what the rule does to
 * two stores already profiled, without timing anything again.
 *
 * A run stores each re-timed kernel's rounds, later timing and the reference's drift (the geometric
 * mean of its two readings, not the readings): where that drift is faster than the reference's
 * label by more than the run's spread, the kernel's label is made again from its rounds and its
 * later timing taken as timed (keptMode, with the same 1-thread ceiling the profiler uses). A
 * reading of each side apart, as the live profiler has them, can differ where one reading was
 * fast and the other not; the stores do not keep that. Only median_us and the run's record move.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src-main/adapters/store/open-database.js';
import type { Dtype } from '../../src-main/core/domain/measurement.js';
import { makeKernel } from '../../src-main/core/kernels/cost.js';
import type { KernelOp } from '../../src-main/core/kernels/types.js';
import { keptMode, oneThreadCeiling, referenceDrift } from '../../src-main/core/profiler/round-agreement.js';
import { chainCopies } from '../../src-main/services/profile/kernel-timing.js';
import type { RetimedKernels } from '../../src-main/services/profile/round-retime.js';

/** One kernel whose label the replay made again (µs). */
export interface ReplayedKernel {
  threads: number;
  kernel: string;
  drift: number;
  beforeUs: number;
  afterUs: number;
}

interface Row {
  id: number;
  op: string;
  dtype: string;
  shape: string;
  key: string;
}

/** Copies the store's folder and replays each run's later pass there; the copy's bench.db and what moved. */
export function replayReferenceDrift(dbFile: string): { file: string; moved: ReplayedKernel[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdjv-reference-replay-'));
  cpSync(path.dirname(dbFile), dir, { recursive: true });
  const file = path.join(dir, path.basename(dbFile));
  const db = openDatabase(file);
  const moved: ReplayedKernel[] = [];
  try {
    const runs = db
      .prepare<[], { id: string; threads: number; s: string | null }>(
        "SELECT id, threads, summary_json AS s FROM profile_runs WHERE json_extract(summary_json, '$.retimed') IS NOT NULL",
      )
      .all();
    const rows = db.prepare<[string], Row>(
      "SELECT id, op, dtype, shape_json AS shape, shape_key AS key FROM measurements WHERE run_id = ? AND source = 'profile'",
    );
    const oneThread = db.prepare<[string, string, string], { us: number }>(
      "SELECT median_us AS us FROM measurements WHERE source = 'profile' AND threads = 1 AND op = ? AND shape_key = ? AND dtype = ?",
    );
    const update = db.prepare<[number, number]>('UPDATE measurements SET median_us = ? WHERE id = ?');
    for (const run of runs) {
      const summary = JSON.parse(run.s ?? '{}') as { retimed: RetimedKernels };
      const r = summary.retimed;
      const specs = new Map(
        rows.all(run.id).map((row) => {
          const spec = makeKernel(
            row.op as KernelOp,
            row.dtype as Dtype,
            JSON.parse(row.shape) as Record<string, number>,
          );
          return [spec.id, { row, spec }] as const;
        }),
      );
      for (const k of r.retimed) {
        const at = specs.get(k.kernel);
        if (!at || k.laterUs === null || k.referenceDrift === null) continue;
        const drift = referenceDrift(k.referenceDrift, k.referenceDrift, r.threshold) as number;
        if (Math.abs(drift - k.referenceDrift) < 1e-9) continue;
        const one = run.threads > 1 ? oneThread.get(at.row.op, at.row.key, at.row.dtype)?.us : undefined;
        const mode = keptMode(
          [...k.roundsUs, k.laterUs / drift],
          r.threshold,
          chainCopies(at.spec) > 1,
          oneThreadCeiling(one, r.threshold),
        );
        update.run(mode.us, at.row.id);
        moved.push({
          threads: run.threads,
          kernel: k.kernel,
          drift: k.referenceDrift,
          beforeUs: k.keptUs,
          afterUs: mode.us,
        });
        Object.assign(k, { referenceDrift: drift, keptUs: mode.us, kept: mode.kept, settled: mode.settled });
      }
      db.prepare<[string, string]>('UPDATE profile_runs SET summary_json = ? WHERE id = ?').run(
        JSON.stringify(summary),
        run.id,
      );
    }
    db.prepare('DELETE FROM predictors').run();
  } finally {
    db.close();
  }
  return { file, moved };
}
