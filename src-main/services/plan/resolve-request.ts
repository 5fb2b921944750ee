/**
 * A plan request resolved, in stages, before plan-problem.ts turns it into the planning problem:
 * 1. a described model filled in (withDescribedModel: a file the CLI read, a stored Hugging Face
 *    folder), as the user would have written it: the decoder, and when serving without --weights
 *    the format its weights are stored in;
 * 2. the service's defaults applied (withDefaults);
 * 3. the workload built and the devices found, with every assumption the plan rests on named
 *    (resolvePlanRequest): the sequence the workload is built at, its compute dtype, the serving
 *    engine, the fine-tuning spec (its stack among them) and the batch searched.
 */
import { catalogNames, type CatalogEntry } from '../../core/catalog/index.js';
import type { Dtype } from '../../core/domain/measurement.js';
import { UserError } from '../../core/errors.js';
import { DTYPE_BYTES } from '../../core/domain/dtypes.js';
import type { PlanRequest } from '../../core/planner/plan-request.js';
import { plannedModel } from '../../core/planner/problem/planned-model.js';
import { withoutCpus } from '../../core/planner/search/device-selection.js';
import type { ServedDecoder } from '../../core/planner/serving/served-decoder.js';
import type { FinetuneSpec } from '../../core/workload/finetune.js';
import type { WeightFormat } from '../../core/workload/generation.js';
import type { Workload } from '../../core/workload/types.js';
import type { Database } from '../../adapters/store/types.js';
import { describedEntry, isExplicitPath, resolveWorkload, storedWorkload } from '../workload/workload-service.js';
import { finetuneTarget } from './finetune-target.js';
import { trainingStackOf } from './plan-stack.js';
import type { StackRule } from '../../core/planner/stacks/stack-rule.js';
import { planDevices, type PlanDevices } from './plan-devices.js';
import { servedFormat, servingEngine, type ResolvedEngine } from './serving-engine.js';
import { checkWeights, defaultBatch, searchedBatch, servedDecoderOf, unusedServingOptions } from './serving-plan.js';

/** A model described apart from a graph: its architecture, and the format its weights are stored in (null: unsaid). */
export interface DescribedModel {
  entry: CatalogEntry;
  weights: WeightFormat | null;
}

/**
 * The request with a described model (a GGUF header, a config.json, a stored folder's description)
 * filled in: the decoder, and when serving without --weights the format its weights are stored in,
 * a float format also the dtype unless --dtype is given.
 */
export function withDescribedModel(req: PlanRequest, { entry, weights }: DescribedModel): PlanRequest {
  if (req.mode !== 'inference' || req.weights !== undefined || weights === null) return { ...req, decoder: entry };
  const float = weights === 'fp32' || weights === 'fp16' || weights === 'bf16';
  return { ...req, decoder: entry, weights, ...(req.dtype === undefined && float ? { dtype: weights } : {}) };
}

/**
 * A stored Hugging Face folder's description, to plan it as the decoder it describes, as the CLI plans
 * a folder named by path (a served decoder, with its engine and serving launchers; served without
 * --weights, in the format its safetensors store); null for anything else.
 */
export function storedDescription(db: Database, req: Pick<PlanRequest, 'decoder' | 'workload'>): DescribedModel | null {
  if (req.decoder !== undefined || isExplicitPath(req.workload) || catalogNames().includes(req.workload)) return null;
  const entry = describedEntry(db, req.workload);
  if (!entry) return null;
  return { entry, weights: storedWorkload(db, req.workload)?.described?.weights ?? null };
}

/** What the service assumes when a request leaves these out (the batch: 1 sequence serving, 8 samples training). */
const PLAN_DEFAULTS = { devices: 'all', topN: 5, offload: 'auto', recompute: 'auto', kvCache: 'auto' } as const;

/** A plan request with every default the service applies filled in. */
export type DefaultedPlanRequest = PlanRequest &
  Required<Pick<PlanRequest, 'batch' | 'dims' | 'inputs' | keyof typeof PLAN_DEFAULTS>>;

export function withDefaults(req: PlanRequest): DefaultedPlanRequest {
  return {
    ...req,
    batch: req.batch ?? defaultBatch(req.mode),
    devices: req.devices ?? PLAN_DEFAULTS.devices,
    topN: req.topN ?? PLAN_DEFAULTS.topN,
    offload: req.offload ?? PLAN_DEFAULTS.offload,
    recompute: req.recompute ?? PLAN_DEFAULTS.recompute,
    kvCache: req.kvCache ?? PLAN_DEFAULTS.kvCache,
    dims: req.dims ?? {},
    inputs: req.inputs ?? {},
  };
}

