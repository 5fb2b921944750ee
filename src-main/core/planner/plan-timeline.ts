/** A ranked plan's one step as the discrete-event simulator schedules it. Pure. */
import type { CostModel } from './cost/cost-model.js';
import { plannerContext } from './problem/problem.js';
import type { RankedPlan } from './search/plan-ranking.js';
import { simStagesOfPlan, simulatePipeline, type SimEvent } from './simulator/pipeline-simulator.js';

/** One training or inference step of a plan that fits, from the discrete-event simulator; [] for one that does not. */
export function timelineOf(t: RankedPlan, costModel: CostModel): SimEvent[] {
  if (!t.plan.feasible) return [];
  return simulatePipeline(simStagesOfPlan(plannerContext(t.problem, costModel), t.plan), {
    microbatches: t.plan.microbatches,
    schedule: t.plan.schedule,
    mode: t.problem.mode,
  }).timeline;
}
