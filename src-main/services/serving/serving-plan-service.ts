/**
 * `pipedejavu serve-plan` and `serving:plan`: the cheapest deployments that serve a rate within an
 * SLO. Resolves the model (a decoder with an LM head: a catalog name, a stored or described
 * workload, a Hugging Face config), the candidate GPU kinds (a count caps the GPUs per replica),
 * the weight formats and the prices, then runs the core's capacity search
 * (core/planner/serving/capacity-plan.ts) and names its assumptions.
 */
import { count } from '../../core/text/plural.js';
import type { Database } from '../../adapters/store/types.js';
import type { TransformerEntry } from '../../core/catalog/schema.js';
import { ENGINE_FORMATS } from '../../core/engines/engine-formats.js';
import { ENGINES } from '../../core/engines/engine-names.js';
import { engineRules } from '../../core/engines/engines.js';
import { UserError } from '../../core/errors.js';
import { GPUS_PER_VIRTUAL_NODE } from '../../core/planner/problem/virtual-nodes.js';
import { parseVirtualGpus, resolveGpuName, virtualGpuName } from '../../core/planner/cost/datasheets.js';
import {
  clampLength,
  lengthSpecOf,
  longestLength,
  traceLoad,
  type CapacityLoad,
  type NamedTrace,
} from '../../core/planner/serving/capacity-load.js';
import { capacityPlan } from '../../core/planner/serving/capacity-plan.js';
import type { CandidateGpu } from '../../core/planner/serving/capacity-candidates.js';
import { DEFAULT_GPU_PRICES, givenPrices, priceOf } from '../../core/planner/serving/gpu-prices.js';
import type { ServingPlanView, ServingPriceView } from '../../core/planner/serving/serving-plan-answer.js';
import type { ServingPlanRequest } from '../../core/planner/serving/serving-plan-request.js';
import type { WeightFormat } from '../../core/workload/generation.js';
import { describedEntry } from '../workload/workload-service.js';

const SERVING_DEFAULTS = { prompt: 1024, output: 256, requests: 200, top: 5, seed: 1 } as const;

/** Formats tried when none is asked: 16-bit, fp8, int8 and int4 weights, where the engine loads them. */
const DEFAULT_FORMATS: readonly WeightFormat[] = ['bf16', 'fp8', 'int8', 'int4'];

function decoderOf(db: Database, req: ServingPlanRequest, decoder?: TransformerEntry): TransformerEntry {
  const e = decoder ?? describedEntry(db, req.workload);
  if (!e || e.kind !== 'transformer' || !e.causal || e.head !== 'lm')
    throw new UserError(
      `${req.workload}: serve-plan sizes a decoder with an LM head (a catalog name such as llama-3.1-8b, a described model or a Hugging Face config); this is not one`,
    );
  return e;
}

/** The GPU kinds asked ("H100 SXM5", "4x L4": at most 4 per replica), else every GPU with a shipped price. */
function candidateGpus(req: ServingPlanRequest): CandidateGpu[] {
  if (!req.gpus) return DEFAULT_GPU_PRICES.map((p) => ({ sheet: resolveGpuName(p.gpu), maxPerReplica: 8 }));
  const parsed = parseVirtualGpus(req.gpus);
  return parsed.map((g, i) => ({
    sheet: g.datasheet,
    maxPerReplica:
      virtualGpuName(req.gpus?.[i] ?? '') === (req.gpus?.[i] ?? '').trim()
        ? GPUS_PER_VIRTUAL_NODE
        : Math.min(g.count, GPUS_PER_VIRTUAL_NODE),
  }));
}

function formatsOf(req: ServingPlanRequest): WeightFormat[] {
  const asked = req.weights ?? DEFAULT_FORMATS;
  const engine = req.engine ?? 'auto';
  if (engine === 'auto') return [...asked];
  const loads = ENGINE_FORMATS[engine] as readonly WeightFormat[];
  const kept = asked.filter((f) => loads.includes(f));
  if (kept.length === 0)
    throw new UserError(
      `--weights ${asked.join(',')}: ${ENGINES[engine].title} loads none of them (it loads ${loads.join(', ')})`,
    );
  return kept;
}

/** The KV cache's dtype asked; fp8 refused in one line on an engine that holds no fp8 cache. */
function kvCacheOf(req: ServingPlanRequest): 'auto' | 'fp8' {
  const engine = req.engine ?? 'auto';
  if (req.kvCache !== 'fp8' || engine === 'auto') return req.kvCache ?? 'auto';
  const bytes = engineRules(engine).kvBytes;
  if (bytes.fp8 >= bytes.auto)
    throw new UserError(
      `--kv-cache fp8: ${ENGINES[engine].title} keeps the KV cache in the model's dtype (no fp8 cache); leave --kv-cache out or pick another --engine`,
    );
  return 'fp8';
}

/**
 * The load: lengths (a count or a spec) and arrivals (Poisson, bursts) from the request, or a
 * trace's rows; a lognormal's draws clamped to what the model's context leaves, and a load whose
 * longest request exceeds the context refused in one line.
 */
