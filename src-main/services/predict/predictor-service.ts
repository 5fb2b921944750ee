/**
 * Training, storing and using execution-time predictors. Training reads every stored
 * measurement (this machine's and imported ones); each trained predictor is stored
 * with a description of its training set under this machine, and the most recently
 * stored of each name trained here is used (never an imported machine's).
 */
import { quoted } from '../../core/text/shown.js';
import { physicalDeviceCount, type MachineDeviceId } from '../../core/domain/device-id.js';
import { UserError, errorMessage } from '../../core/errors.js';
import type { Dtype } from '../../core/domain/measurement.js';
import { makeKernel } from '../../core/kernels/cost.js';
import { KERNEL_OPS, OP_DIMS, OP_DTYPES, type KernelOp, type KernelSpec } from '../../core/kernels/types.js';
import { AnchoredPredictor, anchorIndex, type AnchorIndex } from '../../core/predictor/measured-anchors.js';
import {
  PREDICTOR_NAMES,
  createPredictor,
  isPredictorName,
  loadPredictor,
  type PredictorName,
} from '../../core/predictor/registry.js';
import { PREDICTOR_PREFERENCE } from '../../core/predictor/predictor-names.js';
import type { Prediction, Predictor, Sample } from '../../core/predictor/types.js';
import { localMachineId } from '../machine/machine-service.js';
import { PredictorRepo, type StoredPredictorRow } from '../../adapters/store/predictor-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { findProfiledDevice } from './profiled-device.js';
import { loadTrainingData, type DeviceGroup } from './training-data.js';
import { count } from '../../core/text/plural.js';

export interface TrainedSummary {
  name: string;
  id: number;
  samples: number;
  /** Devices measured (a CPU at two thread counts is one). */
  devices: number;
  families: string[];
  trainMs: number;
}

function describeTrainingSet(samples: readonly Sample[], devices: readonly DeviceGroup[]): Record<string, unknown> {
  return {
    samples: samples.length,
    devices: devices.map((d) => ({
      id: d.deviceId,
      machine: d.machineLabel,
      device: d.deviceKey,
      ep: d.executionProvider,
      threads: d.threads,
      measurements: d.measurements,
    })),
    families: [...new Set(samples.map((s) => s.family))].sort(),
    ops: [...new Set(samples.map((s) => s.op))].sort(),
  };
}

export function trainPredictors(
  db: Database,
  names: readonly PredictorName[],
  now: () => Date = () => new Date(),
): TrainedSummary[] {
  const { samples, devices } = loadTrainingData(db);
  if (samples.length < 10) {
    throw new UserError(
      `only ${count(samples.length, 'measurement')} in the store; run \`pipedejavu profile --suite quick\` first`,
    );
  }
  const repo = new PredictorRepo(db);
  const machineId = localMachineId(db);
  const trainingSet = describeTrainingSet(samples, devices);
  // A kernel its profile could not pin down (cv above NOISY_CV) is left out of the fit while
  // enough others remain: a leaf of two rows follows one slow-mode timing all the way.
  const clean = samples.filter((s) => !s.noisy);
  const rows = clean.length >= 10 ? clean : samples;
  return names.map((name) => {
    const p = createPredictor(name);
    const t = performance.now();
    p.train(rows);
    const trainMs = performance.now() - t;
    const id = repo.insert(machineId, {
      name: p.name,
      version: p.version,
      kind: name,
      trainedAt: now().toISOString(),
      trainingSet: { ...trainingSet, trainMs },
      report: null,
      model: p.toJSON(),
    });
    return {
      name,
      id,
      samples: samples.length,
      devices: physicalDeviceCount(devices.map((d) => d.deviceId)),
      families: trainingSet.families as string[],
      trainMs,
    };
  });
}

/**
 * The stored predictors in use on this machine: those trained here (not an imported
 * machine's), the most recently stored of each name.
 */
export function predictorRowsInUse(db: Database): StoredPredictorRow[] {
  return new PredictorRepo(db).inUse(localMachineId(db));
}

/** A stored predictor read back and ready to predict (the stored record is core/profile-file StoredPredictor). */
export interface LoadedPredictor {
  name: string;
  predictor: Predictor;
  trainedAt: string;
}

/** A stored predictor, loaded; a corrupt or outdated one is an error naming it. */
function loadRow(r: StoredPredictorRow): LoadedPredictor {
  try {
    return { name: r.name, predictor: loadPredictor(r.name, r.model), trainedAt: r.trainedAt };
  } catch (e) {
    throw new UserError(
      `the stored ${r.name} predictor (trained ${r.trainedAt}) cannot be loaded: ${errorMessage(e)}; run pipedejavu train`,
    );
  }
}

/** The rows that load, and a message for each one that does not (corrupt, or from another version). */
function loadReadable(rows: readonly StoredPredictorRow[]): { loaded: LoadedPredictor[]; unreadable: string[] } {
  const loaded: LoadedPredictor[] = [];
  const unreadable: string[] = [];
  for (const r of rows) {
    try {
      loaded.push(loadRow(r));
    } catch (e) {
      unreadable.push(errorMessage(e));
    }
  }
  return { loaded, unreadable };
}

/** The predictors in use, loaded; a corrupt one is an error naming it. */
export function storedPredictors(db: Database): LoadedPredictor[] {
  return predictorRowsInUse(db).map(loadRow);
}

/** The named predictor in use, loaded (the others are not read, so an outdated one is no obstacle); null if none. */
export function storedPredictorNamed(db: Database, name: string): LoadedPredictor | null {
  const row = predictorRowsInUse(db).find((r) => r.name === name);
  return row ? loadRow(row) : null;
}

