/**
 * Workloads: import an ONNX model or build a catalog model, store it by name, predict
 * its time on a profiled device, and measure it for real on ONNX Runtime.
 */
import { quoted } from '../../core/text/shown.js';
import path from 'node:path';
import type { FinetuneSpec } from '../../core/workload/finetune.js';
import { UserError } from '../../core/errors.js';
import type { Mode } from '../../core/domain/mode.js';
import { predictWorkload, type WorkloadPrediction } from '../../core/workload/predict-workload.js';
import { workloadFromModel } from '../../core/workload/from-onnx.js';
import {
  catalogNames,
  catalogWorkload,
  entryWorkload,
  getCatalogEntry,
  type CatalogEntry,
  type CatalogParams,
} from '../../core/catalog/index.js';
import type { Workload } from '../../core/workload/types.js';
import type { Dtype } from '../../core/domain/measurement.js';
import { uploadedHfModel, type UploadedHfFolder } from '../../core/catalog/hf-model.js';
import { readOnnxStructure } from '../../adapters/files/read-onnx.js';
import { WorkloadRepo, type StoredWorkload, type WorkloadSummary } from '../../adapters/store/workload-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { workloadPredictor } from '../predict/predictor-service.js';
import { findProfiledDevice } from '../predict/profiled-device.js';
import { coldWeightsAs, type ColdWeightsOption } from '../predict/stream-rate.js';
import { loadTrainingData, type DeviceGroup } from '../predict/training-data.js';
import { familyRatios } from '../../core/workload/calibration.js';
import { count } from '../../core/text/plural.js';
import {
  isHfConfigSpec,
  readDescribedModel,
  readHfDecoder,
  type DescribedModel,
  type StoredModel,
} from './hf-config-service.js';
import { deviceBlasPool, deviceCalibration, deviceOverhead } from './stored-device-figures.js';
import { blasPoolNote } from '../../core/profiler/blas-pool.js';

export interface WorkloadSpecOptions {
  /** A decoder described apart: read from a GGUF header (gguf-service.ts), or a published architecture (bench/published). */
  decoder?: CatalogEntry;
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
  /** Fine-tuning with LoRA/QLoRA adapters (training mode): catalog models and Hugging Face folders only. */
  finetune?: FinetuneSpec;
  name?: string;
}

export interface ResolvedWorkload {
  workload: Workload;
  /** The model file, for ONNX workloads (measure-model runs it). */
  filePath: string | null;
  contentHash: string | null;
  /** What a Hugging Face folder's safetensors store (workload add of a folder holding them). */
  stored?: StoredModel;
}

/** A catalog model's name (catalogNames: listCatalog would build every model to count its parameters). */
const isCatalogName = (spec: string): boolean => catalogNames().includes(spec);

const looksLikeFile = (spec: string): boolean => /\.onnx$/i.test(spec) || spec.includes('/') || spec.includes(path.sep);

/**
 * Whether `spec` is written as a path: it holds a / or \, starts with a dot ("." and ".." too), or
 * is absolute. Such a spec names a file even where a catalog model or a stored workload has its name.
 */
export function isExplicitPath(spec: string): boolean {
  return /[\\/]/.test(spec) || spec.startsWith('.') || path.isAbsolute(spec);
}

/**
 * Whether a catalog model or a stored workload has this name. Only the catalog and the store
 * are asked (no graph is read), never the filesystem.
 */
export function isWorkloadName(db: Database, spec: string): boolean {
  return isCatalogName(spec) || new WorkloadRepo(db).has(spec);
}

/**
 * Whether `spec` is read from the store or the catalog rather than as a file: a name they have,
 * unless it is written as a path. A bare name is a file only when neither has it (the CLI's
 * `fit config.json` or `plan --workload my-folder`).
 */
function namesStoredOrCatalog(db: Database, spec: string): boolean {
  return !isExplicitPath(spec) && isWorkloadName(db, spec);
}

