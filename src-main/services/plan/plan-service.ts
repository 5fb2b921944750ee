/**
 * `pipedejavu plan`: a workload and a set of devices (this machine's, an imported
 * machine's, datasheet-only GPUs) become a planning problem: per-layer times from the
 * predictor on each device, memory per device, alpha-beta links from the probed
 * topology and the stated network. The searches rank plans; the best one is
 * simulated and exported: a served decoder to its engine's launch line, training to torchrun,
 * DeepSpeed, Megatron-LM, Slurm and accelerate.
 *
 * This file orders the steps: the devices (plan-devices.ts), the problem (plan-problem.ts), the
 * searches, the serving ranking, the suggestions and the exports. The builders are core/planner's.
 */
import { finetuneTarget } from './finetune-target.js';
import { catalogNames, getCatalogEntry, type CatalogEntry } from '../../core/catalog/index.js';
import type { FinetuneSpec } from '../../core/workload/finetune.js';
import { peftTargetModules } from '../../core/catalog/lora.js';
import { DTYPE_BYTES } from '../../core/kernels/cost.js';
import { UserError } from '../../core/errors.js';
import type { Workload } from '../../core/workload/types.js';
import { createCostModel, type CostModel } from '../../core/planner/cost/cost-model.js';
import { groupRepeated } from '../../core/text/grouped.js';
import { count } from '../../core/text/plural.js';
import { offloadPolicy, offloadSettings, searchRanked, type RankedPlans } from '../../core/planner/search/plan-ranking.js';
import { exportPlan, type ExportInput } from '../../core/planner/exports/export-plan.js';
import type { Plan, PlanDevice, PlanProblem } from '../../core/planner/types.js';
import { checkExpertsFit } from '../../core/planner/problem/expert-layers.js';
import { measuredCollectives } from '../../core/planner/problem/measured-network.js';
import { withoutCpus } from '../../core/planner/search/device-selection.js';
import { offloadHostMemory } from '../../core/planner/memory/offload-host-memory.js';
import { timelineOf } from '../../core/planner/plan-timeline.js';
import { servingOf } from '../../core/planner/serving/plan-serving.js';
import { exportPrecision } from '../../core/planner/problem/plan-precision.js';
import { plannedModel } from '../../core/planner/problem/planned-model.js';
import type { ServedDecoder } from '../../core/planner/serving/served-decoder.js';
import type { ServingFigures } from '../../core/planner/serving/serving.js';
import type { StepBand } from '../../core/planner/plan-summary.js';
import { SUGGESTION_TIME_MS, suggestChanges } from './plan-suggestions.js';
import { layoutAnswer, type LayoutAnswer } from './layout-plan.js';
import { parseLayout, type Layout } from '../../core/planner/layout.js';
import type { Database } from '../../adapters/store/types.js';
import { describedEntry, isExplicitPath, storedWorkload, resolveWorkload } from '../workload/workload-service.js';
import { bandFactors, stepBand } from './plan-bands.js';
import {
  SERVING_CANDIDATES,
  checkWeights,
  rankServing,
  searchedBatch,
  servedDecoderOf,
  unusedServingOptions,
  withOneStagePlans,
} from './serving-plan.js';
import { planDevices, type PlanDevices } from './plan-devices.js';
import { planProblem } from './plan-problem.js';
import { servedFormat, servingEngine, type ResolvedEngine } from './serving-engine.js';
import { engineUsableBytes } from '../../core/engines/engine-memory.js';
import type { ServingEngine } from '../../core/planner/serving/plan-serving.js';
import type { PlanRequest, PlanResponse } from './plan-request.js';

export { planSummary, type PlanRequest, type PlanResponse } from './plan-request.js';

/** Searches with and without optimizer offload as the request and the devices allow, and ranks the plans. */
function searchPlans(
  req: PlanRequest,
  problem: PlanProblem,
  devices: PlanDevices,
  costModel: CostModel,
  warnings: string[],
): RankedPlans {
  // Adapters' optimizer state is small: offloading it to the CPU is not searched when fine-tuning.
  const offload = req.finetune ? 'no' : offloadPolicy(req.mode, problem.devices, req.offload);
  const cpu = devices.candidates.find((c) => c.device.kind === 'cpu' && c.features.bandwidthGBps > 0);
  const settings =
    offload === 'no'
      ? null
      : offloadSettings(
          problem.devices,
          devices.machineLinks,
          cpu?.features.bandwidthGBps ?? null,
          warnings,
          offloadHostMemory(problem.devices, devices.hostMemory, warnings),
        );
  return searchRanked(problem, costModel, {
    topN: req.topN ?? 5,
    offload,
    settings,
    recompute: req.recompute ?? 'auto',
    zero: req.zero ?? 'auto',
  });
}

