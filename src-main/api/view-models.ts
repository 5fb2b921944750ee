/**
 * What the API returns: plain JSON views built from the core's types. The renderer
 * imports these (types only), so nothing here may reach past the core. Pure.
 */
import type { Device, Link } from '../core/domain/devices.js';
import type { ProbeResult } from '../core/domain/hardware.js';
import type { ProfileRun } from '../core/domain/measurement.js';
import type { CatalogSummary } from '../core/catalog/index.js';
import type { ComparedDevice, Comparison } from '../core/domain/comparison.js';
import type { DeviceSummary } from '../core/profiler/device-summary.js';
import type { KernelsByOrigin } from '../core/profiler/kernel-counts.js';
import type { MeasuredOverhead } from '../core/profiler/overhead.js';
import type { CpuPeak } from '../core/profiler/cpu-peak.js';
import type { EvaluationReport } from '../core/predictor/evaluation/types.js';
import type { Plan, PlanDevice } from '../core/planner/types.js';
import type { PlanExports } from '../core/planner/exports/export-plan.js';
import type { SimEvent } from '../core/planner/simulator/pipeline-simulator.js';
import type { FitAnswer } from '../core/planner/memory/fit.js';
import type { PlanSummary } from '../core/planner/plan-summary.js';

/** `workload:fit`: memory per way of holding a workload and the GPUs it fits on. */
export type FitView = FitAnswer;
import type { RooflinePoint } from '../core/domain/roofline-point.js';
import type { DeviceId } from '../core/domain/device-id.js';

export type { RooflinePoint } from '../core/domain/roofline-point.js';
export type { CpuPeak } from '../core/profiler/cpu-peak.js';
export type { Mode } from '../core/domain/mode.js';

export type {
  LatencyPercentiles,
  ServingBand,
  ServingCurvePoint,
  ServingDeploymentView,
  ServingPlanView,
  ServingPriceView,
} from '../core/planner/serving/serving-plan-answer.js';
export type { SloCap, SloMetric, SloPercentile } from '../core/planner/serving/serving-plan-request.js';

export type { CatalogSummary, ProbeResult, SimEvent, Plan, PlanDevice, PlanExports };

export interface AppInfo {
  version: string;
  dataDir: string;
  dbPath: string;
  /** node, onnxruntime, electron... */
  runtime: Record<string, string>;
  /** 'electron' (native dialogs) or 'http' (web mode). */
  transport: 'electron' | 'http';
  /** Datasheet GPUs the planner knows (models/gpus.json), newest architecture first, then the most memory. */
  datasheetGpus: DatasheetGpuView[];
}

/** A datasheet GPU as the Plans view's picker lists and searches it. */
export interface DatasheetGpuView {
  name: string;
  architecture: string;
  formFactor: 'sxm' | 'pcie';
  memoryGiB: number;
  /** Every name it is known by (its id, name and aliases): the search matches these as `--virtual` does. */
  names: string[];
}

export interface MachineSummaryView {
  id: string;
  label: string;
  hostname: string;
  source: 'local' | 'imported';
  createdAt: string;
  updatedAt: string;
  deviceCount: number;
  runCount: number;
  measurementCount: number;
}

export interface MachineView extends MachineSummaryView {
  probe: ProbeResult;
  devices: Device[];
  links: Link[];
  /** The theoretical fp32 peak of the whole CPU, judged against its measured peaks (as `probe` and `roofline` say). */
  cpuPeak: CpuPeak;
  /** Where an import came from (file name, exporter version...). */
  provenance: Record<string, unknown> | null;
}

export type RunView = ProfileRun & { measurements: number };

export interface RooflineView {
  /** One per profiled device and thread count ("cpu@1t", "cpu@2t", "cuda:0"): lists key on it. */
  id: DeviceId;
  /** For people: "CPU, 2 threads". */
  label: string;
  deviceKey: string;
  executionProvider: string;
  threads: number | null;
  summary: DeviceSummary;
  /** The CPU's theoretical fp32 peak at these threads, as every view states it; null for GPUs. */
  theoreticalPeak: CpuPeak | null;
  overhead: MeasuredOverhead | null;
  points: RooflinePoint[];
}

/** One profiled device of a compared machine (`machine:compare`). */
export type ComparedDeviceView = ComparedDevice;

/** Machines side by side, in the order asked; a machine without a profile has no device. */
export type ComparisonView = Comparison;

export interface PredictorView {
  name: string;
  trainedAt: string;
  samples: number;
  devices: number;
  families: string[];
  trainMs: number | null;
  /** The last evaluation stored with it, if any. */
  hasReport: boolean;
}

export interface TrainResultView {
  trained: { name: string; samples: number; devices: number; trainMs: number }[];
}

export interface EvaluationView {
  report: EvaluationReport;
  /** Readable names of `report.devices` (and the scatter's `device`), by device id. */
  deviceLabels: Record<string, string>;
  notes: string[];
  sklearnFitSeconds: number | null;
}

