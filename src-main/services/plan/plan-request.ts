/**
 * What `pipedejavu plan`, the app's Plans view and the HTTP API ask the planner (PlanRequest, whose
 * schema is core/planner/plan-request.ts) and what plan-service.ts answers (PlanResponse, and the
 * PlanSummary they show).
 */
import type { PlanAllResult } from '../../core/planner/search/index.js';
import type { PlanProblem } from '../../core/planner/types.js';
import type { PlanOutcome, PlanSummary } from '../../core/planner/plan-summary.js';

export type { PlanRequest } from '../../core/planner/plan-request.js';

/** The planner's answer: the best plan's problem, every search's result, and the rest (PlanOutcome). */
export interface PlanResponse extends PlanOutcome {
  workload: string;
  problem: PlanProblem;
  result: PlanAllResult;
}

export function planSummary(r: PlanResponse): PlanSummary {
  return {
    workload: r.workload,
    assumptions: r.assumptions,
    mode: r.problem.mode,
    batch: r.problem.batch,
    devices: r.problem.devices,
    plans: r.result.plans,
    rejected: r.result.rejected,
    searchMs: r.result.searchMs,
    exports: r.exports,
    exportsOf: r.exportsOf,
    timeline: r.timeline,
    timelines: r.timelines,
    serving: r.serving,
    served: r.served,
    engine: r.engine,
    suggestions: r.suggestions,
    layout: r.layout,
    finetune: r.finetune,
    stepBands: r.stepBands,
    warnings: r.warnings,
  };
}
