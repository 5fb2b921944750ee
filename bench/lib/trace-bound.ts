/**
 * A stored profile with the ORT trace's per-node cost bounded by its own quickest traced nodes
 * (src-main/core/profiler/trace-cost.ts), on a copy: what bench:agreement reads with
 * AGREE_TRACE_BOUND=1, to show what the bound does to two stores already profiled, without
 * timing anything again.
 *
 * The store keeps labels, not trace readings: a label is read back as a one-node trace reading
 * (traceReadingUs) and counted as traced where that reading is whole or half microseconds
 * (isWholeTraceReading); chained labels are not. A label of a kernel of several nodes is read as
 * one node: its move is one node's, not its count's. Only median_us is re-made.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src-main/adapters/store/open-database.js';
import {
  boundedTraceNodeUs,
  isWholeTraceReading,
  retracedLabelUs,
  traceReadingUs,
} from '../../src-main/core/profiler/trace-cost.js';

interface StoredOverhead {
  nodeUs: number;
  profilerNodeUs: number | null;
}

/** One profile run's trace cost, as profiled and as bounded (µs). */
export interface BoundedRun {
  threads: number;
  chainUs: number | null;
  boundedUs: number | null;
  relabelled: number;
}

/** Copies the store's folder, bounds each profile run's trace cost there; the copy's bench.db and what moved. */
export function boundStoreTraceCost(dbFile: string): { file: string; runs: BoundedRun[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdjv-trace-bound-'));
  cpSync(path.dirname(dbFile), dir, { recursive: true });
  const file = path.join(dir, path.basename(dbFile));
  const db = openDatabase(file);
  const runs: BoundedRun[] = [];
  try {
    const profiled = db
      .prepare<[], { id: string; threads: number; s: string | null }>(
        'SELECT id, threads, summary_json AS s FROM profile_runs WHERE summary_json IS NOT NULL',
      )
      .all();
    for (const run of profiled) {
      const summary = JSON.parse(run.s ?? '{}') as { overhead?: StoredOverhead | null };
      const o = summary.overhead;
      if (!o || o.profilerNodeUs === null) continue;
      const rows = db
        .prepare<[string], { id: number; medianUs: number }>(
          "SELECT id, median_us AS medianUs FROM measurements WHERE run_id = ? AND source = 'profile'",
        )
        .all(run.id)
        .filter((r) => isWholeTraceReading(traceReadingUs(r.medianUs, 1, o)));
      const bounded = boundedTraceNodeUs(
        o.profilerNodeUs,
        rows.map((r) => traceReadingUs(r.medianUs, 1, o)),
      );
      const update = db.prepare<[number, number]>('UPDATE measurements SET median_us = ? WHERE id = ?');
      for (const r of rows) update.run(retracedLabelUs(r.medianUs, 1, o, bounded), r.id);
      summary.overhead = { ...o, profilerNodeUs: bounded };
      db.prepare<[string, string]>('UPDATE profile_runs SET summary_json = ? WHERE id = ?').run(
        JSON.stringify(summary),
        run.id,
      );
      runs.push({ threads: run.threads, chainUs: o.profilerNodeUs, boundedUs: bounded, relabelled: rows.length });
    }
    db.prepare('DELETE FROM predictors').run();
  } finally {
    db.close();
  }
  return { file, runs };
}
