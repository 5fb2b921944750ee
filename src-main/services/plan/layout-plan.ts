/**
 * `plan --layout`: the user's own configuration priced on the same problem as the search, to set
 * beside the recommendation (core/planner/layout.ts prices it).
 */
import type { CostModel } from '../../core/planner/cost/cost-model.js';
import { priceLayout, scheduleText, type Layout, type LayoutAnswer } from '../../core/planner/layout.js';
import type { Plan, PlanProblem } from '../../core/planner/types.js';
import { timelineIn } from '../../core/planner/plan-timeline.js';
import type { TrainingStack } from '../../core/planner/stacks/stack-names.js';

export type { LayoutAnswer } from '../../core/planner/layout.js';

/**
 * `opts.timeline`: with its simulated step, in the context it was priced in (its ZeRO stage,
 * recomputation and cp applied, as a searched plan's is simulated on its own problem).
 * `opts.stack`: the training stack whose rule splits the stages (core/planner/stage-split.ts).
 */
export function layoutAnswer(
  layout: Layout,
  problem: PlanProblem,
  costModel: CostModel,
  opts: { workload: string; best: Plan | null; timeline?: boolean; stack?: TrainingStack },
): LayoutAnswer {
  const priced = priceLayout(problem, layout, {
    workload: opts.workload,
    costModel,
    ...(opts.stack ? { stack: opts.stack } : {}),
  });
  const p = priced.plan;
  return {
    ...(opts.timeline ? { timeline: timelineIn(priced.context, p) } : {}),
    text: priced.text,
    schedule: scheduleText(p),
    plan: p,
    stepUs: p.stepUs,
    throughputSamplesPerS: p.throughputSamplesPerS,
    fits: p.feasible,
    reasons: p.reasons,
    vsBest: opts.best && opts.best.stepUs > 0 ? p.stepUs / opts.best.stepUs : null,
    notes: priced.notes,
  };
}
