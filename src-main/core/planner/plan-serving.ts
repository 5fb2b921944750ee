/** A served decoder's figures (time to first token, tokens per second, longest context) for each plan. Pure. */
import type { CostModel } from './cost/cost-model.js';
import { servingFigures, type ServingFigures } from './cost/serving.js';
import type { PlanCandidate } from './plan-candidate.js';
import type { ServedDecoder } from './served-decoder.js';
import type { Plan, PlanProblem } from './types.js';

/** The serving figures of every listed plan, for a decoder in inference mode; else null. */
export function servingOf(
  served: ServedDecoder | null,
  problem: PlanProblem,
  plans: readonly Plan[],
  candidates: readonly PlanCandidate[],
  costModel: CostModel,
): ServingFigures[] | null {
  if (!served) return null;
  const decodeGBps = Object.fromEntries(candidates.map((c) => [c.device.id, c.decodeGBps]));
  const input = {
    prompt: served.prompt,
    tokens: served.tokens,
    modelContext: served.modelContext,
    bytesPerParam: problem.bytesPerParam,
    decodeGBps,
    allReduceUs: (ids: readonly string[], bytes: number) => costModel.allReduceUs(ids, bytes),
  };
  return plans.map((p) => servingFigures(problem, p, input));
}
