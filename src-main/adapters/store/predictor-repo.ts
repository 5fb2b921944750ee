/**
 * Trained predictors with their training-set description and evaluation report.
 * The most recently stored of each name, per machine, is the one in use; older ones stay
 * for comparison.
 */
import { z } from 'zod';
import { StoredPredictorSchema, type StoredPredictor } from '../../core/profile-file/schema.js';
import { StoreError } from './errors.js';
import { toJson, toJsonOrNull } from './json.js';
import type { Database } from './types.js';

interface PredictorRow {
  id: number;
  machine_id: string | null;
  name: string;
  version: string;
  kind: string;
  trained_at: string;
  training_set_json: string;
  report_json: string | null;
  predictor_json: string;
}

export type StoredPredictorRow = StoredPredictor & { id: number; machineId: string | null };

const JsonObject = z.record(z.string(), z.unknown());

function toStored(row: PredictorRow): StoredPredictorRow {
  const parsed = StoredPredictorSchema.safeParse({
    name: row.name,
    version: Number(row.version),
    kind: row.kind,
    trainedAt: row.trained_at,
    trainingSet: safeJson(row.training_set_json),
    report: row.report_json === null ? null : safeJson(row.report_json),
    model: safeJson(row.predictor_json),
  });
  if (!parsed.success) {
    throw new StoreError(
      'corrupt-row',
      `stored predictor #${row.id} (${row.name}) is corrupt: ${parsed.error.issues[0]?.message ?? ''}; retrain with pipedejavu train`,
    );
  }
  return { ...parsed.data, id: row.id, machineId: row.machine_id };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export class PredictorRepo {
  constructor(private readonly db: Database) {}

  insert(machineId: string | null, p: StoredPredictor): number {
    const v = StoredPredictorSchema.parse(p);
    JsonObject.parse(v.model);
    const info = this.db
      .prepare(
        `INSERT INTO predictors (machine_id, name, version, kind, trained_at, training_set_json, report_json, predictor_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        machineId,
        v.name,
        String(v.version),
        v.kind,
        v.trainedAt,
        toJson(v.trainingSet),
        toJsonOrNull(v.report),
        toJson(v.model),
      );
    return Number(info.lastInsertRowid);
  }

  /**
   * The predictors in use for `machineId` (the machine they were trained on; null for
   * those trained before any machine was probed): the most recently stored of each name.
   * Store order, not the `trainedAt` a file claims, decides: an imported file cannot
   * outrank what `train` stores later, and it never applies to another machine.
   */
  inUse(machineId: string | null): StoredPredictorRow[] {
    return this.db
      .prepare<[string | null, string | null], PredictorRow>(
        `SELECT p.* FROM predictors p
         WHERE p.machine_id IS ?
           AND p.id = (SELECT max(q.id) FROM predictors q WHERE q.name = p.name AND q.machine_id IS ?)
         ORDER BY p.name`,
      )
      .all(machineId, machineId)
      .map(toStored);
  }

  /** Attaches a report to a stored predictor (evaluation runs after training). */
  setReport(id: number, report: Record<string, unknown>): void {
    this.db.prepare('UPDATE predictors SET report_json = ? WHERE id = ?').run(toJson(report), id);
  }

  listForMachine(machineId: string): StoredPredictorRow[] {
    return this.db
      .prepare<[string], PredictorRow>('SELECT * FROM predictors WHERE machine_id = ? ORDER BY trained_at, id')
      .all(machineId)
      .map(toStored);
  }
}