/**
 * The model a file describes apart from a graph (a .gguf header, a config.json or a folder holding
 * one), or a stored Hugging Face folder's description; null for anything else, and for a catalog
 * name (a same-named file in the working folder does not hide a catalog or stored name).
 */
export async function readDescribedFile(db: Database, spec: string): Promise<DescribedModel | null> {
  if (!namesStoredOrCatalog(db, spec)) return readDescribedModel(spec);
  return isCatalogName(spec) ? null : storedDescription(db, spec);
}

/**
 * A stored Hugging Face folder's description, under its workload name: the one stored with it
 * (schema 6 on: uploaded folders and folders added since), else its config.json read again from the
 * absolute path it was added from (never the working folder); null for ONNX graphs.
 */
function storedDescription(db: Database, name: string): DescribedModel | null {
  const stored = new WorkloadRepo(db).get(name);
  const file = stored?.filePath;
  const d = stored?.described ?? (file && path.isAbsolute(file) && isHfConfigSpec(file) ? readHfDecoder(file) : null);
  return d ? { ...d, entry: { ...d.entry, name } } : null;
}

/**
 * A model file, a catalog name, or the name of a stored workload. A catalog or stored name wins
 * over a same-named file or folder unless the spec is written as a path (isExplicitPath).
 */
export function resolveWorkload(db: Database, spec: string, opts: WorkloadSpecOptions = {}): ResolvedWorkload {
  // A decoder described apart (a GGUF header, a published architecture) is built from that description.
  if (opts.decoder)
    return { workload: entryWorkload(opts.decoder, catalogParamsOf(opts)), filePath: null, contentHash: null };
  const named = namesStoredOrCatalog(db, spec);
  if (!named && /\.gguf$/i.test(spec))
    throw new UserError(`${spec}: GGUF files are read by plan and predict-model (read its header first)`);
  // A Hugging Face config.json, or a model folder holding one: the architecture it describes.
  if (!named && isHfConfigSpec(spec)) {
    const d = readHfDecoder(spec);
    const workload = entryWorkload(d.entry, catalogParamsOf(opts));
    workload.warnings.unshift(...d.warnings);
    return { workload, filePath: null, contentHash: null };
  }
  if (opts.finetune && !isCatalogName(spec))
    throw new UserError(
      `${spec}: LoRA and QLoRA fine-tuning is planned for catalog models and Hugging Face model folders (config.json), whose linear layers are known; not for ONNX graphs`,
    );
  if (!named && looksLikeFile(spec)) return onnxWorkload(spec, opts);
  if (isCatalogName(spec)) {
    return { workload: catalogWorkload(spec, catalogParamsOf(opts)), filePath: null, contentHash: null };
  }
  const stored = new WorkloadRepo(db).get(spec);
  if (stored) return { workload: stored.workload, filePath: stored.filePath, contentHash: stored.contentHash };
  throw new UserError(
    `${quoted(spec)} is neither an .onnx file, a catalog model (${catalogNames().join(', ')}) nor a stored workload (see pipedejavu workload list)`,
  );
}

/** An ONNX model file's graph, named after the file unless `opts.name` says otherwise. */
function onnxWorkload(file: string, opts: WorkloadSpecOptions): ResolvedWorkload {
  const { model, contentHash } = readOnnxStructure(file);
  const name = opts.name ?? path.basename(file).replace(/\.onnx$/i, '');
  const workload = workloadFromModel(model, { name, dims: opts.dims ?? {}, inputs: opts.inputs ?? {} });
  return { workload, filePath: path.resolve(file), contentHash };
}

/** The catalog parameters of the options (batch, seq, image, dtype, mode) that were given. */
function catalogParamsOf(opts: WorkloadSpecOptions): CatalogParams {
  return {
    ...(opts.batch !== undefined ? { batch: opts.batch } : {}),
    ...(opts.seq !== undefined ? { seq: opts.seq } : {}),
    ...(opts.image !== undefined ? { image: opts.image } : {}),
    ...(opts.dtype !== undefined ? { dtype: opts.dtype } : {}),
    ...(opts.mode !== undefined ? { mode: opts.mode } : {}),
    ...(opts.finetune !== undefined ? { finetune: opts.finetune } : {}),
  };
}

