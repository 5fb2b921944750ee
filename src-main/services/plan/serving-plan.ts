/**
 * Planning to serve a decoder: the request's prompt, output tokens and objective with their
 * defaults, the weight format it may be served in, and its plans ranked by what serving users want
 * (a whole request's time, or tokens per second under continuous batching).
 */
import type { CatalogEntry, TransformerEntry } from '../../core/catalog/index.js';
import { datasheetFor, hasFp8 } from '../../core/planner/cost/datasheets.js';
import { FP8_ARCHITECTURES } from '../../core/domain/gpu-architectures.js';
import { compareServing, type ServingFigures, type ServingObjective } from '../../core/planner/serving/serving.js';
import type { CostModel } from '../../core/planner/cost/cost-model.js';
import { planSignature } from '../../core/planner/cost/plan-cost.js';
import { planAll } from '../../core/planner/search/index.js';
import type { RankedPlan, RankedPlans } from '../../core/planner/search/plan-ranking.js';
import type { Mode, Plan, PlanDevice, PlanProblem } from '../../core/planner/types.js';
import type { ServedDecoder } from '../../core/planner/serving/served-decoder.js';
import { UserError } from '../../core/errors.js';
import { count } from '../../core/text/plural.js';
import { WEIGHT_FORMATS, weightFormatRefusal, type WeightFormat } from '../../core/workload/generation.js';

/** Output tokens per request when none are given. */
export const DEFAULT_OUTPUT_TOKENS = 256;
/** Prompt tokens when neither --prompt nor --seq is given (less where the model's context is shorter). */
export const DEFAULT_PROMPT_TOKENS = 1024;
/** Plans searched for a served decoder before they are ranked by the objective (the step ranks the search's own). */
export const SERVING_CANDIDATES = 50;

/** The batch a plan is made for when none is given: one sequence when serving, 8 samples when training. */
export function defaultBatch(mode: Mode): number {
  return mode === 'inference' ? 1 : 8;
}

/** The parts of a plan request that serving reads. */
export interface ServingRequest {
  mode: Mode;
  seq?: number;
  prompt?: number;
  tokens?: number;
  objective?: ServingObjective;
  weights?: WeightFormat;
}

/** A catalog entry (or GGUF header) that generates tokens: a causal transformer with an LM head. */
export function isDecoder(e: CatalogEntry | null | undefined): e is TransformerEntry & CatalogEntry {
  return !!e && e.kind === 'transformer' && e.causal === true && e.head === 'lm';
}

/**
 * Prompt and output tokens of a served decoder, and its objective; null for anything else. The
 * prompt is --prompt, else --seq, else 1024 or what the model's context leaves after the output;
 * prompt and output together must fit the model's context (one line naming what would).
 */
export function servedDecoderOf(
  req: Omit<ServingRequest, 'weights'>,
  e: CatalogEntry | null | undefined,
): ServedDecoder | null {
  if (req.mode !== 'inference' || !isDecoder(e)) return null;
  const context = e.context ?? Infinity;
  const tokens = req.tokens ?? DEFAULT_OUTPUT_TOKENS;
  const given = req.prompt ?? req.seq;
  if (given === undefined && tokens >= context)
    throw new UserError(
      `${e.name}: ${count(tokens, 'output token')} fill the model's context of ${context}; give --tokens ${Math.max(1, context - 1)} or less`,
    );
  const prompt = given ?? Math.min(DEFAULT_PROMPT_TOKENS, context - tokens);
  if (prompt + tokens > context) {
    const option = req.prompt !== undefined ? '--prompt' : '--seq';
    const room = context - tokens;
    throw new UserError(
      `${e.name}: a prompt of ${prompt} and ${count(tokens, 'output token')} make ${prompt + tokens}, longer than the model's context of ${context}; ` +
        (room >= 1 ? `give ${option} ${room} or less, or fewer --tokens` : `give --tokens ${context - 1} or less`),
    );
  }
  return { prompt, tokens, objective: req.objective ?? 'latency', modelContext: e.context ?? prompt + tokens };
}

/** The serving options of a request that only a served decoder reads, as the CLI names them. */
interface ServingOnlyOptions extends Pick<ServingRequest, 'prompt' | 'tokens' | 'objective'> {
  engine?: string;
  kvCache?: 'auto' | 'fp8';
  load?: { kind: 'rate' | 'concurrency' | 'offline' };
}

/** Serving options given for a workload that is not a served decoder: said once, then ignored. */
export function unusedServingOptions(req: ServingOnlyOptions, served: ServedDecoder | null): string[] {
  if (served) return [];
  const given = [
    ...(req.engine !== undefined ? ['--engine'] : []),
    ...(req.kvCache === 'fp8' ? ['--kv-cache'] : []),
    ...(req.load
      ? [req.load.kind === 'rate' ? '--rate' : req.load.kind === 'concurrency' ? '--concurrency' : 'a load']
      : []),
    ...(req.prompt !== undefined ? ['--prompt'] : []),
    ...(req.tokens !== undefined ? ['--tokens'] : []),
    ...(req.objective !== undefined ? ['--objective'] : []),
  ];
  return given.length > 0
    ? [`${given.join(', ')}: for serving a decoder (a catalog LLM or GGUF with --mode inference); ignored`]
    : [];
}

