/**
 * What each long job does: the same services the CLI calls, reporting progress as
 * they go. A job function gets the store and an abort signal; its answer is the
 * channel's result view. They run in the job-runner child (see job-runner-process.ts).
 */
import { fitModel, type FitAnswer } from '../../services/plan/fit-service.js';
import { planServing } from '../../services/serving/serving-plan-service.js';
import type { ServingPlanView } from '../../api/view-models.js';
import type { ApiRequest } from '../../api/contract.js';
import type {
  ComparisonView,
  EvaluationView,
  ImportView,
  MeasuredView,
  PlanView,
  ProfileResultView,
  TrainResultView,
  WorkloadPredictionView,
  WorkloadSummaryView,
} from '../../api/view-models.js';
import { UserError } from '../../core/errors.js';
import { deviceIdOf } from '../../core/domain/device-id.js';
import { fromNodeUs } from '../../core/workload/predict-workload.js';
import type { SuiteName } from '../../core/kernels/suites.js';
import { PREDICTOR_NAMES, type PredictorName } from '../../core/predictor/registry.js';
import type { Database } from '../../adapters/store/types.js';
import { KernelRunner } from '../../adapters/ort/kernel-runner.js';
import { evaluatePredictors } from '../../services/predict/evaluation-service.js';
import { layerComparison, measureModel } from '../../services/measure/measure-model-service.js';
import { planSummary, planWorkload } from '../../services/plan/plan-service.js';
import { trainPredictors } from '../../services/predict/predictor-service.js';
import {
  localProfile,
  nothingProfiled,
  profiledRooflines,
  profileTargets,
} from '../../services/profile/profile-targets.js';
import { parseBackends } from '../../services/profile/device-targets.js';
import { importProfile } from '../../services/exchange/profile-import.js';
import { readProfileBytes } from '../../adapters/files/read-profile-text.js';
import { servingTraceFromText } from '../../adapters/files/serving-trace.js';
import { compareMachines } from '../../services/measure/compare-service.js';
import { predictOnMachine } from '../../services/predict/model-prediction-service.js';
import {
  addUploadedHfFolder,
  addWorkload,
  storedWorkload,
  storedWorkloads,
} from '../../services/workload/workload-service.js';
import type { UploadedHfFolder } from '../../core/catalog/hf-model.js';
import { removeWorkload } from '../../services/machine/removal-service.js';
import type { JobReporter, RunnerKind } from './protocol.js';
import { predictionView, workloadSummary } from '../workload-views.js';
import { deviceLabels } from '../device-labels.js';
import { count } from '../../core/text/plural.js';
import { localConditionsProbe } from '../../services/profile/run-conditions-service.js';
import { localStateTimer } from '../../services/measure/machine-state-probe.js';

export interface JobEnv {
  db: Database;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  report: JobReporter;
}

export type ProfileJobResult = ProfileResultView;

/** A profile file to import: a path on this machine (a dialog's answer, an upload) or its text. */
export interface ImportJobRequest {
  fileName: string;
  path?: string;
  text?: string;
  label?: string;
  /** Replace a stored copy even when this file is older or differs (the CLI's --replace). */
  replace?: boolean;
}

async function profileJob(e: JobEnv, req: ApiRequest<'profile:start'>): Promise<ProfileJobResult> {
  const suite = req.suite as SuiteName;
  const backends = parseBackends(req.backend ?? 'ort');
  const { machine, targets, deps } = await localProfile(e.db, e.env, req.device, req.threads, { backends });
  const reports = await profileTargets(deps, targets, {
    suite,
    signal: e.signal,
    onLog: (line) => e.report.log(line),
    onKernel: (ev, who) => {
      e.report.progress(ev.index, ev.total, `${who}: ${ev.spec.id}`);
      e.report.kernel({
        id: ev.spec.id,
        target: who,
        family: ev.spec.family,
        status: ev.status,
        medianUs: ev.medianUs ?? null,
      });
      if (ev.status === 'failed') e.report.log(`${ev.spec.id}: failed: ${ev.error ?? ''}`);
    },
    onStep: (ev, who) => e.report.progress(ev.index, ev.total, `${who}: ${ev.label}`),
    onReport: (report) => {
      for (const n of report.notes) e.report.log(n);
    },
  });
  if (e.signal.aborted)
    throw new UserError('profile cancelled; finished measurements are stored, run it again to resume');
  const nothing = nothingProfiled(req.device, reports);
  if (nothing) throw nothing;
  return {
    reports: reports.map(({ summary: _summary, ...r }) => ({ ...r, id: deviceIdOf(r) })),
    rooflines: profiledRooflines(e.db, machine.id, reports),
  };
}

