/**
 * The one API contract: `domain:verb` channels, each with a zod schema for its request
 * and its response type. The Electron handlers, the preload bridge, the HTTP transport
 * and the renderer's client are all derived from this table. Requests are validated at
 * every boundary; responses are typed (the server builds them). Pure.
 */
import { ENGINE_CHOICES, ENGINE_NAMES, ENGINES, type EngineName } from '../core/engines/engine-names.js';
import { z } from 'zod';
import { CHANNEL_NAME_LIST, isChannelName, JOB_EVENT_CHANNEL, type ChannelNameFromList } from './channel-names.js';
import { MODES } from '../core/domain/mode.js';
import { PREDICTOR_NAMES } from '../core/predictor/predictor-names.js';
import { LIMITS } from '../core/profile-file/schema.js';
import { WEIGHT_FORMATS, type WeightFormat } from '../core/workload/generation.js';
import { FINETUNE_STACK_NAMES, LORA_TARGETS, MAX_LORA_RANK } from '../core/workload/finetune.js';
import { HF_FOLDER_LIMITS, REQUEST_LIMITS, TEXT_LIMITS } from '../core/workload/limits.js';
import { CATALOG_DTYPE, FINETUNE_REQUEST, countIn } from '../core/workload/request-schemas.js';
import { TRAINING_STACK_NAMES } from '../core/planner/stacks/stack-names.js';
import { CONCURRENCY_LOAD, LOCAL_PLAN_FIELDS, PLAN_REQUEST, RATE_LOAD } from '../core/planner/plan-request.js';
import { SERVING_PLAN_REQUEST } from '../core/planner/serving/serving-plan-request.js';
import { SAFETENSORS_LIMITS } from '../core/catalog/safetensors.js';
import type { Equal, Expect } from '../core/util/type-checks.js';
import type {
  AppInfo,
  CatalogSummary,
  ComparisonView,
  EvaluationView,
  ExportView,
  FitView,
  ImportView,
  JobView,
  MachineSummaryView,
  MachineView,
  PredictorView,
  ProfileEstimateView,
  RooflineView,
  RunView,
  ServingPlanView,
  WorkloadPredictionView,
  WorkloadSummaryView,
} from './view-models.js';

const id = z.string().min(1).max(200);
const deviceList = z
  .string()
  .max(500)
  .regex(/^(all|none|[a-z0-9:,\s]+)$/, 'devices: all, none or a comma list like cpu,cuda:0');
const L = REQUEST_LIMITS;
const uploadId = z.string().regex(/^[0-9a-f]{32}$/, 'uploadId: the id POST /api/upload answered');
/**
 * A Hugging Face model folder sent without its weights: config.json's text and, for each
 * safetensors file, its name, its whole size in bytes (the header's offsets are checked against it)
 * and its header's JSON text (the bytes after the 8-byte length).
 */
export const HF_FOLDER_REQUEST_LIMITS = {
  ...HF_FOLDER_LIMITS,
  /** One safetensors header, in bytes (the app's folder picker refuses a longer one before reading it). */
  headerBytes: SAFETENSORS_LIMITS.headerBytes,
} as const;

const hfFolder = z.strictObject({
  config: z.string().min(1).max(HF_FOLDER_REQUEST_LIMITS.configBytes),
  safetensors: z
    .array(
      z.strictObject({
        fileName: z
          .string()
          .regex(
            /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}\.safetensors$/,
            'fileName: a .safetensors file name in the folder (letters, digits, . _ -)',
          ),
        bytes: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
        header: z.string().max(HF_FOLDER_REQUEST_LIMITS.headerBytes),
      }),
    )
    .max(HF_FOLDER_REQUEST_LIMITS.safetensorsFiles),
});
const dims = z.record(z.string().max(100), countIn(L.dim)).optional();
const inputs = z.record(z.string().max(200), z.array(countIn(L.dim)).max(8)).optional();
/** Workload options shared by predict and compare (plan's are the plan request's). */
const workloadShape = {
  workload: id,
  batch: countIn(L.batch).optional(),
  seq: countIn(L.seq).optional(),
  image: countIn(L.image).optional(),
  /** Catalog models: the dtype to build them in (the CLI's --dtype). */
  dtype: CATALOG_DTYPE.optional(),
  dims,
  inputs,
};
const mode = z.enum(MODES);
const predictorNames = z.array(z.enum(PREDICTOR_NAMES)).min(1);
/** The predictors training makes (core/predictor/predictor-names.ts), for the app to name. */
export { PREDICTOR_NAMES };
/** The LoRA targets and fine-tuning stacks the app offers (`plan:create`'s and `workload:fit`'s finetune). */
export const LORA_TARGET_NAMES = LORA_TARGETS;
export const FINETUNE_STACK_CHOICES = FINETUNE_STACK_NAMES;
export { MAX_LORA_RANK };
/** The training stacks the app offers (`plan:create`'s stack; core/planner/stacks/). */
export { TRAINING_STACK_NAMES };
export type { TrainingStack } from '../core/planner/stacks/stack-names.js';
/** The formats a served model's weights may be stored in (`plan:create`'s weights). */
export const WEIGHT_FORMAT_NAMES = Object.keys(WEIGHT_FORMATS) as [WeightFormat, ...WeightFormat[]];