/** GPUs of the plan without fp8 units (architectures before Ada), and GPUs no datasheet names. */
function fp8Support(devices: readonly PlanDevice[]): { lacking: string[]; unknown: string[] } {
  const lacking = new Set<string>();
  const unknown = new Set<string>();
  for (const d of devices) {
    if (d.kind !== 'gpu') continue;
    const ds = datasheetFor(d.name);
    if (!ds) unknown.add(d.name);
    else if (!hasFp8(ds)) lacking.add(`${ds.name} (${ds.architecture})`);
  }
  return { lacking: [...lacking], unknown: [...unknown] };
}

/**
 * The weight format of a request, checked: serving only; one the model's compute dtype takes
 * (weightFormatRefusal); fp8 only where every GPU of the plan has fp8 units (Ada, Hopper, Blackwell).
 * Each refusal is one line naming what would work; returns warnings for GPUs nobody can tell.
 */
export function checkWeights(
  req: Pick<ServingRequest, 'mode' | 'weights'>,
  dtype: string,
  elementBytes: number,
  devices: readonly PlanDevice[],
): string[] {
  if (!req.weights) return [];
  if (req.mode !== 'inference')
    throw new UserError(
      `--weights ${req.weights} is for serving (--mode inference); training keeps fp32 master weights: leave --weights out, or give --dtype`,
    );
  const problem = weightFormatRefusal(req.weights, dtype, elementBytes);
  if (problem) throw new UserError(problem);
  if (req.weights !== 'fp8') return [];
  const { lacking, unknown } = fp8Support(devices);
  if (lacking.length > 0) {
    const others = (Object.keys(WEIGHT_FORMATS) as WeightFormat[]).filter(
      (f) => f !== 'fp8' && WEIGHT_FORMATS[f] < 2 && weightFormatRefusal(f, dtype, elementBytes) === null,
    );
    throw new UserError(
      `--weights fp8 needs fp8 units (${FP8_ARCHITECTURES.join(', ')}), which ${lacking.join(', ')} lack${lacking.length === 1 ? 's' : ''}; give --weights ${others.join(', ')} instead, or plan on an L40S, RTX 4090 or H100`,
    );
  }
  return unknown.map((name) => `${name}: no datasheet says whether it has fp8 units; planned as if it had`);
}

/**
 * The batch a served decoder is searched at: the request's, or under the throughput objective at
 * least one sequence per device, so that data-parallel replicas are candidates (their ranking,
 * tokens/s at the most concurrent sequences, does not depend on it); said in a warning.
 */
export function searchedBatch(
  served: ServedDecoder | null,
  batch: number,
  devices: number,
  warnings: string[],
): number {
  if (served?.objective !== 'throughput' || batch >= devices) return batch;
  warnings.push(
    `--objective throughput: planned at batch ${devices} (one sequence per device, so data-parallel replicas are candidates) instead of ${batch}`,
  );
  return devices;
}

/**
 * The ranked plans with the one-stage plans (a tensor-parallel group, or replicas of one, holding
 * the whole model) added: a decode step favours them, and the step-ranked search keeps only the
 * fastest prefill of each layout space. Each layout once.
 */
export function withOneStagePlans(ranked: RankedPlans, problem: PlanProblem, costModel: CostModel): RankedPlans {
  const extra = planAll(problem, costModel, { topN: SERVING_CANDIDATES, singleStage: true });
  const seen = new Set(ranked.listed.map((t) => planSignature(t.plan)));
  const added: RankedPlan[] = extra.plans.filter((p) => !seen.has(planSignature(p))).map((plan) => ({ plan, problem }));
  const listed = [...ranked.listed, ...added];
  return {
    result: {
      ...ranked.result,
      plans: listed.map((t) => t.plan),
      searchMs: ranked.result.searchMs + extra.searchMs,
    },
    listed,
    best: ranked.best,
  };
}

/** Whether the engine runs the plan: a layout it offers, and a KV cache that holds one request. */
function servable(s: ServingFigures): boolean {
  return s.engineRefusal === undefined && Number.isFinite(s.ttftUs) && s.maxBatch > 0;
}

/** A plan's layout: its stages, groups and degrees, whatever its microbatches. */
const layoutOf = (p: Plan): string =>
  p.stages.map((s) => `${s.from}-${s.to}:${s.devices.join('+')}*${s.tp ?? 1}`).join('|');

/**
 * The listed plans and their serving figures, ranked by the objective (plans that fit first), each
 * layout once (its best microbatch count), cut to `topN`; the best is the first that fits.
 */
export function rankServing(
  ranked: RankedPlans,
  serving: readonly ServingFigures[],
  objective: ServingObjective,
  topN: number,
): { ranked: RankedPlans; serving: ServingFigures[] } {
  const rows = ranked.listed.map((t, i) => ({ t, s: serving[i] as ServingFigures }));
  const runs = (r: (typeof rows)[number]): boolean => r.t.plan.feasible && servable(r.s);
  rows.sort((a, b) => Number(runs(b)) - Number(runs(a)) || compareServing(objective, a.s, b.s));
  const layouts = new Set<string>();
  const kept = rows
    .filter((r) => {
      const key = layoutOf(r.t.plan);
      if (layouts.has(key)) return false;
      layouts.add(key);
      return true;
    })
    .slice(0, topN);
  return {
    ranked: {
      result: { ...ranked.result, plans: kept.map((r) => r.t.plan) },
      listed: kept.map((r) => r.t),
      best: kept.find(runs)?.t ?? null,
    },
    serving: kept.map((r) => r.s),
  };
}
