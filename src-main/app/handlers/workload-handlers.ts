import { closeSync, openSync } from 'node:fs';
import { copyFile, mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FitView, MeasuredView, WorkloadPredictionView, WorkloadSummaryView } from '../../api/view-models.js';
import { listCatalog } from '../../core/catalog/index.js';
import { UserError } from '../../core/errors.js';
import type { AppDeps } from '../app-deps.js';
import type { AddHfFolderRequest, AddWorkloadRequest } from '../jobs/job-functions.js';
import { startJob } from './start-job.js';
import type { HandlerGroup } from './types.js';
import { checkChosenFile, checkWorkloadSpec } from './workload-spec.js';

/**
 * A new file for an uploaded model (web mode) in the models folder next to the database,
 * where measure-model runs it later. The name is taken at once (created empty, exclusively),
 * so two uploads at the same time never get the same file.
 */
async function modelFile(deps: AppDeps, fileName: string): Promise<string> {
  const base = path.basename(fileName).replace(/[^A-Za-z0-9._-]+/g, '_') || 'model.onnx';
  const stem = base.replace(/\.onnx$/i, '');
  const dir = path.join(deps.dataDir, 'models');
  await mkdir(dir, { recursive: true });
  for (let i = 1; ; i++) {
    const file = path.join(dir, i === 1 ? `${stem}.onnx` : `${stem}-${i}.onnx`);
    try {
      closeSync(openSync(file, 'wx', 0o644));
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/** Base64 characters decoded at a time (a multiple of 4): 1 Mi of them take about 6 ms. */
const BASE64_CHUNK = 2 ** 20;

/**
 * Writes a base64 string's bytes to `file` a piece at a time, each piece written before the next is
 * decoded: 16 MiB decoded and joined at once held the server about 200 ms. Whitespace is dropped
 * first, so that pieces cut at multiples of 4 characters stay aligned. Answers the bytes written.
 */
async function writeBase64(file: string, base64: string): Promise<number> {
  const text = /\s/.test(base64) ? base64.replace(/\s+/g, '') : base64;
  const handle = await open(file, 'w');
  let written = 0;
  try {
    for (let i = 0; i < text.length; i += BASE64_CHUNK) {
      const piece = Buffer.from(text.slice(i, i + BASE64_CHUNK), 'base64');
      await handle.write(piece);
      written += piece.length;
    }
  } finally {
    await handle.close();
  }
  return written;
}

async function saveUpload(deps: AppDeps, fileName: string, base64: string): Promise<string> {
  const file = await modelFile(deps, fileName);
  let bytes = 0;
  try {
    bytes = await writeBase64(file, base64);
  } finally {
    if (bytes === 0) await rm(file, { force: true });
  }
  if (bytes === 0) throw new UserError(`${fileName} is empty`);
  return file;
}

/** Copies a file the browser uploaded (`POST /api/upload`) into the models folder, off the event loop. */
async function keepUpload(deps: AppDeps, fileName: string, uploadId: string): Promise<string> {
  const from = deps.uploads?.path(uploadId);
  if (!from) throw new UserError('that upload is unknown or was used already; upload the file again');
  try {
    const file = await modelFile(deps, fileName);
    await copyFile(from, file);
    return file;
  } finally {
    deps.uploads?.remove(uploadId);
  }
}

/** The model file a workload:add names: a dialog's pick, or its bytes kept in the models folder. */
async function modelOf(req: AddRequest, deps: AppDeps) {
  if (req.path !== undefined) {
    checkChosenFile(req.path, deps, req.fileName);
    return { file: req.path, uploaded: false };
  }
  const file =
    req.dataBase64 !== undefined
      ? await saveUpload(deps, req.fileName, req.dataBase64)
      : await keepUpload(deps, req.fileName, req.uploadId as string);
  return { file, uploaded: true };
}

type AddRequest = Parameters<WorkloadHandlers['workload:add']>[0];

/** A workload name from a folder's name (letters, digits, . _ -), when the request gives none. */
function folderWorkloadName(folder: string): string {
  const safe = path
    .basename(folder)
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 100);
  return safe || 'model';
}

/** A Hugging Face folder uploaded without its weights: described and stored in the job runner, no file kept. */
async function addHfFolder(req: AddRequest, upload: AddHfFolderRequest['upload'], deps: AppDeps) {
  if (req.dims !== undefined || req.inputs !== undefined)
    throw new UserError(
      "dims and inputs name an ONNX graph's symbolic shapes; a Hugging Face folder's come from its config.json",
    );
  const job: AddHfFolderRequest = {
    upload,
    name: req.name ?? folderWorkloadName(req.fileName),
    replace: req.replace === true,
  };
  return (await deps.jobs.call('workload-add-hf', job)) as WorkloadSummaryView;
}

type WorkloadHandlers = HandlerGroup<
  | 'workload:list'
  | 'workload:catalog'
  | 'workload:add'
  | 'workload:predict'
  | 'workload:fit'
  | 'workload:measure'
  | 'workload:remove'
>;

export const workloadHandlers: WorkloadHandlers = {
  // Both read stored graphs (a million nodes for a hostile model): in the job runner too.
  'workload:remove': async (req, deps) =>
    (await deps.jobs.call('workload-remove', {
      name: req.name,
      modelsDir: path.join(deps.dataDir, 'models'),
    })) as { name: string },
  'workload:list': async (_req, deps) => (await deps.jobs.call('workload-list', {})) as WorkloadSummaryView[],
  'workload:catalog': () => listCatalog(),
  // Parsed and stored in the job runner: a huge model must not stall the server's other calls.
  'workload:add': async (req, deps) => {
    if (req.hfFolder !== undefined) return addHfFolder(req, req.hfFolder, deps);
    const { file, uploaded } = await modelOf(req, deps);
    const job: AddWorkloadRequest = {
      file,
      name: req.name ?? path.basename(req.fileName).replace(/\.onnx$/i, ''),
      dims: req.dims ?? {},
      inputs: req.inputs ?? {},
      replace: req.replace === true,
    };
    try {
      return (await deps.jobs.call('workload-add', job)) as WorkloadSummaryView;
    } catch (e) {
      if (uploaded) await rm(file, { force: true });
      throw e;
    }
  },
  'workload:predict': async (req, deps) => {
    checkWorkloadSpec(req.workload, deps);
    const predicted = (await deps.jobs.call('predict', req)) as Omit<WorkloadPredictionView, 'measured'>;
    const measuredJob = deps.jobs.latestDone(
      'measure',
      (v) => (v.result as { workload?: string } | null)?.workload === req.workload,
    );
    return { ...predicted, measured: (measuredJob?.result as MeasuredView | undefined) ?? null };
  },
  'workload:fit': async (req, deps) => {
    checkWorkloadSpec(req.workload, deps);
    return (await deps.jobs.call('fit', req)) as FitView;
  },
  'workload:measure': (req, deps) => {
    checkWorkloadSpec(req.workload, deps);
    return startJob(deps, 'measure', req, req.workload);
  },
};
