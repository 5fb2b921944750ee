/**
 * `pipedejavu plan`: a workload and a set of devices (this machine's, an imported
 * machine's, datasheet-only GPUs) become a planning problem: per-layer times from the
 * predictor on each device, memory per device, alpha-beta links from the probed
 * topology and the stated network. The searches rank plans; the best one is
 * simulated and exported: a served decoder to its engine's launch line, training to torchrun,
 * DeepSpeed, Megatron-LM, Slurm and accelerate.
 *
 * This file orders the stages: the request resolved (resolve-request.ts: its described model, its
 * defaults, its workload, devices and assumptions), the problem (plan-problem.ts), the searches, the
 * serving ranking, the suggestions and the exports (plan-exports.ts). The builders are core/planner's.
 */
import { UserError } from '../../core/errors.js';
import { createCostModel, type CostModel } from '../../core/planner/cost/cost-model.js';
import { groupRepeated } from '../../core/text/grouped.js';
import { count } from '../../core/text/plural.js';
import {
  offloadPolicy,
  offloadSettings,
  searchRanked,
  type RankedPlan,
  type RankedPlans,
} from '../../core/planner/search/plan-ranking.js';
import type { Plan, PlanDevice, PlanProblem, SuggestedPlan } from '../../core/planner/types.js';
import { measuredCollectives } from '../../core/planner/problem/measured-network.js';
import { offloadHostMemory } from '../../core/planner/memory/offload-host-memory.js';
import { timelineOf } from '../../core/planner/plan-timeline.js';
import { servingOf } from '../../core/planner/serving/plan-serving.js';
import type { ServedDecoder } from '../../core/planner/serving/served-decoder.js';
import type { ServingFigures } from '../../core/planner/serving/serving.js';
import type { StepBand } from '../../core/planner/plan-summary.js';
import { SUGGESTION_TIME_MS, suggestChanges, suggestedPlan } from './plan-suggestions.js';
import { layoutAnswer, type LayoutAnswer } from './layout-plan.js';
import { parseLayout, type Layout } from '../../core/planner/layout.js';
import type { Database } from '../../adapters/store/types.js';
import { bandFactors, stepBand } from './plan-bands.js';
import { SERVING_CANDIDATES, rankServing, withOneStagePlans } from './serving-plan.js';
import type { PlanDevices } from './plan-devices.js';
import { planProblem } from './plan-problem.js';
import { checkLayoutStack, stackSearchOptions, trainingStackOf } from './plan-stack.js';
import type { StackRule } from '../../core/planner/stacks/stack-rule.js';
import { planExports } from './plan-exports.js';
import { assumptionsView } from './plan-assumptions.js';
import { servedFormat, servingEngine } from './serving-engine.js';
import {
  resolvePlanRequest,
  withDescribedModel,
  storedDescription,
  type DefaultedPlanRequest,
  type ResolvedPlanRequest,
} from './resolve-request.js';
import type { PlanRequest, PlanResponse } from './plan-request.js';

export { planSummary, type PlanRequest, type PlanResponse } from './plan-request.js';
export { withDescribedModel };

/** What the search reads of a request: the mode, offload, recomputation and ZeRO stage asked, and the stack. */
type SearchRequest = Pick<DefaultedPlanRequest, 'mode' | 'offload' | 'recompute' | 'zero' | 'finetune'> & {
  stack: StackRule | null;
};

/** Searches with and without optimizer offload as the request and the devices allow, and ranks `topN` plans. */
function searchPlans(
  req: SearchRequest,
  topN: number,
  problem: PlanProblem,
  devices: PlanDevices,
  costModel: CostModel,
  warnings: string[],
): RankedPlans {
  const asked = stackSearchOptions(req.stack, req);
  // Adapters' optimizer state is small: offloading it to the CPU is not searched when fine-tuning.
  const offload = req.finetune ? 'no' : offloadPolicy(req.mode, problem.devices, asked.offload);
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
    topN,
    offload,
    settings,
    recompute: asked.recompute,
    zero: asked.zero,
    ...(asked.pipelineZeroStages ? { pipelineZeroStages: asked.pipelineZeroStages } : {}),
  });
}

/** A request made ready to search: resolved, with its problem and cost model. */
interface Prepared extends ResolvedPlanRequest {
  problem: PlanProblem;
  costModel: CostModel;
}

/** A request searched: the prepared request and its ranked plans. */
interface Searched extends Prepared {
  ranked: RankedPlans;
}