/** What the app's engine picker offers: every engine, auto (by the weight format) and ideal (the kernel roofline). */
export { ENGINE_CHOICES };
export type { EngineChoice } from '../core/engines/engine-names.js';

/** Each serving engine's title (the app's export tab names the plan's engine). */
export const ENGINE_TITLES = Object.fromEntries(ENGINE_NAMES.map((e) => [e, ENGINES[e].title])) as Record<
  EngineName,
  string
>;

/** What the app's Serving view offers, read off the request's schema: the engines, the latencies an SLO caps, the percentiles. */
export const SERVING_ENGINE_CHOICES = SERVING_PLAN_REQUEST.shape.engine.unwrap().options;
const SLO_CAP_SHAPE = SERVING_PLAN_REQUEST.shape.slo.element.shape;
export const SLO_METRIC_NAMES = SLO_CAP_SHAPE.metric.options;
export const SLO_PERCENTILE_NAMES = SLO_CAP_SHAPE.percentile.options;

/**
 * Most bytes of a serving trace the app sends (`serving:plan`'s `trace`): a file chosen in the browser,
 * sent as its text, so one request works over HTTP (which never reads a path on the server) and in the
 * desktop app alike; half the HTTP body cap (16 MiB), leaving room for JSON's escapes. A plan replays only
 * a trace's first `requests` rows (default 200), so a larger trace can be cut to its head.
 */
export const SERVING_TRACE_MAX_BYTES = 8 * 2 ** 20;
const SERVING_TRACE = z.strictObject({
  fileName: z.string().min(1).max(500),
  text: z.string().min(1).max(SERVING_TRACE_MAX_BYTES),
});

/** A job's handle: progress arrives as `job:event`s, the answer with `job:get`. */
export interface JobStarted {
  jobId: string;
}

/** `channel<Response>()(requestSchema)`: the request type comes from its schema. */
function channel<Res>() {
  return <Req extends z.ZodType>(request: Req) => ({ request, response: z.custom<Res>() });
}

