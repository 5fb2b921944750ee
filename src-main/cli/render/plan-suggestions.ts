/**
 * "What would fit" as text: each verified change with its option and its best plan in the figures
 * its mode is ranked by (core/planner/suggested-plan-text.ts, the app's words too).
 */
import type { PlanSuggestion } from '../../core/planner/types.js';
import { suggestedPlanText } from '../../core/planner/suggested-plan-text.js';
import { MAX_SUGGESTION_SEARCHES } from '../../services/plan/plan-suggestions.js';
import { ms } from './workload.js';

/** The verified changes that would make a plan fit, or the line saying none tried does. */
export function suggestionLines(suggestions: readonly PlanSuggestion[]): string[] {
  if (suggestions.length === 0)
    return [
      'No change tried fits either (fewer tokens, a smaller batch, recomputation, ZeRO, 4-bit weights, more GPUs).',
    ];
  return [
    `What would fit (each checked by the same search on the changed problem; at most ${MAX_SUGGESTION_SEARCHES} searches):`,
    ...suggestions.map(
      (s) => `- ${s.change}: ${s.option} (best plan ${s.plan.kind}: ${suggestedPlanText(s.plan, ms)})`,
    ),
  ];
}
