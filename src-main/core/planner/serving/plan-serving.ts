/**
 * A served decoder's figures (time to first token, tokens per second, longest context) for each
 * plan: from its engine's rules (core/engines) when an engine is named and the plan's devices are
 * GPUs with datasheets, else from the kernel roofline (serving/serving.ts). Pure.
 */
import type { TransformerEntry } from '../../catalog/schema.js';
import { engineServingFigures, type ServingLoadRequest } from '../../engines/engine-serving.js';
import type { EngineRules } from '../../engines/engine-rules.js';
import { planDeployment } from '../../engines/plan-deployment.js';
import { engineBand } from '../../engines/engine-bands.js';
import type { KernelEfficiencies } from '../../predictor/kernel-efficiency.js';
import type { GpuDatasheet } from '../cost/datasheets.js';
import type { WeightFormat } from '../../workload/generation.js';
import type { CostModel } from '../cost/cost-model.js';
import { servingFigures, type ServingFigures } from './serving.js';
import type { PlanCandidate } from '../search/plan-candidate.js';
import type { ServedDecoder } from './served-decoder.js';
import type { Plan, PlanProblem } from '../types.js';

/** The engine a served decoder is priced on, with what it runs. */
export interface ServingEngine {
  rules: EngineRules;
  entry: TransformerEntry;
  format: WeightFormat;
  kvCache: 'auto' | 'fp8';
  load?: ServingLoadRequest;
  /** The kernel fractions a profiled GPU of the datasheet's architecture lends. */
  table?: (gpu: GpuDatasheet) => KernelEfficiencies | undefined;
}

function rooflineFigures(
  problem: PlanProblem,
  plan: Plan,
  served: ServedDecoder,
  candidates: readonly PlanCandidate[],
  costModel: CostModel,
): ServingFigures {
  const decodeGBps = Object.fromEntries(candidates.map((c) => [c.device.id, c.decodeGBps]));
  return servingFigures(problem, plan, {
    prompt: served.prompt,
    tokens: served.tokens,
    modelContext: served.modelContext,
    bytesPerParam: problem.bytesPerParam,
    decodeGBps,
    allReduceUs: (ids: readonly string[], bytes: number) => costModel.allReduceUs(ids, bytes),
  });
}

/** The serving figures of every listed plan, for a decoder in inference mode; else null. */
export function servingOf(
  served: ServedDecoder | null,
  problem: PlanProblem,
  plans: readonly Plan[],
  candidates: readonly PlanCandidate[],
  costModel: CostModel,
  engine: ServingEngine | null = null,
): ServingFigures[] | null {
  if (!served) return null;
  return plans.map((p) => {
    if (!engine) return rooflineFigures(problem, p, served, candidates, costModel);
    const d = planDeployment(p, { ...engine, engine: engine.rules, problem, costModel });
    if (!d.ok) {
      const roofline = rooflineFigures(problem, p, served, candidates, costModel);
      return d.kind === 'layout' ? { ...roofline, engineRefusal: d.reason } : { ...roofline, engineUnpriced: d.reason };
    }
    const band = engineBand(engine.rules.name);
    return {
      ...engineServingFigures(d.deployment, d.replicas, served, problem.batch, engine.load),
      engine: { name: engine.rules.name, since: engine.rules.since },
      ...(band ? { band: { low: band.low, high: band.high, cells: band.cells } } : {}),
    };
  });
}
