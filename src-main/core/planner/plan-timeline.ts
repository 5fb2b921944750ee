/** A ranked plan's one step as the discrete-event simulator schedules it. Pure. */
import type { CostModel } from './cost/cost-model.js';
import { plannerContext, type PlannerContext } from './problem/problem.js';
import type { Plan } from './types.js';
import type { RankedPlan } from './search/plan-ranking.js';
import { simStagesOfPlan, simulatePipeline, type SimEvent } from './simulator/pipeline-simulator.js';

/** One training or inference step of a plan that fits, from the discrete-event simulator; [] for one that does not. */
export function timelineOf(t: RankedPlan, costModel: CostModel): SimEvent[] {
  if (!t.plan.feasible) return [];
  return timelineIn(plannerContext(t.problem, costModel), t.plan);
}

/** The same, in the context the plan was priced in (a layout's: its ZeRO stage, recomputation and cp applied). */
export function timelineIn(ctx: PlannerContext, plan: Plan): SimEvent[] {
  if (!plan.feasible) return [];
  return simulatePipeline(simStagesOfPlan(ctx, plan), {
    microbatches: plan.microbatches,
    schedule: plan.schedule,
    mode: ctx.problem.mode,
  }).timeline;
}
