/**
 * What a profiled device's runs stored beside its measurements and a whole-model prediction
 * reads: the per-run and per-node overhead, and the calibration models' runs, each from the
 * newest run of the device that has it.
 */
import { z } from 'zod';
import { PROFILED_DTYPES } from '../../core/domain/dtypes.js';
import type { CalibrationRun } from '../../core/workload/calibration.js';
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