export const CHANNELS = {
  'app:info': channel<AppInfo>()(z.strictObject({})),

  'machine:list': channel<MachineSummaryView[]>()(z.strictObject({})),
  /** The local machine when no id is given; null when none was probed yet. */
  'machine:get': channel<MachineView | null>()(z.strictObject({ id: id.optional() })),
  'machine:probe': channel<MachineView>()(z.strictObject({})),
  /** A profile file: its text, or (web mode) the id `POST /api/upload` answered for its bytes. */
  'machine:import': channel<ImportView>()(
    z
      .strictObject({
        fileName: z.string().min(1).max(500),
        text: z.string().max(LIMITS.maxFileBytes).optional(),
        uploadId: uploadId.optional(),
        label: z.string().min(1).max(100).optional(),
        replace: z.boolean().optional(),
      })
      .refine((r) => (r.text === undefined) !== (r.uploadId === undefined), 'give either text or uploadId'),
  ),
  'machine:export': channel<ExportView>()(z.strictObject({ id: id.optional() })),

  /** Imported machines only (with their runs, measurements and predictors). */
  'machine:remove': channel<{ id: string; label: string }>()(z.strictObject({ id })),
  /**
   * Two or more machines side by side (`pipedejavu compare`): each profiled device's roofline,
   * efficiency per op family and, with a workload, its predicted time.
   */
  'machine:compare': channel<ComparisonView>()(
    z.strictObject({
      machines: z
        .array(id)
        .min(2, 'at least two to compare')
        .max(64)
        .refine((xs) => new Set(xs).size === xs.length, 'each machine once'),
      workload: id.optional(),
      mode: mode.optional(),
      batch: workloadShape.batch,
      seq: workloadShape.seq,
      image: workloadShape.image,
    }),
  ),

  'profile:runs': channel<RunView[]>()(z.strictObject({ machineId: id.optional() })),
  'profile:roofline': channel<RooflineView[]>()(z.strictObject({ machineId: id.optional() })),
  'profile:start': channel<JobStarted>()(
    z.strictObject({
      device: z.string().regex(/^(all|cpu|cuda:\d+|webgpu:\d+)$/, 'device: cpu, cuda:N, webgpu:N or all'),
      suite: z.enum(['quick', 'standard', 'thorough']),
      threads: z.array(countIn(L.threads)).min(1).max(8).optional(),
      /** ONNX Runtime (default), PyTorch, or both. */
      backend: z.enum(['ort', 'torch', 'all']).optional(),
    }),
  ),

  /** What profiling would take here, before it starts: the estimate the CLI's start line gives. */
  'profile:estimate': channel<ProfileEstimateView>()(
    z.strictObject({
      device: z.string().regex(/^(all|cpu|cuda:\d+|webgpu:\d+)$/, 'device: cpu, cuda:N, webgpu:N or all'),
      suite: z.enum(['quick', 'standard', 'thorough']),
      threads: z.array(countIn(L.threads)).min(1).max(8).optional(),
      backend: z.enum(['ort', 'torch', 'all']).optional(),
    }),
  ),

  'predictor:list': channel<PredictorView[]>()(z.strictObject({})),
  /**
   * `predictors`: which to train (default all); `models` is its old name, still accepted (the job's log says it is
   * deprecated).
   */
  'predictor:train': channel<JobStarted>()(
    z.strictObject({
      predictors: predictorNames.optional(),
      /** @deprecated the old name of `predictors`. */
      models: predictorNames.optional(),
    }),
  ),
  'predictor:evaluate': channel<JobStarted>()(
    z.strictObject({ k: countIn(L.folds).optional(), sklearn: z.boolean().optional() }),
  ),
  /** The last evaluation report (null before any). */
  'predictor:report': channel<EvaluationView | null>()(z.strictObject({})),

  'workload:list': channel<WorkloadSummaryView[]>()(z.strictObject({})),
  'workload:catalog': channel<CatalogSummary[]>()(z.strictObject({})),
  /**
   * An ONNX file: a path on the machine running the core (Electron, CLI) or its bytes (web mode);
   * or a Hugging Face model folder as its config.json and safetensors headers (`hfFolder`, no
   * weights; `fileName` is the folder's name).
   */
  'workload:add': channel<WorkloadSummaryView>()(
    z
      .strictObject({
        fileName: z.string().min(1).max(500),
        path: z.string().min(1).max(4096).optional(),
        // A small model's bytes, within an HTTP request (MAX_BODY_BYTES); larger ones are uploaded.
        dataBase64: z
          .string()
          .max(16 * 2 ** 20)
          .optional(),
        name: z
          .string()
          .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'name: letters, digits, . _ -')
          .optional(),
        dims,
        inputs,
        uploadId: uploadId.optional(),
        hfFolder: hfFolder.optional(),
        replace: z.boolean().optional(),
      })
      .refine(
        (r) => [r.path, r.dataBase64, r.uploadId, r.hfFolder].filter((x) => x !== undefined).length === 1,
        'give one of path, dataBase64, uploadId or hfFolder',
      ),
  ),
  'workload:predict': channel<WorkloadPredictionView>()(
    z.strictObject({ ...workloadShape, mode, machineId: id.optional() }),
  ),
  /** A workload's memory per serving format or training setup, and the datasheet GPUs it fits on. */
  'workload:fit': channel<FitView>()(
    z.strictObject({
      workload: id,
      mode: z.enum(['inference', 'training', 'finetune']),
      context: countIn(L.context).optional(),
      batch: countIn(L.batch).optional(),
      gpus: z.array(z.string().min(1).max(TEXT_LIMITS.gpuName)).max(64).optional(),
      engine: z.enum(ENGINE_CHOICES).optional(),
      // Mode finetune: rank, alpha, targets and stack of both rows (LoRA and QLoRA); absent: the defaults.
      finetune: FINETUNE_REQUEST.omit({ adapter: true }).optional(),
    }),
  ),
  'workload:remove': channel<{ name: string }>()(z.strictObject({ name: id })),
  /** Runs the real model here on the CPU and compares with the prediction. */
  'workload:measure': channel<JobStarted>()(z.strictObject({ workload: id, threads: countIn(L.threads).optional() })),

  /**
   * The plan request (core/planner/plan-request.ts) less the fields only a local caller gives, its
   * texts bounded as a network peer's are, its devices always given, and its load a concurrency or a
   * rate. A batch left out is the service's default, which the plan's assumptions mark as one.
   */
  'plan:create': channel<JobStarted>()(
    PLAN_REQUEST.omit(LOCAL_PLAN_FIELDS).extend({
      workload: id,
      batch: countIn(L.batch).optional(),
      dims,
      inputs,
      devices: deviceList,
      machine: id.optional(),
      // Datasheet GPUs, one entry per GPU: the app's picker sends up to 64 of each.
      virtual: z.array(z.string().min(1).max(TEXT_LIMITS.gpuName)).max(256).optional(),
      network: z.string().min(1).max(TEXT_LIMITS.network).optional(),
      layout: z.string().min(1).max(TEXT_LIMITS.layout).optional(),
      load: z.discriminatedUnion('kind', [CONCURRENCY_LOAD, RATE_LOAD]).optional(),
    }),
  ),

  /**
   * Serving capacity at an SLO (`pipedejavu serve-plan`): the cheapest deployments (GPU kind, GPUs
   * per replica, weights, replicas) that serve `rate` requests/s within the latency caps, each with
   * its percentiles, band, cost, breaking rate and latency-vs-rate curve; the closest when none meets.
   * `trace`: a JSONL or ShareGPT trace's text in place of `prompt`, `output` and `burst`; with a JSONL
   * trace and no `rate`, the trace's own mean rate (as `serve-plan --trace FILE` without --rate).
   */
  'serving:plan': channel<ServingPlanView>()(
    SERVING_PLAN_REQUEST.extend({ workload: id, trace: SERVING_TRACE.optional() }).refine(
      (r) => r.rate !== undefined || r.trace !== undefined,
      { path: ['rate'], message: "give a rate, or a JSONL trace whose arrivals set it (the trace's own mean rate)" },
    ),
  ),

  'job:list': channel<JobView[]>()(z.strictObject({})),
  'job:get': channel<JobView>()(z.strictObject({ jobId: id })),
  'job:cancel': channel<{ cancelled: boolean }>()(z.strictObject({ jobId: id })),

  /** Native dialogs (Electron only): pick a file to read, or where to save text. */
  'dialog:open': channel<{ fileName: string; path: string; text: string | null } | null>()(
    z.strictObject({ purpose: z.enum(['profile', 'onnx']) }),
  ),
  'dialog:save': channel<{ path: string } | null>()(
    z.strictObject({ fileName: z.string().min(1).max(500), text: z.string().max(256 * 2 ** 20) }),
  ),
} as const;

export type Channels = typeof CHANNELS;
export type ChannelName = keyof Channels;
export type ApiRequest<C extends ChannelName> = z.input<Channels[C]['request']>;
export type ApiResponse<C extends ChannelName> = z.output<Channels[C]['response']>;

export const CHANNEL_NAMES: readonly ChannelName[] = CHANNEL_NAME_LIST;
export { isChannelName, JOB_EVENT_CHANNEL };

// The name list and the table must hold the same channels (checked both ways at compile time).
type _NamesMatch = Expect<Equal<ChannelName, ChannelNameFromList>>;

/** Events pushed to the renderer (IPC `job:event`, HTTP server-sent events). */

export interface JobEvent {
  jobId: string;
  type: 'progress' | 'log' | 'state';
  /** The job as it is now. `log` carries only the new line, `progress` no result. */
  job: Omit<import('./view-models.js').JobView, 'result' | 'log'>;
  line?: string;
  /** A measured kernel (profile jobs): live results. */
  kernel?: {
    id: string;
    /** The profiled target ("cpu, 1 thread"): the same kernel on two targets is two kernels. */
    target?: string;
    family: string;
    status: import('./view-models.js').KernelStatus;
    medianUs: number | null;
  };
}