/**
 * The named predictor in use, or the most accurate kind trained (see PREDICTOR_PREFERENCE).
 * Only the chosen one is loaded: a stored linear predictor from an older version does not stop
 * `--predictor forest`.
 */
export function chooseStoredPredictor(db: Database, name?: string): LoadedPredictor {
  const rows = predictorRowsInUse(db);
  if (!rows.length) throw new UserError('no trained predictor yet: run `pipedejavu train` first');
  const chosen = name
    ? rows.find((r) => r.name === name)
    : PREDICTOR_PREFERENCE.map((n) => rows.find((r) => r.name === n)).find((r) => r !== undefined);
  if (name !== undefined && !isPredictorName(name))
    throw new UserError(`--predictor takes ${PREDICTOR_NAMES.join(', ')}; got ${quoted(name)}`);
  if (!chosen) throw new UserError(`no trained ${name} predictor: run pipedejavu train --predictor ${name}`);
  return loadRow(chosen);
}

/**
 * The predictor whole models are priced with: the chosen stored one, answering from each
 * device's measured elementwise series where they bracket a node (core/predictor/measured-anchors.ts).
 */
export function workloadPredictor(db: Database, name?: string): LoadedPredictor {
  const chosen = chooseStoredPredictor(db, name);
  return { ...chosen, predictor: new AnchoredPredictor(chosen.predictor, profiledAnchors(db)) };
}

/** Each load's anchor index: a load is shared until the store changes (training-data.ts), so is its index. */
const anchorsByLoad = new WeakMap<readonly Sample[], AnchorIndex>();

function profiledAnchors(db: Database): AnchorIndex {
  const { samples } = loadTrainingData(db);
  let index = anchorsByLoad.get(samples);
  if (!index) {
    // A kernel the profile could not pin down (a slow mode, another process) anchors nothing:
    // read off at face value it moves every node it brackets.
    index = anchorIndex(samples.filter((s) => (s.origin ?? 'profile') === 'profile' && !s.noisy));
    anchorsByLoad.set(samples, index);
  }
  return index;
}

export interface PredictQuery {
  op: string;
  shape: string;
  dtype: string;
  device: string;
  threads?: number;
  machine?: string;
}

export interface OpPrediction {
  op: string;
  shape: Record<string, number>;
  dtype: Dtype;
  flops: number;
  bytes: number;
  /** The device across machines (MachineDeviceId: machineId/deviceKey/ep[/Nt]). */
  device: MachineDeviceId;
  predictions: (Prediction & { predictor: string })[];
  warnings: string[];
}

/** Reads "1x4096x4096x4096" in the op's documented dim order (see OP_DIMS). */
export function parseShape(op: KernelOp, text: string): Record<string, number> {
  const dims = OP_DIMS[op];
  const parts = text.split(/[x,]/).map((s) => s.trim());
  if (parts.length !== dims.length) {
    throw new UserError(`--shape for ${op} takes ${dims.length} numbers ${dims.join('x')}, got ${quoted(text)}`);
  }
  const shape: Record<string, number> = {};
  parts.forEach((p, i) => {
    const v = Number(p);
    if (!Number.isInteger(v) || v <= 0)
      throw new UserError(`--shape: ${dims[i]} must be a positive integer, got ${quoted(p)}`);
    shape[dims[i] as string] = v;
  });
  return shape;
}

/** The kernel a query names (op, "AxBx..." shape, dtype), checked; UserError naming what is wrong. */
export function kernelOfQuery(q: Pick<PredictQuery, 'op' | 'shape' | 'dtype'>): KernelSpec {
  const op = KERNEL_OPS.find((o) => o.toLowerCase() === q.op.toLowerCase());
  if (!op) throw new UserError(`unknown op ${quoted(q.op)}; known: ${KERNEL_OPS.join(', ')}`);
  const dtype = q.dtype as Dtype;
  if (!OP_DTYPES[op].includes(dtype))
    throw new UserError(`${op} has no ${q.dtype} kernel; dtypes: ${OP_DTYPES[op].join(', ')}`);
  const shape = parseShape(op, q.shape);
  try {
    return makeKernel(op, dtype, shape);
  } catch (e) {
    throw new UserError(`invalid ${op} shape: ${errorMessage(e)}`);
  }
}

export function predictOp(db: Database, q: PredictQuery): OpPrediction {
  const spec = kernelOfQuery(q);
  const { op, dtype, shape } = spec;
  const rows = predictorRowsInUse(db);
  if (!rows.length) throw new UserError('no trained predictor yet: run `pipedejavu train` first');
  const { loaded: predictors, unreadable } = loadReadable(rows);
  if (!predictors.length)
    throw new UserError(unreadable[0] ?? 'no trained predictor can be read: run pipedejavu train');
  const { devices, samples } = loadTrainingData(db);
  const { match: device, known } = findProfiledDevice(db, devices, q);
  if (!device)
    throw new UserError(
      `device ${q.device}${q.threads ? ` at ${count(q.threads, 'thread')}` : ''} was never profiled on this machine${known.length ? `; profiled: ${known.join(', ')}` : ''}`,
    );
  const warnings: string[] = [...unreadable, ...device.warnings];
  if (!samples.some((s) => s.device.deviceId === device.deviceId && s.op === op && s.dtype === dtype)) {
    warnings.push(`${op} ${dtype} was never profiled on ${q.device}: the prediction leans on other ops`);
  }
  const query = { ...spec, device: device.features };
  const predictions = predictors.map(({ name, predictor }) => ({
    predictor: name,
    ...(predictor.predict([query])[0] as Prediction),
  }));
  for (const p of predictions) if (p.warning && !warnings.includes(p.warning)) warnings.push(p.warning);
  return { op, shape, dtype, flops: spec.flops, bytes: spec.bytes, device: device.deviceId, predictions, warnings };
}