/** The job's log line when a request names its predictors by the old field (`models`, "model" is the network). */
const PREDICTOR_TRAIN_MODELS_DEPRECATED = '`models` is deprecated: use `predictors`';

async function trainJob(e: JobEnv, req: ApiRequest<'predictor:train'>): Promise<TrainResultView> {
  const names: PredictorName[] = req.predictors ?? req.models ?? [...PREDICTOR_NAMES];
  if (req.models) e.report.log(PREDICTOR_TRAIN_MODELS_DEPRECATED);
  const trained: TrainResultView['trained'] = [];
  for (const [i, name] of names.entries()) {
    if (e.signal.aborted) throw new UserError('training cancelled');
    e.report.progress(i, names.length, `training ${name}`);
    // Each predictor is trained on its own turn so progress moves and a cancel lands between predictors.
    await new Promise((r) => setImmediate(r));
    const [t] = trainPredictors(e.db, [name]);
    if (t) trained.push({ name: t.name, samples: t.samples, devices: t.devices, trainMs: t.trainMs });
    e.report.log(`${name}: trained on ${count(t?.samples ?? 0, 'measurement')} in ${Math.round(t?.trainMs ?? 0)} ms`);
  }
  e.report.progress(names.length, names.length, 'trained');
  return { trained };
}

async function evaluateJob(e: JobEnv, req: ApiRequest<'predictor:evaluate'>): Promise<EvaluationView> {
  e.report.progress(0, 1, 'evaluating every predictor under every protocol');
  const r = await evaluatePredictors(e.db, { k: req.k ?? 5, sklearn: req.sklearn ?? false });
  e.report.progress(1, 1, 'evaluated');
  return {
    report: r.report,
    deviceLabels: deviceLabels(e.db),
    notes: r.notes,
    sklearnFitSeconds: r.sklearnFitSeconds,
  };
}

async function planJob(e: JobEnv, req: ApiRequest<'plan:create'>): Promise<PlanView> {
  e.report.progress(0, 1, 'searching plans');
  const r = planWorkload(e.db, req);
  e.report.progress(1, 1, `searched in ${r.result.searchMs.toFixed(0)} ms`);
  return planSummary(r);
}

async function measureJob(e: JobEnv, req: ApiRequest<'workload:measure'>): Promise<MeasuredView> {
  e.report.progress(0, 1, `running ${req.workload} on the CPU`);
  const runner = new KernelRunner({ env: e.env });
  const abort = (): void => runner.kill();
  e.signal.addEventListener('abort', abort);
  try {
    const m = await measureModel(e.db, runner, req.workload, {
      device: 'cpu',
      ...(req.threads !== undefined ? { threads: req.threads } : {}),
      conditions: localConditionsProbe(e.env),
      machineState: localStateTimer(e.env, runner),
    });
    if (e.signal.aborted) throw new UserError('measurement cancelled');
    const layers = layerComparison(e.db, req.workload, m);
    e.report.progress(1, 1, `measured ${m.medianMs.toFixed(2)} ms`);
    const labels = deviceLabels(e.db);
    return {
      workload: req.workload,
      device: labels[m.device] ?? m.device,
      medianMs: m.medianMs,
      // measured from Node, so the prediction as a Node caller sees it
      predictedMs: (m.predicted ? fromNodeUs(m.predicted) : 0) / 1000,
      nodeSumMs: m.nodesSumMs,
      layers,
      band: m.band,
    };
  } finally {
    e.signal.removeEventListener('abort', abort);
    await runner.close();
  }
}

/** Imports a profile file in the job runner: a 200 MB file must not stall the server or the window. */
async function importJob(_e: JobEnv, req: ImportJobRequest): Promise<ImportView> {
  const input = req.path !== undefined ? readProfileBytes(req.path) : (req.text ?? '');
  return importProfile(_e.db, input, req.fileName, req.label, { replace: req.replace === true });
}

/** A model file to store as a workload: a dialog's pick (Electron) or an upload already in the models folder. */
export interface AddWorkloadRequest {
  file: string;
  name: string;
  dims: Record<string, number>;
  inputs: Record<string, number[]>;
  replace: boolean;
}