/** A request made ready to search: its workload, devices, problem and cost model. */
interface Prepared {
  workload: Workload;
  devices: PlanDevices;
  problem: PlanProblem;
  costModel: CostModel;
  /** A served decoder's prompt, output tokens and objective; null for anything else. */
  served: ServedDecoder | null;
  /** Fine-tuning with adapters: the spec with its defaults; null otherwise. */
  finetune: FinetuneSpec | null;
  /** Fine-tuning: the model the adapters go on (its family names the PEFT modules); null otherwise. */
  tunedModel: CatalogEntry | null;
  /** A served decoder's engine (null when not serving). */
  engine: ResolvedEngine | null;
}

/** A request searched: the prepared request and its ranked plans. */
interface Searched extends Prepared {
  ranked: RankedPlans;
}

/**
 * Sequences a served decoder's prefill is predicted at (then per sequence): kernels are priced at
 * the rows they run with, so a batch of short prompts is not priced as one prompt's small GEMMs
 * times the batch; beyond 64 sequences the GEMMs are as efficient as they get.
 */
const SERVED_PREDICTION_BATCH = 64;

/**
 * A fine-tuning request resolved against its model: the description (catalog entry, config.json,
 * a stored Hugging Face folder) and the spec with its defaults; null when not fine-tuning.
 */
function finetuneOf(db: Database, req: PlanRequest): { decoder: CatalogEntry; spec: FinetuneSpec } | null {
  if (!req.finetune) return null;
  if (req.mode !== 'training') throw new Error('fine-tuning plans are training plans');
  if (req.offload === 'yes')
    throw new UserError(
      "--offload yes: fine-tuning keeps the adapters' small optimizer state on the GPU; offload is not planned for it (leave --offload out)",
    );
  return finetuneTarget(db, req.workload, req.decoder, req.finetune);
}

function prepareRequest(db: Database, asked: PlanRequest, warnings: string[]): Prepared {
  const tuned = finetuneOf(db, asked);
  // Fine-tuning plans the model's description (its blocks split, recomputed and adapted).
  const req = tuned ? { ...asked, decoder: tuned.decoder } : asked;
  // A served decoder's workload is its prompt's prefill; its KV cache holds prompt + output tokens.
  const served = servedDecoderOf(req, plannedModel(req.decoder, req.workload));
  warnings.push(...unusedServingOptions(req, served));
  const seq = served?.prompt ?? req.seq;
  const { workload } = resolveWorkload(db, req.workload, {
    batch: served ? Math.min(req.batch, SERVED_PREDICTION_BATCH) : 1,
    ...(seq !== undefined ? { seq } : {}),
    ...(req.image !== undefined ? { image: req.image } : {}),
    ...(req.dtype !== undefined ? { dtype: req.dtype } : {}),
    dims: req.dims ?? {},
    inputs: req.inputs ?? {},
    mode: req.mode,
    ...(req.decoder ? { decoder: req.decoder } : {}),
    ...(tuned ? { finetune: tuned.spec } : {}),
  });
  if (workload.layers.length === 0) throw new UserError(`${workload.name} has no layers to place`);
  const entry = plannedModel(req.decoder, workload.name);
  const all = planDevices(db, req, entry, warnings);
  const devices = tuned ? withoutCpus(all, warnings) : all;
  const dtype = workload.nodes.find((n) => n.flops > 0)?.dtype ?? 'fp16';
  warnings.push(
    ...checkWeights(
      req,
      dtype,
      DTYPE_BYTES[dtype],
      devices.candidates.map((c) => c.device),
    ),
  );
  const engine = served ? servingEngine(db, req, entry, servedFormat(req.weights, dtype)) : null;
  const batch = searchedBatch(served, req.batch, devices.candidates.length, warnings);
  const planned = planProblem(db, { ...req, batch }, workload, entry, devices, warnings, tuned?.spec ?? null);
  const problem = engine?.serving ? withEngineMemory(planned, engine.serving) : planned;
  checkExpertsFit(workload, problem);
  const measured = measuredCollectives(req.nccl ?? [], problem.devices, warnings);
  const costModel = createCostModel(problem.links, measured);
  return {
    workload,
    devices,
    problem,
    costModel,
    served,
    finetune: tuned?.spec ?? null,
    tunedModel: tuned?.decoder ?? null,
    engine,
  };
}

/** A served decoder's GPUs as its engine leaves them: its share of each, less its reserve and activations. */
function withEngineMemory(problem: PlanProblem, engine: ServingEngine): PlanProblem {
  const hidden = engine.entry.hidden;
  return {
    ...problem,
    devices: problem.devices.map((d) =>
      d.kind === 'gpu' ? { ...d, memoryBytes: engineUsableBytes(engine.rules, d.memoryBytes, hidden) } : d,
    ),
  };
}

