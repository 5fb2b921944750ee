/**
 * Model checks: what measure-model measured of a whole model against what was predicted for it,
 * per machine, device and thread count. The prediction band's held-out residuals: those measured
 * while the machine ran at its profiled speed (the others are kept, flagged `off_speed`).
 */
import type { Residual } from '../../core/predictor/model-band.js';
import type { Database } from './types.js';

export interface ModelCheck {
  machineId: string;
  deviceKey: string;
  threads: number | null;
  /** The model's content hash, else its name: a model's own checks are left out of its band. */
  model: string;
  label: string;
  predictor: string;
  measuredUs: number;
  predictedUs: number;
  /** The machine's state when measured: its calibration model's time over its profiled time; absent: not read. */
  machineRatio?: number | null;
  /** Measured off the profiled speed: kept, but not one of the band's residuals. */
  offSpeed?: boolean;
}

/** Checks kept per device: the newest; older ones describe an older predictor. */
const MAX_CHECKS_PER_DEVICE = 500;

export class ModelCheckRepo {
  constructor(private readonly db: Database) {}

  add(c: ModelCheck, at = new Date()): void {
    this.db
      .prepare(
        `INSERT INTO model_checks (machine_id, device_key, threads, model, label, predictor, measured_us, predicted_us,
                                   checked_at, machine_ratio, off_speed)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        c.machineId,
        c.deviceKey,
        c.threads,
        c.model,
        c.label,
        c.predictor,
        c.measuredUs,
        c.predictedUs,
        at.toISOString(),
        c.machineRatio ?? null,
        c.offSpeed ? 1 : 0,
      );
  }

  /** The residuals of a device's checks measured at its profiled speed, newest first (at most MAX_CHECKS_PER_DEVICE). */
  residuals(machineId: string, deviceKey: string): Residual[] {
    const rows = this.db
      .prepare(
        `SELECT model, threads, measured_us, predicted_us FROM model_checks
         WHERE machine_id = ? AND device_key = ? AND off_speed = 0 ORDER BY checked_at DESC, id DESC LIMIT ?`,
      )
      .all(machineId, deviceKey, MAX_CHECKS_PER_DEVICE) as {
      model: string;
      threads: number | null;
      measured_us: number;
      predicted_us: number;
    }[];
    return rows.map((r) => ({
      model: r.model,
      threads: r.threads,
      logRatio: Math.log(r.measured_us / r.predicted_us),
      predictedUs: r.predicted_us,
    }));
  }
}
