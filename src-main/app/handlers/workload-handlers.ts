import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { MeasuredView, WorkloadPredictionView, WorkloadSummaryView } from '../../api/view-models.js';
import { listCatalog } from '../../core/catalog/index.js';
import { UserError } from '../../core/errors.js';
import { deviceIdOf } from '../../core/domain/device-id.js';
import type { Workload } from '../../core/workload/types.js';
import type { WorkloadPrediction } from '../../core/workload/predict-workload.js';
import { KernelRunner } from '../../adapters/ort/kernel-runner.js';
import { executedByLayer, predictOnMachine } from '../../services/model-prediction-service.js';
import type { DeviceGroup } from '../../services/training-data.js';
import { addWorkload, storedWorkload, storedWorkloads } from '../../services/workload-service.js';
import { removeWorkload } from '../../services/removal-service.js';
import type { AppDeps } from '../app-deps.js';
import { deviceLabel } from '../device-labels.js';
import { startJob } from './start-job.js';
import type { HandlerGroup } from './types.js';

function summary(
  w: Workload,
  meta: { source: string; filePath: string | null; createdAt: string },
): WorkloadSummaryView {
  return {
    name: w.name,
    source: meta.source,
    filePath: meta.filePath,
    createdAt: meta.createdAt,
    nodes: w.nodes.length,
    layers: w.layers.length,
    params: w.layers.reduce((s, l) => s + l.params, 0),
    flops: w.layers.reduce((s, l) => s + l.flops, 0),
    warnings: w.warnings,
  };
}

/** An uploaded model (web mode) is kept under the data directory: measure-model runs it later. */
/** A free file name for an uploaded model in the models folder next to the database. */
function modelFile(deps: AppDeps, fileName: string): string {
  const base = path.basename(fileName).replace(/[^A-Za-z0-9._-]+/g, '_') || 'model.onnx';
  const stem = base.replace(/\.onnx$/i, '');
  const dir = path.join(deps.dataDir, 'models');
  mkdirSync(dir, { recursive: true });
  let file = path.join(dir, `${stem}.onnx`);
  for (let i = 2; existsSync(file); i++) file = path.join(dir, `${stem}-${i}.onnx`);
  return file;
}

function saveUpload(deps: AppDeps, fileName: string, base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw new UserError(`${fileName} is empty`);
  const file = modelFile(deps, fileName);
  writeFileSync(file, bytes);
  return file;
}

/** Moves a file the browser uploaded (`POST /api/upload`) into the models folder. */
function keepUpload(deps: AppDeps, fileName: string, uploadId: string): string {
  const from = deps.uploads?.path(uploadId);
  if (!from) throw new UserError('that upload is unknown or was used already; upload the file again');
  const file = modelFile(deps, fileName);
  try {
    copyFileSync(from, file);
  } finally {
    deps.uploads?.remove(uploadId);
  }
  return file;
}

/** One device's prediction as the Workloads view shows it (the 12 slowest executed nodes per layer). */
function deviceView(workload: Workload, d: DeviceGroup, p: WorkloadPrediction) {
  return {
    id: deviceIdOf(d),
    label: deviceLabel(d),
    totalUs: p.totalUs,
    lowUs: p.lowUs,
    highUs: p.highUs,
    layerUs: p.layers.map((l) => l.timeUs),
    familyShare: p.familyShare,
    overheadUs: p.overheadUs,
    bindingUs: p.binding?.us ?? null,
    graph: p.graph,
    executedByLayer: executedByLayer(workload, p).map((l) =>
      l.slice(0, 12).map((e) => ({ name: e.name, opType: e.opType, timeUs: e.timeUs })),
    ),
    warnings: p.warnings,
  };
}

export const workloadHandlers: HandlerGroup<
  'workload:list' | 'workload:catalog' | 'workload:add' | 'workload:predict' | 'workload:measure' | 'workload:remove'
> = {
  'workload:remove': (req, deps) => removeWorkload(deps.db, req.name, path.join(deps.dataDir, 'models')),
  'workload:list': (_req, { db }) => storedWorkloads(db).map((w) => summary(w.workload, w)),
  'workload:catalog': () => listCatalog(),
  'workload:add': (req, deps) => {
    // A path is accepted only if the user picked it in this session's open dialog (Electron);
    // over HTTP never: it would tell a web page which files exist on the server.
    if (req.path !== undefined && !deps.dialogs?.opened(req.path)) {
      throw new UserError(
        deps.transport === 'http'
          ? 'workload:add over HTTP takes the file itself (dataBase64), not a path on the server'
          : `${req.fileName} was not chosen in the open dialog; choose it there`,
      );
    }
    const uploaded =
      req.dataBase64 !== undefined
        ? saveUpload(deps, req.fileName, req.dataBase64)
        : req.uploadId !== undefined
          ? keepUpload(deps, req.fileName, req.uploadId)
          : null;
    const file = uploaded ?? (req.path as string);
    const name = req.name ?? path.basename(req.fileName).replace(/\.onnx$/i, '');
    try {
      addWorkload(deps.db, file, { name, dims: req.dims ?? {}, inputs: req.inputs ?? {} }, req.replace === true);
    } catch (e) {
      if (uploaded) rmSync(uploaded, { force: true });
      throw e;
    }
    const stored = storedWorkload(deps.db, name);
    if (!stored) throw new Error(`workload ${name} was not stored`);
    return summary(stored.workload, stored);
  },
  'workload:predict': async (req, deps) => {
    const { workload, predictor, predictions } = await predictOnMachine(
      deps.db,
      () => new KernelRunner({ env: deps.env, ...(deps.launcher ? { launcher: deps.launcher } : {}) }),
      req,
    );
    const devices = predictions.map(({ device, prediction }) => deviceView(workload, device, prediction));
    const measuredJob = deps.jobs.latestDone(
      'measure',
      (v) => (v.result as { workload?: string } | null)?.workload === req.workload,
    );
    const view: WorkloadPredictionView = {
      workload: workload.name,
      mode: req.mode,
      batch: workload.bindings.batch ?? req.batch ?? 1,
      predictor,
      layers: workload.layers.map((l) => l.name),
      devices: devices.map(({ warnings: _w, ...p }) => p),
      warnings: [...new Set([...workload.warnings, ...devices.flatMap((p) => p.warnings)])].slice(0, 20),
      measured: (measuredJob?.result as MeasuredView | undefined) ?? null,
    };
    return view;
  },
  'workload:measure': (req, deps) => startJob(deps, 'measure', req, req.workload),
};