function searchRequest(db: Database, req: PlanRequest, warnings: string[]): Searched {
  const prepared = prepareRequest(db, req, warnings);
  const { problem, devices, costModel, served } = prepared;
  // Serving plans are ranked by their objective afterwards: search wider than the list the step would rank.
  const wide = served ? { ...req, topN: Math.max(req.topN ?? 5, SERVING_CANDIDATES) } : req;
  const searched = searchPlans(wide, problem, devices, costModel, warnings);
  const ranked = served ? withOneStagePlans(searched, problem, costModel) : searched;
  return { ...prepared, ranked };
}

/** The fastest plan that fits a changed request; null when none does or the change is refused. */
function bestPlanOf(db: Database, req: PlanRequest): Plan | null {
  try {
    return searchRequest(db, { ...req, topN: 1 }, []).ranked.best?.plan ?? null;
  } catch (e) {
    if (e instanceof UserError) return null;
    throw e;
  }
}

/**
 * What a fine-tuning plan's exports load: the Hugging Face id of a catalog model (from its config
 * source), a stored folder's path, or the workload as given; with the architecture's module names.
 */
function finetuneExport(db: Database, req: PlanRequest, searched: Searched): Pick<ExportInput, 'finetune'> {
  const { finetune: spec, workload, tunedModel: entry } = searched;
  if (!spec) return {};
  return {
    finetune: {
      spec,
      model: modelName(db, req),
      ...(workload.bindings.seq !== undefined ? { seqLen: workload.bindings.seq } : {}),
      ...(entry ? { targetModules: peftTargetModules(entry.family, spec.targets) } : {}),
    },
  };
}

/** The model as the user named it: a catalog model's Hugging Face id, a stored workload's file, else the name given. */
function modelName(db: Database, req: PlanRequest): string {
  if (catalogNames().includes(req.workload))
    return /([\w.-]+\/[\w.-]+) config\.json/.exec(getCatalogEntry(req.workload).config)?.[1] ?? req.workload;
  return storedWorkload(db, req.workload)?.filePath ?? req.workload;
}

/**
 * Serving a decoder: the engine and model its launch line names (exportPlan's serving kind), and
 * the engine model's numbers for it: the KV cache's dtype, the memory share the engine was priced
 * with, and the concurrent sequences the plan serves (under the throughput objective, the most its
 * KV cache holds per replica).
 */
function servingExport(
  db: Database,
  req: PlanRequest,
  searched: Prepared,
  figures: ServingFigures | undefined,
  replicas: number,
): Pick<ExportInput, 'serving' | 'servingLaunch'> {
  const { served, engine } = searched;
  if (!served) return {};
  const rules = engine?.serving?.rules;
  const concurrent =
    served.objective === 'throughput' && figures && figures.maxBatch > 0
      ? Math.ceil(figures.maxBatch / replicas)
      : Math.max(1, Math.ceil(req.batch / replicas));
  return {
    serving: { engine: req.engine, model: modelName(db, req), prompt: served.prompt, tokens: served.tokens },
    servingLaunch: {
      kvCacheDtype: req.kvCache ?? 'auto',
      maxNumSeqs: concurrent,
      ...(rules ? { gpuMemoryUtilization: rules.memory.kvShareOfFree ?? rules.memory.utilization } : {}),
      ...(req.engineSettings?.maxBatchedTokens !== undefined
        ? { maxBatchedTokens: req.engineSettings.maxBatchedTokens }
        : {}),
    },
  };
}

/** The request's layout priced beside the best plan (if searched), with its serving figures when a decoder is served. */
function layoutWithServing(layout: Layout, searched: Prepared, best: Plan | null, serves: boolean): LayoutAnswer {
  const { workload, devices, problem, costModel, served } = searched;
  const answer = layoutAnswer(layout, problem, costModel, { workload: workload.name, best });
  const engine = searched.engine?.serving ?? null;
  const figures = serves ? servingOf(served, problem, [answer.plan], devices.candidates, costModel, engine) : null;
  return { ...answer, serving: figures?.[0] ?? null };
}

/** Each plan's step band, from every device's factors (plan-bands.ts). */
function stepBands(
  db: Database,
  plans: readonly Plan[],
  devices: readonly PlanDevice[],
  model: string,
): (StepBand | null)[] {
  const factors = bandFactors(db, devices, model);
  return plans.map((p) => stepBand(p, factors));
}

/**
 * A stored Hugging Face folder is planned as the decoder its description gives, as the CLI plans a
 * folder named by path (a served decoder, with its engine and serving launchers); served without
 * --weights, in the format its safetensors store, a float format also the dtype unless one is given.
 */