/** What a plan rests on that the request may have left unsaid, each named. */
export interface PlanAssumptions {
  /** Tokens per sequence the workload is built at: a served decoder's prompt, else the request's seq (undefined: the model's). */
  sequence: number | undefined;
  /** The dtype its weight GEMMs compute in as built: --dtype, a float stored format, else the catalog's for the mode. */
  dtype: Dtype;
  /** A served decoder's engine: the request's choice resolved against the weight format, with its rules; null when not serving. */
  engine: ResolvedEngine | null;
  /** Fine-tuning with adapters: the spec with its defaults (the stack, rank, alpha and targets); null otherwise. */
  finetune: FinetuneSpec | null;
  /** A served decoder's prompt, output tokens and objective; null for anything else. */
  served: ServedDecoder | null;
  /** The batch searched: the request's, or under the throughput objective at least one sequence per device. */
  batch: number;
  /** Training: the stack asked (--stack) whose rules the search and exports follow; null: any (stacks.ts NO_STACK). */
  stack: StackRule | null;
}

/** A request resolved against the store: its workload built, its devices found, its assumptions named. */
export interface ResolvedPlanRequest {
  /** The request as asked, with its defaults: what a suggestion changes and plans again. */
  request: DefaultedPlanRequest;
  assumptions: PlanAssumptions;
  workload: Workload;
  /** The planned model's description (a fine-tuning target's, a decoder's, a catalog entry); null for an ONNX graph. */
  model: CatalogEntry | null;
  devices: PlanDevices;
}

/**
 * Sequences a served decoder's prefill is predicted at (then per sequence): kernels are priced at
 * the rows they run with, so a batch of short prompts is not priced as one prompt's small GEMMs
 * times the batch; beyond 64 sequences the GEMMs are as efficient as they get.
 */
const SERVED_PREDICTION_BATCH = 64;

/** The dtype a workload's weight GEMMs compute in (the first node with FLOPs; fp16 when none has). */
function computeDtype(workload: Workload): Dtype {
  return workload.nodes.find((n) => n.flops > 0)?.dtype ?? 'fp16';
}

/**
 * A fine-tuning request resolved against its model: the description (catalog entry, config.json,
 * a stored Hugging Face folder) and the spec with its defaults; null when not fine-tuning.
 */
function finetuneOf(
  db: Database,
  req: Pick<PlanRequest, 'finetune' | 'mode' | 'offload' | 'workload' | 'decoder'>,
): { decoder: CatalogEntry; spec: FinetuneSpec } | null {
  if (!req.finetune) return null;
  if (req.mode !== 'training') throw new Error('fine-tuning plans are training plans');
  if (req.offload === 'yes')
    throw new UserError(
      "--offload yes: fine-tuning keeps the adapters' small optimizer state on the GPU; offload is not planned for it (leave --offload out)",
    );
  return finetuneTarget(db, req.workload, req.decoder, req.finetune);
}

export function resolvePlanRequest(db: Database, asked: PlanRequest, warnings: string[]): ResolvedPlanRequest {
  const request = withDefaults(asked);
  const stack = trainingStackOf(request);
  const tuned = finetuneOf(db, request);
  // Fine-tuning plans the model's description (its blocks split, recomputed and adapted).
  const decoder = tuned?.decoder ?? request.decoder;
  // A served decoder's workload is its prompt's prefill; its KV cache holds prompt + output tokens.
  const served = servedDecoderOf(request, plannedModel(decoder, request.workload));
  warnings.push(...unusedServingOptions(request, served));
  const sequence = served?.prompt ?? request.seq;
  const { workload } = resolveWorkload(db, request.workload, {
    batch: served ? Math.min(request.batch, SERVED_PREDICTION_BATCH) : 1,
    ...(sequence !== undefined ? { seq: sequence } : {}),
    ...(request.image !== undefined ? { image: request.image } : {}),
    ...(request.dtype !== undefined ? { dtype: request.dtype } : {}),
    dims: request.dims,
    inputs: request.inputs,
    mode: request.mode,
    ...(decoder ? { decoder } : {}),
    ...(tuned ? { finetune: tuned.spec } : {}),
  });
  if (workload.layers.length === 0) throw new UserError(`${workload.name} has no layers to place`);
  const model = plannedModel(decoder, workload.name);
  // A stack's rule names the fused attention kernel it runs (FlashAttention-2 is slower on Hopper).
  const all = planDevices(db, { ...request, fusedAttention: stack?.attention.fused }, model, warnings);
  const devices = tuned ? withoutCpus(all, warnings) : all;
  const dtype = computeDtype(workload);
  warnings.push(
    ...checkWeights(
      request,
      dtype,
      DTYPE_BYTES[dtype],
      devices.candidates.map((c) => c.device),
    ),
  );
  const engine = served ? servingEngine(db, request, model, servedFormat(request.weights, dtype)) : null;
  const batch = searchedBatch(served, request.batch, devices.candidates.length, warnings);
  return {
    request,
    assumptions: { sequence, dtype, engine, finetune: tuned?.spec ?? null, served, batch, stack },
    workload,
    model,
    devices,
  };
}