/** Parses and stores a model in the job runner: a million-node file must not stall the server. */
async function addWorkloadJob(e: JobEnv, req: AddWorkloadRequest): Promise<WorkloadSummaryView> {
  addWorkload(e.db, req.file, { name: req.name, dims: req.dims, inputs: req.inputs }, req.replace);
  const stored = storedWorkload(e.db, req.name);
  if (!stored) throw new Error(`workload ${req.name} was not stored`);
  return workloadSummary(stored.workload, stored);
}

/** A Hugging Face model folder uploaded as its config.json and safetensors headers, to store as `name`. */
export interface AddHfFolderRequest {
  upload: UploadedHfFolder;
  name: string;
  replace: boolean;
}

/** Describes and stores an uploaded folder in the job runner: 400,000 tensors' headers take seconds to check. */
async function addHfFolderJob(e: JobEnv, req: AddHfFolderRequest): Promise<WorkloadSummaryView> {
  addUploadedHfFolder(e.db, req.upload, { name: req.name }, req.replace);
  const stored = storedWorkload(e.db, req.name);
  if (!stored) throw new Error(`workload ${req.name} was not stored`);
  return workloadSummary(stored.workload, stored);
}

/** The stored workloads with their sizes: each stored graph is read, so a huge one stalls only the runner. */
async function listWorkloadsJob(e: JobEnv): Promise<WorkloadSummaryView[]> {
  return storedWorkloads(e.db).map((w) => workloadSummary(w.workload, w));
}

/** Removes a stored workload (and its uploaded model file, kept in `modelsDir`). */
async function removeWorkloadJob(e: JobEnv, req: { name: string; modelsDir: string }): Promise<{ name: string }> {
  return removeWorkload(e.db, req.name, req.modelsDir);
}

const newRunner = (e: JobEnv) => (): KernelRunner => new KernelRunner({ env: e.env });

/** A workload on every profiled device of a machine (the Workloads view), in the job runner. */
async function predictJob(
  e: JobEnv,
  req: ApiRequest<'workload:predict'>,
): Promise<Omit<WorkloadPredictionView, 'measured'>> {
  return predictionView(req, await predictOnMachine(e.db, newRunner(e), req));
}

/** Machines side by side (`pipedejavu compare`), with a workload's prediction, in the job runner. */
async function compareJob(e: JobEnv, req: ApiRequest<'machine:compare'>): Promise<ComparisonView> {
  return compareMachines(e.db, newRunner(e), req);
}

/** A model's memory per way of holding it and the GPUs it fits on (`pipedejavu fit`), in the job runner. */
async function fitJob(e: JobEnv, req: ApiRequest<'workload:fit'>): Promise<FitAnswer> {
  return fitModel(e.db, {
    model: req.workload,
    mode: req.mode,
    ...(req.context !== undefined ? { context: req.context } : {}),
    ...(req.batch !== undefined ? { batch: req.batch } : {}),
    ...(req.gpus !== undefined ? { gpus: req.gpus } : {}),
    ...(req.finetune !== undefined ? { finetune: req.finetune } : {}),
    ...(req.engine !== undefined ? { engine: req.engine } : {}),
  });
}

/**
 * Serving capacity at an SLO (`pipedejavu serve-plan`), in the job runner: seconds of simulation. A
 * trace comes as the text of the file the user chose, checked row by row as `--trace FILE` is.
 */
async function servingPlanJob(e: JobEnv, req: ApiRequest<'serving:plan'>): Promise<ServingPlanView> {
  const { trace, ...rest } = req;
  const named = trace ? { file: trace.fileName, trace: servingTraceFromText(trace.fileName, trace.text) } : undefined;
  return planServing(e.db, rest, undefined, named);
}

/** Each kind the job runner runs with its request type; requests were validated before they got here. */
export const JOB_FUNCTIONS: { [K in RunnerKind]: (e: JobEnv, request: never) => Promise<unknown> } = {
  profile: profileJob,
  train: trainJob,
  evaluate: evaluateJob,
  plan: planJob,
  measure: measureJob,
  import: importJob,
  predict: predictJob,
  compare: compareJob,
  fit: fitJob,
  'serving-plan': servingPlanJob,
  'workload-add': addWorkloadJob,
  'workload-add-hf': addHfFolderJob,
  'workload-list': listWorkloadsJob,
  'workload-remove': removeWorkloadJob,
};
