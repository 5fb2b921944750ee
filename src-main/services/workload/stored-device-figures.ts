/**
 * What a profiled device's runs stored beside its measurements and a whole-model prediction
 * reads: the per-run and per-node overhead, and the calibration models' runs, each from the
 * newest run of the device that has it; and what the machine-state probe of measure-model times.
 */
import { z } from 'zod';
import { PROFILED_DTYPES } from '../../core/domain/dtypes.js';
import type { CalibrationRun } from '../../core/workload/calibration.js';
import type { StateReference } from '../../core/profiler/machine-state.js';
import { blasPoolOf, type BlasPool } from '../../core/profiler/blas-pool.js';
import { ProfileRepo, type StoredRun } from '../../adapters/store/profile-repo.js';
import type { Database } from '../../adapters/store/types.js';
import type { DeviceGroup } from '../predict/training-data.js';

const OverheadSchema = z.object({
  runUs: z.number().nonnegative(),
  nodeUs: z.number().nonnegative(),
  profilerNodeUs: z.number().nonnegative().nullable().default(null),
  // Profiles before the binding was measured apart have neither: their runUs holds its per-call cost.
  profilerRunNodeUs: z.number().nonnegative().nullable().default(null),
  binding: z
    .object({
      perCallUs: z.number().nonnegative(),
      nsPerByte: z.number().nonnegative(),
      points: z.array(z.object({ bytes: z.number().nonnegative(), bindingUs: z.number().nonnegative() })),
    })
    .nullable()
    .default(null),
  // Profiles before the pool's wake-up was measured (and 1-thread or GPU profiles) have none.
  wakeUs: z.number().nonnegative().nullable().default(null),
  // Profiles before a parallel node's cost was measured (and 1-thread or GPU profiles) have none.
  parallelOpUs: z.number().nonnegative().nullable().default(null),
  // ONNX Runtime's profiles (and PyTorch's before its chains) have none.
  dispatchUs: z.number().nonnegative().nullable().default(null),
});

export type StoredOverhead = z.infer<typeof OverheadSchema>;

const CalibrationSchema = z.array(
  z.object({
    model: z.string(),
    endToEndUs: z.number().nonnegative(),
    nodes: z.array(
      z.object({
        op: z.string(),
        family: z.string(),
        shape: z.record(z.string(), z.number()),
        dtype: z.enum(PROFILED_DTYPES),
        flops: z.number().nonnegative(),
        bytes: z.number().nonnegative(),
        measuredUs: z.number().nonnegative(),
      }),
    ),
  }),
);

/** The device's calibration runs from its newest profile run that has them; none: []. */
export function deviceCalibration(db: Database, device: DeviceRuns): CalibrationRun[] {
  for (const r of runsOf(db, device)) {
    const parsed = CalibrationSchema.safeParse(r.summary?.['calibration']);
    if (parsed.success) return parsed.data;
  }
  return [];
}

/** The rounds' spread a run stored (round-retime.ts `retimed.threshold`, a fraction). */
const RetimedSchema = z.object({ threshold: z.number().positive() });

/**
 * What the machine-state probe times again (core/profiler/machine-state.ts): the cheapest
 * calibration model of the device's newest run that has them, with that run's rounds' spread;
 * null when no run has calibration models.
 */
export function deviceStateReference(db: Database, device: DeviceRuns): StateReference | null {
  for (const r of runsOf(db, device)) {
    const parsed = CalibrationSchema.safeParse(r.summary?.['calibration']);
    const timed = parsed.success ? parsed.data.filter((c) => c.endToEndUs > 0) : [];
    if (!timed.length) continue;
    const cheapest = timed.reduce((a, b) => (b.endToEndUs < a.endToEndUs ? b : a));
    const spread = RetimedSchema.safeParse(r.summary?.['retimed']);
    return {
      model: cheapest.model,
      endToEndUs: cheapest.endToEndUs,
      roundSpread: spread.success ? spread.data.threshold : null,
    };
  }
  return null;
}

/** What picks a device's profile runs. */
export type DeviceRuns = Pick<DeviceGroup, 'machineId' | 'deviceKey' | 'executionProvider' | 'threads'>;

function runsOf(db: Database, device: DeviceRuns): StoredRun[] {
  return new ProfileRepo(db)
    .listRuns(device.machineId)
    .filter(
      (r) =>
        r.deviceKey === device.deviceKey &&
        r.executionProvider === device.executionProvider &&
        r.threads === device.threads,
    );
}

/** The device's per-run and per-node overhead from its newest profile run that measured it, or null. */
export function deviceOverhead(db: Database, device: DeviceRuns): StoredOverhead | null {
  for (const r of runsOf(db, device)) {
    const parsed = OverheadSchema.safeParse(r.summary?.['overhead']);
    if (parsed.success) return parsed.data;
  }
  return null;
}

/** The BLAS pool PyTorch's runner reported in the device's newest run that has one (core/profiler/blas-pool.ts), or null. */
export function deviceBlasPool(db: Database, device: DeviceRuns): BlasPool | null {
  for (const r of runsOf(db, device)) {
    const pool = blasPoolOf(r.summary?.['blas']);
    if (pool) return pool;
  }
  return null;
}