/** The stored workloads by name, each with its node and layer counts. */
export function listWorkloads(db: Database): WorkloadSummary[] {
  return new WorkloadRepo(db).list();
}

/** Every stored workload with its graph, by name. */
export function storedWorkloads(db: Database): StoredWorkload[] {
  const repo = new WorkloadRepo(db);
  return repo.list().flatMap((s) => {
    const w = repo.get(s.name);
    return w ? [w] : [];
  });
}

/**
 * The model description behind a workload name: a catalog entry, a config.json or model folder
 * named as a file, or a stored Hugging Face folder's (storedDescription); null for ONNX graphs and
 * GGUF-less names.
 */
export function describedEntry(db: Database, spec: string): CatalogEntry | null {
  if (isCatalogName(spec)) return getCatalogEntry(spec);
  if (!namesStoredOrCatalog(db, spec) && isHfConfigSpec(spec)) return readHfDecoder(spec).entry;
  return storedDescription(db, spec)?.entry ?? null;
}

/** A stored workload by name, or null. */
export function storedWorkload(db: Database, name: string): StoredWorkload | null {
  return new WorkloadRepo(db).get(name);
}

/**
 * Stores an ONNX model, a config.json or a model folder holding one as a workload. A name a catalog
 * model has is refused (the catalog would shadow it), and so is a name already stored unless
 * `replace` says to.
 */
export function addWorkload(
  db: Database,
  file: string,
  opts: WorkloadSpecOptions = {},
  replace = false,
): ResolvedWorkload {
  const config = isHfConfigSpec(file) ? readHfDecoder(file) : null;
  if (!config && !looksLikeFile(file))
    throw new UserError(
      `workload add takes an .onnx file, a config.json or a model folder holding one; catalog models need no adding`,
    );
  const name = opts.name ?? config?.entry.name ?? path.basename(file).replace(/\.onnx$/i, '');
  if (config) return saveDescribed(db, config, path.resolve(file), { ...opts, name }, replace);
  const repo = checkedName(db, name, replace);
  if (/\.gguf$/i.test(file))
    throw new UserError(`${file}: GGUF files are read by plan and predict-model (read its header first)`);
  // Always the file: a stored workload of the same name is what this replaces, not what it reads.
  const r = onnxWorkload(file, { ...opts, name });
  repo.save(r.workload, r.filePath, r.contentHash);
  return r;
}

/**
 * Stores a Hugging Face model folder uploaded without its weights (its config.json text and its
 * safetensors headers) as the workload `opts.name`: described as a folder read here is
 * (core/catalog/hf-model.ts), kept with its description and no path, so nothing of it is read
 * from the filesystem after.
 */
export function addUploadedHfFolder(
  db: Database,
  upload: UploadedHfFolder,
  opts: WorkloadSpecOptions & { name: string },
  replace = false,
): ResolvedWorkload {
  return saveDescribed(db, uploadedHfModel(opts.name, upload), null, opts, replace);
}

/** The repository, once `name` is free to store under (or `replace` says to take it). */
function checkedName(db: Database, name: string, replace: boolean): WorkloadRepo {
  if (isCatalogName(name)) {
    throw new UserError(
      `${quoted(name)} is the name of a catalog model, which would hide this workload; give another name`,
    );
  }
  const repo = new WorkloadRepo(db);
  const existing = repo.get(name);
  if (existing && !replace) {
    throw new UserError(
      `a workload named ${quoted(name)} is stored already (${existing.filePath ?? 'no file'}); replace it explicitly or give another name`,
    );
  }
  return repo;
}