function prepareRequest(db: Database, req: PlanRequest, warnings: string[]): Prepared {
  const resolved = resolvePlanRequest(db, req, warnings);
  const problem = planProblem(db, resolved, warnings);
  const measured = measuredCollectives(resolved.request.nccl ?? [], problem.devices, warnings);
  return { ...resolved, problem, costModel: createCostModel(problem.links, measured) };
}

function searchRequest(db: Database, req: PlanRequest, warnings: string[]): Searched {
  const prepared = prepareRequest(db, req, warnings);
  const { request, problem, devices, costModel } = prepared;
  const served = prepared.assumptions.served;
  // Serving plans are ranked by their objective afterwards: search wider than the list the step would rank.
  const topN = served ? Math.max(request.topN, SERVING_CANDIDATES) : request.topN;
  const stack = prepared.assumptions.stack;
  const searched = searchPlans({ ...request, stack }, topN, problem, devices, costModel, warnings);
  const ranked = served ? withOneStagePlans(searched, problem, costModel) : searched;
  return { ...prepared, ranked };
}

/**
 * The searched plans as the answer ranks them: a served decoder's by its objective among those its
 * engine runs, with their serving figures (its own search's best by the step may not run); else as
 * searched, with no figures.
 */
function rankedAnswer(searched: Searched, topN: number): { ranked: RankedPlans; serving: ServingFigures[] | null } {
  const { problem, devices, costModel, assumptions } = searched;
  const { served } = assumptions;
  const engine = assumptions.engine?.serving ?? null;
  const figures = servingOf(served, problem, searched.ranked.result.plans, devices.candidates, costModel, engine);
  return served && figures
    ? rankServing(searched.ranked, figures, served.objective, topN)
    : { ranked: searched.ranked, serving: figures };
}

/**
 * The best plan that fits a changed request, ranked and in the figures of the request's own plans;
 * null when none does or the change is refused. Its load (--concurrency, --rate) is not simulated.
 */
function bestPlanOf(db: Database, req: PlanRequest): SuggestedPlan | null {
  try {
    const { ranked, serving } = rankedAnswer(searchRequest(db, { ...req, topN: 1, load: undefined }, []), 1);
    const best = ranked.best?.plan;
    return best ? suggestedPlan(best, serving?.[ranked.result.plans.indexOf(best)]) : null;
  } catch (e) {
    if (e instanceof UserError) return null;
    throw e;
  }
}

/**
 * The request's layout priced beside the best plan (if searched), with its step's band, and its
 * serving figures when a decoder is served.
 */
function layoutWithServing(
  db: Database,
  layout: Layout,
  searched: Prepared,
  best: Plan | null,
  serves: boolean,
): LayoutAnswer {
  const { workload, devices, problem, costModel, assumptions } = searched;
  const stack = assumptions.stack?.name;
  const answer = layoutAnswer(layout, problem, costModel, { workload: workload.name, best, timeline: true, stack });
  const engine = assumptions.engine?.serving ?? null;
  const figures = serves
    ? servingOf(assumptions.served, problem, [answer.plan], devices.candidates, costModel, engine)
    : null;
  const [band] = stepBands(db, [answer.plan], problem.devices, workload.name);
  return { ...answer, serving: figures?.[0] ?? null, band: band ?? null };
}

/**
 * What `--emit` writes and the app's launch lines show: the layout the user gave when there is one
 * (it fits: its own files; it does not: none, and `exportsOf` says why), else the best plan.
 */