export interface WorkloadSummaryView {
  name: string;
  source: string;
  filePath: string | null;
  createdAt: string;
  nodes: number;
  layers: number;
  params: number;
  flops: number;
  warnings: string[];
}

/** Per-layer predictions of one workload on each profiled device of a machine. */
export interface WorkloadPredictionView {
  workload: string;
  mode: 'inference' | 'training';
  batch: number;
  predictor: string;
  /** Layer names, in order. */
  layers: string[];
  devices: {
    /** The profiled device ("cpu@1t", "cpu@2t"): one row each, keyed on it. */
    id: DeviceId;
    /** For people: the machine and "CPU, 2 threads" with the execution provider. */
    label: string;
    totalUs: number;
    lowUs: number;
    highUs: number;
    /**
     * The 90% band as timed from Node (split conformal over held-out residuals: this device's
     * measure-model checks of other models, or the shipped bench residuals); null when none.
     */
    band90: { lowUs: number; highUs: number; from: 'checks' | 'checks+shipped' | 'shipped'; n: number } | null;
    layerUs: number[];
    familyShare: Record<string, number>;
    /** Per-run cost plus the per-node cost of every node that runs (µs), inside totalUs. */
    overheadUs: number;
    /** What the Node binding adds to a call, outside totalUs (µs); null when not measured apart. */
    bindingUs: number | null;
    /** 'executed': the graph ONNX Runtime runs on this device; 'file': the graph as written. */
    graph: 'file' | 'executed';
    /** Per layer: the executed nodes (fused, NCHWc, reorders) under it, slowest first (at most 12). */
    executedByLayer: { name: string; opType: string; timeUs: number }[][];
  }[];
  warnings: string[];
  /** The latest real run of the model here (measure), if any. */
  measured: MeasuredView | null;
}

export interface MeasuredView {
  workload: string;
  device: string;
  medianMs: number;
  predictedMs: number;
  nodeSumMs: number;
  /** Per layer: measured (sum of its nodes) and predicted, µs. */
  layers: { name: string; measuredUs: number; predictedUs: number }[];
  /** The prediction's 90% band (as timed from Node) and whether the measured time fell inside; null without one. */
  band: { lowMs: number; highMs: number; inside: boolean; from: string; n: number } | null;
}

/** A plan's answer: the summary `pipedejavu plan --json` prints, defined once in core/planner/plan-summary.ts. */
export type PlanView = PlanSummary;

export interface ImportView {
  machineId: string;
  label: string;
  /**
   * `merged`: this machine's own profile, its missing runs added; `unchanged`: the same content
   * was here already (nothing written; `note` says why).
   */
  action: 'imported' | 'updated' | 'merged' | 'unchanged';
  counts: { devices: number; runs: number; measurements: number; predictors: number };
  note?: string;
}

export interface ExportView {
  fileName: string;
  text: string;
  machineId: string;
  label: string;
}

/** What a finished profile job answers: one report per profiled target, and the new rooflines. */
export interface ProfileResultView {
  reports: {
    runId: string | null;
    deviceKey: string;
    executionProvider: string;
    /** The profiled device ("cpu@2t"): as the rooflines and every other view name it. */
    id: DeviceId;
    threads: number | null;
    suite: string;
    status: 'complete' | 'interrupted' | 'failed' | 'unavailable';
    /** Kernels the run measured, = the sum of byOrigin (core/profiler/kernel-counts.ts). */
    measured: number;
    byOrigin: KernelsByOrigin;
    /** NCHWc reorders stored beside the kernels: not kernels. */
    reorders: number;
    alreadyMeasured: number;
    failures: { kernel: string; kind: string; error: string }[];
    noisy: string[];
    elapsedMs: number;
    notes: string[];
  }[];
  rooflines: Omit<RooflineView, 'points'>[];
}

/**
 * What a profile is expected to take here before it starts (`profile:estimate`): the estimate the
 * CLI's start line gives, per target, from the suite's kernels and this machine's last run
 * ("measured") or the profiler's prior ("prior") when it has none.
 */
export interface ProfileEstimateView {
  targets: { target: string; kernels: number; estimatedMs: number; basis: 'measured' | 'prior' }[];
  totalMs: number;
  basis: 'measured' | 'prior';
  /** With device `all`: providers left out because they cannot load here, a line each. */
  skipped: string[];
}

export type { KernelStatus } from '../core/domain/measurement.js';

export type JobKind = 'profile' | 'train' | 'evaluate' | 'plan' | 'measure' | 'import';
export type JobState = 'running' | 'done' | 'failed' | 'cancelled';

export interface JobView {
  id: string;
  kind: JobKind;
  state: JobState;
  title: string;
  startedAt: string;
  finishedAt: string | null;
  done: number;
  total: number;
  label: string;
  log: string[];
  error: string | null;
  /** The job's answer once done (the channel's result type). */
  result: unknown;
}
