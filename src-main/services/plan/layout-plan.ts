/**
 * `plan --layout`: the user's own configuration priced on the same problem as the search, to set
 * beside the recommendation (core/planner/layout.ts prices it).
 */
import type { CostModel } from '../../core/planner/cost/cost-model.js';
import { priceLayout, scheduleText, type Layout, type LayoutAnswer } from '../../core/planner/layout.js';
import type { Plan, PlanProblem } from '../../core/planner/types.js';

export type { LayoutAnswer } from '../../core/planner/layout.js';

export function layoutAnswer(
  layout: Layout,
  problem: PlanProblem,
  costModel: CostModel,
  opts: { workload: string; best: Plan | null },
): LayoutAnswer {
  const priced = priceLayout(problem, layout, { workload: opts.workload, costModel });
  const p = priced.plan;
  return {
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