/** A described Hugging Face model stored as the workload `opts.name`, its description with it. */
function saveDescribed(
  db: Database,
  config: DescribedModel,
  filePath: string | null,
  opts: WorkloadSpecOptions & { name: string },
  replace: boolean,
): ResolvedWorkload {
  const repo = checkedName(db, opts.name, replace);
  const workload = { ...entryWorkload(config.entry, catalogParamsOf(opts)), name: opts.name };
  workload.warnings.unshift(...config.warnings);
  repo.save(workload, filePath, null, config);
  const stored = { workload, filePath, contentHash: null };
  return config.stored ? { ...stored, stored: config.stored } : stored;
}

/** The profiled device a prediction is made for: this machine's (or a named machine's) device and thread count. */
export function pickDevice(db: Database, device: string, threads?: number, machine?: string, mode?: Mode): DeviceGroup {
  const { devices } = loadTrainingData(db);
  const { match, known } = findProfiledDevice(db, devices, {
    device,
    ...(threads !== undefined ? { threads } : {}),
    ...(machine !== undefined ? { machine } : {}),
    ...(mode !== undefined ? { mode } : {}),
  });
  if (match) return match;
  throw new UserError(
    `device ${device}${threads ? ` at ${count(threads, 'thread')}` : ''} was never profiled${known.length ? `; profiled: ${known.join(', ')}` : '; run pipedejavu profile'}`,
  );
}

export function predictModel(
  db: Database,
  spec: string,
  opts: WorkloadSpecOptions & { device: string; threads?: number; machine?: string; predictor?: string },
): WorkloadPrediction {
  const { workload } = resolveWorkload(db, spec, opts);
  return predictOnDevice(db, workload, pickDevice(db, opts.device, opts.threads, opts.machine, opts.mode), opts);
}

/** A workload's graph as given, on a profiled device, with the device's overhead. */
export function predictOnDevice(
  db: Database,
  workload: Workload,
  device: DeviceGroup,
  opts: { mode?: Mode; predictor?: string; calibrate?: boolean; coldWeights?: ColdWeightsOption },
): WorkloadPrediction {
  const overhead = deviceOverhead(db, device);
  const predictor = workloadPredictor(db, opts.predictor).predictor;
  const scaleOf = (d: DeviceGroup): Record<string, number> =>
    opts.calibrate === false ? {} : familyRatios(deviceCalibration(db, d), predictor, d.features);
  const single = oneThreadSibling(db, device);
  const prediction = predictWorkload(workload, predictor, device.features, opts.mode ?? 'inference', {
    overhead,
    familyScale: scaleOf(device),
    oneThread: single ? { device: single.features, familyScale: scaleOf(single) } : null,
    coldWeights: coldWeightsAs(db, device, opts.mode ?? 'inference', opts.coldWeights),
  });
  prediction.warnings.push(...device.warnings);
  const pool = (device.threads ?? 1) > 1 ? torchPoolNote(db, device) : null;
  if (pool) prediction.warnings.push(pool);
  if (!overhead)
    prediction.warnings.push(
      'this profile has no per-run and per-node overhead (profiled by an older pipeDejavu): re-profile for a whole-model time you can trust',
    );
  return prediction;
}

/** PyTorch on the CPU whose products run on a BLAS pool of their own: what that costs (blas-pool.ts); else null. */
function torchPoolNote(db: Database, device: DeviceGroup): string | null {
  if (device.executionProvider !== 'torch-cpu') return null;
  return blasPoolNote(deviceBlasPool(db, device), device.threads ?? 1);
}

/**
 * The same CPU profiled at 1 thread, when the device is a CPU at more threads: the nodes ORT
 * runs on one thread are predicted there (core/workload/one-thread-ops.ts). Null otherwise.
 */
function oneThreadSibling(db: Database, device: DeviceGroup): DeviceGroup | null {
  if (device.executionProvider !== 'cpu' || (device.threads ?? 1) <= 1) return null;
  const { devices } = loadTrainingData(db, { machineId: device.machineId });
  return (
    devices.find((d) => d.deviceKey === device.deviceKey && d.executionProvider === 'cpu' && d.threads === 1) ?? null
  );
}
