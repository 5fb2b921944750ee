/**
 * The best plan's launch exports (core/planner/exports/): a served decoder's engine launch line, or
 * training's torchrun, DeepSpeed, Megatron-LM, Slurm, accelerate and PEFT files, each naming the
 * model as the user named it.
 */
import { catalogNames, getCatalogEntry } from '../../core/catalog/index.js';
import { peftTargetModules } from '../../core/catalog/lora.js';
import { memoryUtilization } from '../../core/engines/engine-memory.js';
import { exportPlan, type ExportInput, type PlanExports } from '../../core/planner/exports/export-plan.js';
import type { PlanRequest } from '../../core/planner/plan-request.js';
import { exportPrecision } from '../../core/planner/problem/plan-precision.js';
import { exportModelOf } from '../../core/planner/exports/python/model-config.js';
import type { RankedPlan } from '../../core/planner/search/plan-ranking.js';
import type { ServingFigures } from '../../core/planner/serving/serving.js';
import type { Database } from '../../adapters/store/types.js';
import { storedWorkload } from '../workload/workload-service.js';
import type { DefaultedPlanRequest, PlanAssumptions, ResolvedPlanRequest } from './resolve-request.js';
import { pricesFlashAttention } from './serving-engine.js';

/** What the exports read of a resolved request. */
interface ExportsInput extends Pick<ResolvedPlanRequest, 'workload' | 'model'> {
  request: Pick<
    DefaultedPlanRequest,
    'workload' | 'mode' | 'weights' | 'engine' | 'batch' | 'kvCache' | 'engineSettings' | 'dtype'
  >;
  assumptions: Pick<PlanAssumptions, 'finetune' | 'served' | 'engine' | 'stack'>;
}

/** The model as the user named it: a catalog model's Hugging Face id, a stored workload's file, else the name given. */
function modelName(db: Database, workload: PlanRequest['workload']): string {
  if (catalogNames().includes(workload))
    return /([\w.-]+\/[\w.-]+) config\.json/.exec(getCatalogEntry(workload).config)?.[1] ?? workload;
  return storedWorkload(db, workload)?.filePath ?? workload;
}

/**
 * What a fine-tuning plan's exports load: the Hugging Face id of a catalog model (from its config
 * source), a stored folder's path, or the workload as given; with the architecture's module names.
 */
function finetuneExport(
  db: Database,
  { request, workload, model, assumptions }: ExportsInput,
): Pick<ExportInput, 'finetune'> {
  const spec = assumptions.finetune;
  if (!spec) return {};
  return {
    finetune: {
      spec,
      model: modelName(db, request.workload),
      ...(workload.bindings.seq !== undefined ? { seqLen: workload.bindings.seq } : {}),
      ...(model ? { targetModules: peftTargetModules(model.family, spec.targets) } : {}),
    },
  };
}

/** The decoder the training scripts build: the planned model's description, at the planned sequence. */
function trainingModel(db: Database, { request, workload, model }: ExportsInput): Pick<ExportInput, 'model'> {
  if (!model) return {};
  const seq = workload.bindings.seq ?? (model.kind === 'transformer' ? model.defaults.seq : undefined) ?? 2048;
  return { model: exportModelOf(model, modelName(db, request.workload), seq) };
}

/**
 * Serving a decoder: the engine and model its launch line names (exportPlan's serving kind), and
 * the engine model's numbers for it: the KV cache's dtype, the memory share the engine was priced
 * with, and the concurrent sequences the plan serves (under the throughput objective, the most its
 * KV cache holds per replica).
 */
function servingExport(
  db: Database,
  { request: req, assumptions }: ExportsInput,
  figures: ServingFigures | undefined,
  replicas: number,
  tp: number,
): Pick<ExportInput, 'serving' | 'servingLaunch'> {
  const { served, engine } = assumptions;
  if (!served) return {};
  const rules = engine?.serving?.rules;
  const concurrent =
    served.objective === 'throughput' && figures && figures.maxBatch > 0
      ? Math.ceil(figures.maxBatch / replicas)
      : Math.max(1, Math.ceil(req.batch / replicas));
  return {
    serving: { engine: req.engine, model: modelName(db, req.workload), prompt: served.prompt, tokens: served.tokens },
    servingLaunch: {
      kvCacheDtype: req.kvCache,
      maxNumSeqs: concurrent,
      ...(rules ? { gpuMemoryUtilization: rules.memory.kvShareOfFree ?? memoryUtilization(rules.memory, tp) } : {}),
      ...(req.engineSettings?.maxBatchedTokens !== undefined
        ? { maxBatchedTokens: req.engineSettings.maxBatchedTokens }
        : {}),
      ...(req.engineSettings?.schedulerSteps !== undefined
        ? { schedulerSteps: req.engineSettings.schedulerSteps }
        : {}),
      // The attention the plan priced (llama.cpp -fa on or off), so the line runs it.
      ...(rules && pricesFlashAttention(rules) !== undefined ? { flashAttention: pricesFlashAttention(rules) } : {}),
    },
  };
}

/** The best plan's exports; `figures`: its serving figures when a decoder is served. */
export function planExports(
  db: Database,
  input: ExportsInput,
  best: RankedPlan,
  figures: ServingFigures | undefined,
): PlanExports {
  const first = best.plan.stages[0];
  const replicas = Math.max(1, Math.floor((first?.devices.length ?? 1) / (first?.tp ?? 1)));
  return exportPlan({
    plan: best.plan,
    problem: best.problem,
    ...exportPrecision(input.request, input.workload, best.problem.devices),
    ...trainingModel(db, input),
    ...finetuneExport(db, input),
    ...servingExport(db, input, figures, replicas, first?.tp ?? 1),
    ...(input.assumptions.stack ? { launcher: input.assumptions.stack.exports } : {}),
    // The step the stack's rule prices, as the torch script runs it (fused AdamW, clip_grad_norm_).
    ...(input.assumptions.stack?.optimizerStep.torch ? { optimizer: input.assumptions.stack.optimizerStep.torch } : {}),
  });
}