function withStoredModel(db: Database, req: PlanRequest): PlanRequest {
  if (req.decoder !== undefined || isExplicitPath(req.workload) || catalogNames().includes(req.workload)) return req;
  const entry = describedEntry(db, req.workload);
  if (!entry) return req;
  const weights = storedWorkload(db, req.workload)?.described?.weights ?? null;
  if (req.mode !== 'inference' || req.weights !== undefined || weights === null) return { ...req, decoder: entry };
  const float = weights === 'fp32' || weights === 'fp16' || weights === 'bf16';
  return { ...req, decoder: entry, weights, ...(req.dtype === undefined && float ? { dtype: weights } : {}) };
}

export function planWorkload(db: Database, given: PlanRequest): PlanResponse {
  const req = withStoredModel(db, given);
  const warnings: string[] = [];
  // A layout that does not parse is refused before the search.
  const layout = req.layout !== undefined ? parseLayout(req.layout) : null;
  const searched = searchRequest(db, req, warnings);
  const { workload, devices, problem, costModel, served } = searched;
  const engine = searched.engine?.serving ?? null;
  const figures = servingOf(served, problem, searched.ranked.result.plans, devices.candidates, costModel, engine);
  const { ranked, serving } =
    served && figures
      ? rankServing(searched.ranked, figures, served.objective, req.topN ?? 5)
      : { ranked: searched.ranked, serving: figures };
  const { result, listed, best } = ranked;
  const bestProblem = best?.problem ?? problem;
  const search = best
    ? null
    : suggestChanges(
        { req, seq: workload.bindings.seq, bytesPerParam: problem.bytesPerParam, devices: problem.devices },
        (changed) => bestPlanOf(db, { ...changed, layout: undefined }),
      );
  const suggestions = search?.suggestions ?? [];
  if (search?.cut) {
    warnings.push(
      `stopped looking for a change that fits after ${SUGGESTION_TIME_MS / 1000} s (${count(search.searched, 'search', 'searches')}); the changes not tried may fit`,
    );
  }
  return {
    workload: workload.name,
    problem: bestProblem,
    result,
    serving,
    served,
    engine: searched.engine?.summary ?? null,
    exports: best
      ? exportPlan({
          plan: best.plan,
          problem: bestProblem,
          ...exportPrecision(req, workload),
          ...finetuneExport(db, req, searched),
          ...servingExport(
            db,
            req,
            searched,
            serving?.[result.plans.indexOf(best.plan)],
            Math.max(1, Math.floor((best.plan.stages[0]?.devices.length ?? 1) / (best.plan.stages[0]?.tp ?? 1))),
          ),
        })
      : null,
    timeline: best ? timelineOf(best, costModel) : [],
    timelines: listed.map((t) => timelineOf(t, costModel)),
    suggestions,
    layout: layout ? layoutWithServing(layout, searched, searched.ranked.best?.plan ?? null, figures !== null) : null,
    finetune: searched.finetune,
    stepBands: stepBands(db, result.plans, problem.devices, workload.name),
    warnings: groupRepeated([...warnings, ...workload.warnings.slice(0, 5)]),
  };
}

/** What `plan --layout ... --no-search` answers: the layout priced alone, with its engine and warnings. */
export interface LayoutPriced {
  workload: string;
  problem: PlanProblem;
  served: ServedDecoder | null;
  engine: PlanResponse['engine'];
  layout: LayoutAnswer;
  warnings: string[];
}

/** The request's layout priced alone, without searching for a better one (fast: one plan priced). */
export function priceLayout(db: Database, req: PlanRequest & { layout: string }): LayoutPriced {
  const warnings: string[] = [];
  const layout = parseLayout(req.layout);
  const prepared = prepareRequest(db, req, warnings);
  return {
    workload: prepared.workload.name,
    problem: prepared.problem,
    served: prepared.served,
    engine: prepared.engine?.summary ?? null,
    layout: layoutWithServing(layout, prepared, null, prepared.served !== null),
    warnings: groupRepeated([...warnings, ...prepared.workload.warnings.slice(0, 5)]),
  };
}

/**
 * Calibration's view of `priceLayout`: the request prepared and its layout placed once, then its
 * serving figures priced again each call with the engine's rules as they are then (bench/engines).
 */
export function layoutRepricer(db: Database, req: PlanRequest & { layout: string }): () => ServingFigures | null {
  const prepared = prepareRequest(db, req, []);
  const { problem, costModel, served, devices, workload } = prepared;
  const answer = layoutAnswer(parseLayout(req.layout), problem, costModel, { workload: workload.name, best: null });
  const entry = plannedModel(req.decoder, workload.name);
  const dtype = workload.nodes.find((n) => n.flops > 0)?.dtype ?? 'fp16';
  return () => {
    const engine = servingEngine(db, req, entry, servedFormat(req.weights, dtype)).serving;
    return servingOf(served, problem, [answer.plan], devices.candidates, costModel, engine)?.[0] ?? null;
  };
}
