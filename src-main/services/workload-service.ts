/**
 * Workloads: import an ONNX model or build a catalog model, store it by name, predict
 * its time on a profiled device, and measure it for real on ONNX Runtime.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { UserError } from '../core/errors.js';
import { predictWorkload, type Mode, type WorkloadPrediction } from '../core/workload/predict-workload.js';
import { workloadFromModel } from '../core/workload/from-onnx.js';
import { catalogWorkload, listCatalog } from '../core/catalog/index.js';
import type { Workload } from '../core/workload/types.js';
import type { Dtype } from '../core/domain/measurement.js';
import { readOnnxModel } from '../adapters/files/read-onnx.js';
import { WorkloadRepo } from '../adapters/store/workload-repo.js';
import type { Database } from '../adapters/store/types.js';
import { storedPredictors } from './predictor-service.js';
import { loadTrainingData, type DeviceGroup } from './training-data.js';
import { MachineRepo } from '../adapters/store/machine-repo.js';

export interface WorkloadSpecOptions {
  /** Symbolic dims bound by name: --dim batch=1. */
  dims?: Record<string, number>;
  /** Whole input shapes: --input x=1x3x640x640. */
  inputs?: Record<string, number[]>;
  /** Catalog parameters. */
  batch?: number;
  seq?: number;
  image?: number;
  dtype?: Dtype;
  mode?: Mode;
  name?: string;
}

export interface ResolvedWorkload {
  workload: Workload;
  /** The model file, for ONNX workloads (measure-model runs it). */
  filePath: string | null;
  contentHash: string | null;
}

const looksLikeFile = (spec: string): boolean => /\.onnx$/i.test(spec) || spec.includes('/') || spec.includes(path.sep);

/** A model file, a catalog name, or the name of a stored workload. */
export function resolveWorkload(db: Database, spec: string, opts: WorkloadSpecOptions = {}): ResolvedWorkload {
  if (looksLikeFile(spec)) {
    const { bytes, model } = readOnnxModel(spec);
    const name = opts.name ?? path.basename(spec).replace(/\.onnx$/i, '');
    const workload = workloadFromModel(model, { name, dims: opts.dims ?? {}, inputs: opts.inputs ?? {} });
    return { workload, filePath: path.resolve(spec), contentHash: createHash('sha256').update(bytes).digest('hex') };
  }
  if (listCatalog().some((c) => c.name === spec)) {
    const workload = catalogWorkload(spec, {
      ...(opts.batch !== undefined ? { batch: opts.batch } : {}),
      ...(opts.seq !== undefined ? { seq: opts.seq } : {}),
      ...(opts.image !== undefined ? { image: opts.image } : {}),
      ...(opts.dtype !== undefined ? { dtype: opts.dtype } : {}),
      ...(opts.mode !== undefined ? { mode: opts.mode } : {}),
    });
    return { workload, filePath: null, contentHash: null };
  }
  const stored = new WorkloadRepo(db).get(spec);
  if (stored) return { workload: stored.workload, filePath: stored.filePath, contentHash: stored.contentHash };
  throw new UserError(
    `"${spec}" is neither an .onnx file, a catalog model (${listCatalog()
      .map((c) => c.name)
      .join(', ')}) nor a stored workload (see pipedejavu workload list)`,
  );
}

export function addWorkload(db: Database, file: string, opts: WorkloadSpecOptions = {}): ResolvedWorkload {
  const r = resolveWorkload(db, file, opts);
  if (!r.filePath) throw new UserError(`workload add takes an .onnx file; catalog models need no adding`);
  new WorkloadRepo(db).save(r.workload, r.filePath, r.contentHash);
  return r;
}

/** The profiled device a prediction is made for: this machine's (or a named machine's) device and thread count. */
export function pickDevice(db: Database, device: string, threads?: number, machine?: string): DeviceGroup {
  const { devices } = loadTrainingData(db);
  const machines = new MachineRepo(db).listMachines();
  const machineId = machine
    ? machines.find((m) => m.id === machine || m.label === machine)?.id
    : machines.find((m) => m.source === 'local')?.id;
  if (!machineId)
    throw new UserError(
      machine ? `no machine "${machine}" in the store` : 'no machine recorded yet: run pipedejavu profile',
    );
  const candidates = devices.filter(
    (d) => d.machineId === machineId && d.deviceKey === device && (threads === undefined || d.threads === threads),
  );
  if (!candidates.length) {
    const known = [
      ...new Set(
        devices
          .filter((d) => d.machineId === machineId)
          .map((d) => d.deviceKey + (d.threads ? ` (${d.threads} threads)` : '')),
      ),
    ];
    throw new UserError(
      `device ${device}${threads ? ` at ${threads} threads` : ''} was never profiled${known.length ? `; profiled: ${known.join(', ')}` : '; run pipedejavu profile'}`,
    );
  }
  return candidates.reduce((a, b) => (b.measurements > a.measurements ? b : a));
}

export const PREDICTOR_PREFERENCE = ['forest', 'analytical', 'linear', 'roofline'];

export function predictModel(
  db: Database,
  spec: string,
  opts: WorkloadSpecOptions & { device: string; threads?: number; machine?: string; predictor?: string },
): WorkloadPrediction {
  const { workload } = resolveWorkload(db, spec, opts);
  const device = pickDevice(db, opts.device, opts.threads, opts.machine);
  const predictors = storedPredictors(db);
  if (!predictors.length) throw new UserError('no trained predictor yet: run `pipedejavu train` first');
  const chosen = opts.predictor
    ? predictors.find((p) => p.name === opts.predictor)
    : PREDICTOR_PREFERENCE.map((n) => predictors.find((p) => p.name === n)).find((p) => p !== undefined);
  if (!chosen)
    throw new UserError(`no trained ${opts.predictor} predictor: run pipedejavu train --model ${opts.predictor}`);
  return predictWorkload(workload, chosen.predictor, device.features, opts.mode ?? 'inference');
}