function planOrLayoutExports(
  db: Database,
  searched: Prepared,
  best: RankedPlan | null,
  figures: ServingFigures | undefined,
  given: LayoutAnswer | null,
): Pick<PlanResponse, 'exports' | 'exportsOf'> {
  if (!given) return { exports: best ? planExports(db, searched, best, figures) : null, exportsOf: 'recommended' };
  const ranked = { plan: given.plan, problem: searched.problem };
  return {
    exports: given.fits ? planExports(db, searched, ranked, given.serving ?? undefined) : null,
    exportsOf: 'layout',
  };
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

export function planWorkload(db: Database, given: PlanRequest): PlanResponse {
  const described = storedDescription(db, given);
  const req = described ? withDescribedModel(given, described) : given;
  const warnings: string[] = [];
  // A layout that does not parse is refused before the search.
  const layout = req.layout !== undefined ? parseLayout(req.layout) : null;
  checkLayoutStack(trainingStackOf(req), layout);
  if (req.search === false) return layoutAlone(db, req, layout, warnings);
  const searched = searchRequest(db, req, warnings);
  const { request, workload, problem, costModel, assumptions } = searched;
  const { served } = assumptions;
  const { ranked, serving } = rankedAnswer(searched, request.topN);
  const { result, listed, best } = ranked;
  const search = best
    ? null
    : suggestChanges(
        { req: request, seq: workload.bindings.seq, bytesPerParam: problem.bytesPerParam, devices: problem.devices },
        (changed) => bestPlanOf(db, { ...changed, layout: undefined }),
      );
  const suggestions = search?.suggestions ?? [];
  if (search?.cut) {
    warnings.push(
      `stopped looking for a change that fits after ${SUGGESTION_TIME_MS / 1000} s (${count(search.searched, 'search', 'searches')}); the changes not tried may fit`,
    );
  }
  const priced = layout ? layoutWithServing(db, layout, searched, best?.plan ?? null, serving !== null) : null;
  return {
    workload: workload.name,
    assumptions: assumptionsView(req, searched),
    problem: best?.problem ?? problem,
    result,
    serving,
    served,
    engine: assumptions.engine?.summary ?? null,
    ...planOrLayoutExports(db, searched, best, serving?.[best ? result.plans.indexOf(best.plan) : -1], priced),
    timeline: best ? timelineOf(best, costModel) : [],
    timelines: listed.map((t) => timelineOf(t, costModel)),
    suggestions,
    layout: priced,
    finetune: assumptions.finetune,
    stepBands: stepBands(db, result.plans, problem.devices, workload.name),
    warnings: groupRepeated([...warnings, ...workload.warnings.slice(0, 5)]),
  };
}

/**
 * `plan --layout ... --no-search`: the layout priced on the request's problem by the cost and memory
 * paths a searched plan takes (core/planner/layout.ts), with no search: no ranked plans (searchMs 0),
 * no vsBest, no suggestions. Its exports are the layout's when it fits.
 */
function layoutAlone(db: Database, req: PlanRequest, layout: Layout | null, warnings: string[]): PlanResponse {
  if (!layout)
    throw new UserError('--no-search prices the --layout given, and there is none: give --layout tp=..,pp=..');
  const prepared = prepareRequest(db, req, warnings);
  const { workload, problem, assumptions } = prepared;
  const priced = layoutWithServing(db, layout, prepared, null, assumptions.served !== null);
  return {
    workload: workload.name,
    assumptions: assumptionsView(req, prepared),
    problem,
    result: { plans: [], rejected: [], searchMs: 0 },
    // No ranked plan has figures; the layout's are its own (layout.serving).
    serving: assumptions.served ? [] : null,
    served: assumptions.served,
    engine: assumptions.engine?.summary ?? null,
    ...planOrLayoutExports(db, prepared, null, undefined, priced),
    timeline: [],
    timelines: [],
    suggestions: [],
    layout: priced,
    finetune: assumptions.finetune,
    stepBands: [],
    warnings: groupRepeated([...warnings, ...workload.warnings.slice(0, 5)]),
  };
}

/** What predict-model's generation answers: the layout priced alone, with its engine and warnings. */
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
  checkLayoutStack(trainingStackOf(req), layout);
  const prepared = prepareRequest(db, req, warnings);
  const { served, engine } = prepared.assumptions;
  return {
    workload: prepared.workload.name,
    problem: prepared.problem,
    served,
    engine: engine?.summary ?? null,
    layout: layoutWithServing(db, layout, prepared, null, served !== null),
    warnings: groupRepeated([...warnings, ...prepared.workload.warnings.slice(0, 5)]),
  };
}

/**
 * Calibration's view of `priceLayout`: the request prepared and its layout placed once, then its
 * serving figures priced again each call with the engine's rules as they are then (bench/engines).
 */
export function layoutRepricer(db: Database, req: PlanRequest & { layout: string }): () => ServingFigures | null {
  const prepared = prepareRequest(db, req, []);
  const { request, problem, costModel, devices, workload, model, assumptions } = prepared;
  const answer = layoutAnswer(parseLayout(req.layout), problem, costModel, {
    workload: workload.name,
    best: null,
    stack: assumptions.stack?.name,
  });
  const format = servedFormat(request.weights, assumptions.dtype);
  return () => {
    const engine = servingEngine(db, request, model, format).serving;
    return servingOf(assumptions.served, problem, [answer.plan], devices.candidates, costModel, engine)?.[0] ?? null;
  };
}
