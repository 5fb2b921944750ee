/**
 * `plan --layout`: the user's own configuration priced on the same problem as the search, to set
 * beside the recommendation (core/planner/layout.ts prices it).
 */
import type { CostModel } from '../core/planner/cost/cost-model.js';
import { priceLayout, type Layout } from '../core/planner/layout.js';
import type { Plan, PlanProblem } from '../core/planner/types.js';
import type { ServingFigures } from '../core/planner/cost/serving.js';

/** The layout as priced, beside the best plan. */
export interface LayoutAnswer {
  /** Every key written out: "tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8,schedule=1f1b". */
  text: string;
  plan: Plan;
  stepUs: number;
  throughputSamplesPerS: number;
  fits: boolean;
  /** Why it does not fit (the plan's reasons); [] when it fits. */
  reasons: string[];
  /** Its step over the recommendation's (1.25: 25% slower); null when no plan fits. */
  vsBest: number | null;
  notes: string[];
  /** Serving a decoder: the layout's serving figures (as the listed plans'); null otherwise. */
  serving?: ServingFigures | null;
}

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
    plan: p,
    stepUs: p.stepUs,
    throughputSamplesPerS: p.throughputSamplesPerS,
    fits: p.feasible,
    reasons: p.reasons,
    vsBest: opts.best && opts.best.stepUs > 0 ? p.stepUs / opts.best.stepUs : null,
    notes: priced.notes,
  };
}