function loadOf(req: ServingPlanRequest, entry: TransformerEntry, trace?: NamedTrace): CapacityLoad {
  const base = { requests: req.requests ?? SERVING_DEFAULTS.requests, seed: req.seed ?? SERVING_DEFAULTS.seed };
  let load: CapacityLoad;
  if (trace) {
    if (req.prompt !== undefined || req.output !== undefined || req.burst !== undefined)
      throw new UserError(
        '--trace gives the lengths (and a JSONL trace the arrivals): drop --prompt, --output and --burst',
      );
    load = traceLoad(trace.trace, { ...base, ...(req.rate !== undefined ? { rate: req.rate } : {}) });
  } else {
    if (req.rate === undefined)
      throw new UserError('give a rate, requests per second (--rate N), or a JSONL trace whose arrivals set it');
    load = {
      ...base,
      rate: req.rate,
      prompt: lengthSpecOf(req.prompt, SERVING_DEFAULTS.prompt, 'prompt'),
      output: lengthSpecOf(req.output, SERVING_DEFAULTS.output, 'output'),
      burst: req.burst ?? 1,
      traceTimes: null,
    };
  }
  const ctx = entry.context;
  if (ctx === undefined) return load;
  // Each lognormal is clamped to the context less the other's longest (both lognormal: shared by their medians).
  const bothDrawn = [load.prompt, load.output].every((s) => typeof s !== 'number' && s.kind === 'lognormal');
  const median = (s: typeof load.prompt): number => (typeof s !== 'number' && s.kind === 'lognormal' ? s.median : 0);
  const share = (s: typeof load.prompt): number =>
    Math.floor((ctx * median(s)) / (median(load.prompt) + median(load.output)));
  load = {
    ...load,
    prompt: clampLength(load.prompt, bothDrawn ? share(load.prompt) : ctx - longestLength(load.output)),
    output: clampLength(load.output, bothDrawn ? share(load.output) : ctx - longestLength(load.prompt)),
  };
  const [p, o] = [longestLength(load.prompt), longestLength(load.output)];
  if (p + o > ctx)
    throw new UserError(
      `${trace ? `${trace.file}: prompts up to` : '--prompt'} ${p} + ${trace ? 'outputs up to ' : '--output '}${count(o, 'token')} exceed ${req.workload}'s context of ${ctx}`,
    );
  return load;
}

/**
 * The cheapest deployments for `req`; `trace` (read by the caller, `--trace FILE`) gives the load's
 * rows, and with no rate asked, a JSONL trace's own mean rate over them (a note says so).
 */
export function planServing(
  db: Database,
  req: ServingPlanRequest,
  decoder?: TransformerEntry,
  trace?: NamedTrace,
): ServingPlanView {
  const entry = decoderOf(db, req, decoder);
  const load = loadOf(req, entry, trace);
  const gpus = candidateGpus(req);
  const given = givenPrices(req.prices ?? []);
  const plan = capacityPlan({
    entry,
    engine: req.engine ?? 'auto',
    formats: formatsOf(req),
    kvCache: kvCacheOf(req),
    gpus,
    load,
    ...(trace ? { trace } : {}),
    slo: req.slo,
    price: (g) => priceOf(g, given),
    top: req.top ?? SERVING_DEFAULTS.top,
  });
  const prices: ServingPriceView[] = [];
  for (const g of gpus) {
    const p = priceOf(g.sheet, given);
    if (p) prices.push({ gpu: g.sheet.name, ...p });
  }
  const unpriced = gpus.filter((g) => !priceOf(g.sheet, given)).map((g) => g.sheet.name);
  const { dropped, ...answer } = plan;
  return {
    ...answer,
    model: req.workload,
    prices,
    notes: [
      ...(req.rate === undefined && trace
        ? [
            `rate: none given, so ${trace.file}'s own mean over its first ${count(load.requests, 'arrival time')}, ${load.rate.toPrecision(3)} req/s`,
          ]
        : []),
      ...dropped,
      ...(unpriced.length > 0
        ? [`no price for ${unpriced.join(', ')}: ranked after the priced ones by GPUs (give --price "GPU=DOLLARS/h")`]
        : []),
      ...(req.kvCache === 'fp8'
        ? [
            "KV cache in fp8 (--kv-cache fp8): 1 byte a value where the engine has an fp8 cache, llama.cpp's q8_0 cache 1.06",
          ]
        : []),
      `load: ${load.requests} requests simulated per point; arrivals ${answer.load.described.arrivals}; prompts ${answer.load.described.prompt}; outputs ${answer.load.described.output}`,
      'a replica is given at most its throughput ceiling (every request queued at once), whatever a finite run shows past it',
      "step times are the engine model's (docs/engines.md) on datasheet GPUs; percentiles may be off by the engine's band (measured / predicted time over independent measurements)",
    ],
  };
}
