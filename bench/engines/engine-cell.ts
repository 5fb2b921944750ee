/**
 * What pipeDejavu predicts for one published engine figure (bench/engines), through the product's
 * own path: `plan --engine E --layout ... --no-search` (priceLayout) on datasheet GPUs, with the
 * cell's weights, KV cache, caps and load; the figure read off the priced layout's serving figures
 * in the cell's unit. A cell the tool cannot express is returned with the reason.
 */
import { catalogNames, getCatalogEntry, type CatalogEntry } from '../../src-main/core/catalog/index.js';
import type { GpuDatasheet } from '../../src-main/core/planner/cost/datasheets.js';
import type { ServingFigures } from '../../src-main/core/planner/serving/serving.js';
import type { LatencySummary } from '../../src-main/core/engines/engine-figures.js';
import type { Database } from '../../src-main/adapters/store/types.js';
import { priceLayout, type PlanRequest } from '../../src-main/services/plan/plan-service.js';
import type { WeightFormat } from '../../src-main/core/workload/generation.js';
import type { EngineName } from '../../src-main/core/engines/engine-names.js';
import { allEngineRules, engineRules } from '../../src-main/core/engines/engines.js';
import type { Arch, EngineCell } from './cells.js';
import { feedsTokenIds } from './bench-tools.js';
import { archDecoder, exactGpu } from '../lib/published-model.js';

export type EngineCellResult =
  { id: string; predicted: number; error: number; detail: string } | { id: string; notExpressible: string };

class NotExpressible extends Error {}
const refuse = (why: string): never => {
  throw new NotExpressible(why);
};

const num = (c: EngineCell, k: string): number | undefined => {
  const v = c.config[k];
  return typeof v === 'number' ? v : undefined;
};
const str = (c: EngineCell, k: string): string | undefined => {
  const v = c.config[k];
  return typeof v === 'string' ? v : undefined;
};
const need = (c: EngineCell, k: string): number => num(c, k) ?? refuse(`the source states no ${k}`);

/** The cell's GPU by one of its exact names: "A100 80G" names no form factor, and is refused. */
function gpuOf(c: EngineCell): GpuDatasheet {
  return (
    exactGpu(c.gpu) ??
    refuse(`GPU "${c.gpu}" is not one GPU of models/gpus.json (not in it, or form factor not stated)`)
  );
}

const archEntry = (id: string, a: Arch): CatalogEntry => archDecoder(id, a, Math.min(a.context, 2048));

/**
 * The cell's model; a benchmark that ran past the model's context (2048 + 2048 tokens on a
 * 4096-token model, llama-bench tg8192 on 8192) is priced at the context it ran.
 */
function modelOf(c: EngineCell): Pick<PlanRequest, 'workload' | 'decoder'> {
  const ran = (num(c, 'promptTokens') ?? 0) + (num(c, 'outputTokens') ?? 0) + 1;
  if (c.model && catalogNames().includes(c.model)) {
    const e = getCatalogEntry(c.model);
    if (e.kind !== 'transformer' || (e.context ?? Infinity) >= ran) return { workload: c.model };
    return { workload: c.model, decoder: { ...e, context: ran } };
  }
  if (c.arch)
    return {
      workload: `${c.id.slice(0, 50)}.arch`,
      decoder: archEntry(c.id.slice(0, 60), { ...c.arch, context: Math.max(c.arch.context, ran) }),
    };
  return refuse(c.model ? `model ${c.model} is not in the catalog and no architecture is given` : 'no model given');
}

/** The cell's weights as pipeDejavu's formats (EXL2 near 4 bits is the int4 kind); others are refused. */
function weightsOf(c: EngineCell): Pick<PlanRequest, 'weights' | 'dtype'> {
  const w = (str(c, 'weights') ?? 'fp16').toLowerCase();
  if (/^(fp16|f16)\b/.test(w)) return { dtype: 'fp16' };
  if (w === 'bf16') return { dtype: 'bf16' };
  if (w === 'fp32') return { dtype: 'fp32' };
  if (/^fp8\b/.test(w)) return { dtype: 'bf16', weights: 'fp8' };
  // int8 is an engine's own 8-bit path (bitsandbytes in transformers, EETQ in TGI, W8A8 elsewhere); a GPTQ
  // 8-bit checkpoint runs GPTQ's kernels, which no engine rule prices: refused, not priced as another kernel.
  if (/^int8/.test(w) && w !== 'int8-gptq') return { dtype: 'fp16', weights: 'int8' };
  if (w === 'int4-awq' || w === 'int4-gptq') return { dtype: 'fp16', weights: 'int4' };
  const exl2 = /^exl2-(\d+(?:\.\d+)?)bpw$/.exec(w);
  if (exl2 && Number(exl2[1]) >= 4 && Number(exl2[1]) <= 4.3) return { dtype: 'fp16', weights: 'int4' };
  const gguf: Record<string, WeightFormat> = { q4_k_m: 'q4_k', q4_k_s: 'q4_k', q4_0: 'q4_0', q8_0: 'q8_0' };
  const f = gguf[w];
  if (f) return { dtype: 'fp16', weights: f };
  return refuse(
    `weights ${w} (pipeDejavu plans ${['fp16', 'bf16', 'fp8', 'int8', 'int4', 'q8_0', 'q4_k', 'q4_0'].join(', ')})`,
  );
}

/**
 * A cell that states CUDA graphs on (a branch measured before its release, PR #6766's) but dates
 * to a version without them takes the engine's first version with them.
 */
function versionOf(c: EngineCell, date: string | undefined): Pick<PlanRequest, 'engineVersion'> {
  const stated = statedVersion(c, date);
  if (c.config.cudaGraphs !== true) return stated;
  const name = c.engine as EngineName;
  if (engineRules(name, { version: stated.engineVersion }).host.graphMaxBatch > 0) return stated;
  const graphed = allEngineRules().filter((r) => r.name === name && r.host.graphMaxBatch > 0);
  const first = graphed.sort((a, b) => a.released.localeCompare(b.released))[0];
  return first ? { engineVersion: first.since } : stated;
}

/**
 * llama.cpp's "b3000", "2f68ce7 (6918)", "commit 9476b01 (2023-10-02)" -> a version engineRules
 * reads; a cell without one takes the engine's version of its source's date, else the newest.
 */
function statedVersion(c: EngineCell, date: string | undefined): Pick<PlanRequest, 'engineVersion'> {
  const v = c.engineVersion;
  if (v === undefined) return date ? { engineVersion: engineRules(c.engine as EngineName, { date }).since } : {};
  const dated = /(\d{4}-\d{2}-\d{2})/.exec(v);
  if (dated && !/\(\d{3,5}\)/.test(v) && !/^\d+\.\d+/.test(v))
    return { engineVersion: engineRules(c.engine as EngineName, { date: dated[1] as string }).since };
  const build = /\((\d{3,5})\)/.exec(v) ?? /^b(\d+)$/.exec(v);
  if (build) return { engineVersion: `b${build[1]}` };
  const dotted = /(\d+\.\d+(?:\.\d+)?)/.exec(v);
  if (dotted) return { engineVersion: dotted[1] as string };
  const month = c.engine === 'llama.cpp' ? mergedMonth(v) : undefined;
  return month ? { engineVersion: engineRules(c.engine as EngineName, { date: month }).since } : {};
}

const MONTHS = 'january february march april may june july august september october november december'.split(' ');

/**
 * llama.cpp's "PR #4766 branch (merged January 2024)": a PR branch measured before its merge, dated
 * by the last day of the month it was merged in (the branch has no build number of its own).
 */
function mergedMonth(v: string): string | undefined {
  const m = /\b([A-Za-z]+) (\d{4})\b/.exec(v);
  const index = m ? MONTHS.indexOf((m[1] as string).toLowerCase()) : -1;
  if (!m || index < 0) return undefined;
  const year = Number(m[2]);
  const last = new Date(Date.UTC(year, index + 1, 0)).getUTCDate();
  return `${year}-${String(index + 1).padStart(2, '0')}-${String(last).padStart(2, '0')}`;
}

/** tp x pp x replicas of the cell's GPUs: stated, else tensor-parallel engines split over all, llama.cpp by layer. */
function layoutOf(c: EngineCell): string {
  if ((num(c, 'ep') ?? 1) > 1 || c.config.attentionDp === true) refuse('expert or attention data parallelism');
  const split = str(c, 'split');
  const layerSplit = c.engine === 'llama.cpp' ? split !== 'row' : false;
  const tp =
    num(c, 'tp') ?? (c.gpus > 1 && !layerSplit && c.engine !== 'transformers' && c.engine !== 'exllamav2' ? c.gpus : 1);
  const pp = num(c, 'pp') ?? (tp === 1 && c.gpus > 1 ? c.gpus : 1);
  const dp = c.gpus / (tp * pp);
  if (!Number.isInteger(dp) || dp < 1) refuse(`tp ${tp} x pp ${pp} is not ${c.gpus} GPUs`);
  return `tp=${tp},pp=${pp},dp=${dp}`;
}

type Read = (s: ServingFigures) => number;

const stat = (m: string, l: LatencySummary): number =>
  /median|p50/i.test(m) ? l.p50 : /p90/i.test(m) ? l.p90 : /p99/i.test(m) ? l.p99 : l.mean;

/** The load the cell was measured under, when it is a serving run; null for a static batch or llama-bench. */
function loadOf(c: EngineCell): PlanRequest['load'] | null {
  const requests = num(c, 'numPrompts');
  const rate = c.config.requestRate;
  if (typeof rate === 'number') return { kind: 'rate', perSecond: rate, ...(requests ? { requests } : {}) };
  const users = num(c, 'concurrency');
  if (users !== undefined) return { kind: 'concurrency', users, ...(requests ? { requests } : {}) };
  if (rate === 'inf' || /queued at once|sent at once|offline/i.test(c.metric)) {
    return { kind: 'offline', requests: requests ?? refuse('an offline run without its request count') };
  }
  return null;
}

/** Output, input or both tokens a throughput counts, and per GPU or whole. */
function throughputScale(c: EngineCell): { tokens: (p: number, o: number) => number; perGpu: boolean } {
  const m = c.metric.toLowerCase();
  const perGpu = c.unit === 'tokens/s/gpu' || /per gpu/.test(m);
  if (/input\+output|prompt \+ output|\(prompt \+/.test(m)) return { tokens: (p, o) => p + o, perGpu };
  if (/^input tokens/.test(m)) return { tokens: (p) => p, perGpu };
  return { tokens: (_p, o) => o, perGpu };
}

const toUnit = (c: EngineCell, us: number): number =>
  c.unit === 'ms' ? us / 1e3 : c.unit === 's' ? us / 1e6 : c.unit === 'us' ? us : refuse(`unit ${c.unit}`);

interface CellPlan {
  req: Pick<PlanRequest, 'prompt' | 'tokens' | 'load'> & { batch: number };
  read: Read;
  detail: (s: ServingFigures) => string;
}

function servingCell(c: EngineCell, prompt: number, output: number, batch: number): CellPlan {
  const load = loadOf(c);
  const { tokens, perGpu } = throughputScale(c);
  const div = perGpu ? c.gpus : 1;
  const m = c.metric;
  const read = ((): Read => {
    if (load) {
      const l = (s: ServingFigures) => s.load ?? refuse('no load figures (the request does not fit one replica)');
      switch (c.kind) {
        case 'ttft':
          return (s) => toUnit(c, stat(m, l(s).ttftUs));
        case 'tpot':
        case 'itl':
          return (s) => toUnit(c, stat(m, l(s).tpotUs));
        case 'e2e':
          return (s) => toUnit(c, stat(m, l(s).e2eUs));
        case 'throughput':
          if (c.unit === 'requests/s') return (s) => l(s).requestsPerSecond;
          return (s) => (l(s).outputTokensPerSecond * tokens(prompt, output)) / output / div;
        default:
          return refuse(`a ${c.kind} figure under a serving load`);
      }
    }
    switch (c.kind) {
      case 'ttft':
        return (s) => toUnit(c, output <= 1 ? s.requestUs : s.ttftUs);
      case 'e2e':
        return (s) => toUnit(c, s.requestUs);
      case 'tpot':
      case 'itl':
        return (s) => toUnit(c, (s.requestUs - s.ttftUs) / Math.max(1, output - 1));
      case 'throughput':
        return (s) => (batch * tokens(prompt, output)) / (s.requestUs / 1e6) / div;
      default:
        return refuse(`a ${c.kind} figure of a static batch`);
    }
  })();
  return {
    req: { batch, prompt, tokens: output, ...(load ? { load } : {}) },
    read,
    detail: (s) =>
      s.load
        ? `${s.load.kind} ${s.load.level}: TTFT p50 ${(s.load.ttftUs.p50 / 1e3).toFixed(0)} ms, TPOT p50 ${(s.load.tpotUs.p50 / 1e3).toFixed(1)} ms, ${s.load.outputTokensPerSecond.toFixed(0)} out tok/s`
        : `batch ${batch}: TTFT ${(s.ttftUs / 1e3).toFixed(1)} ms, step ${(s.decodeStepUs / 1e3).toFixed(2)} ms, batch done ${(s.requestUs / 1e6).toFixed(2)} s`,
  };
}

/** llama-bench ppN: one prompt of N tokens, in -ub chunks. */
function prefillCell(c: EngineCell): CellPlan {
  if (num(c, 'depth')) refuse('a prompt after an existing context (llama-bench -d)');
  const prompt = need(c, 'promptTokens');
  const batch = num(c, 'batch') ?? 1;
  const read: Read = (s) => (c.unit === 'tokens/s' ? (batch * prompt) / (s.requestUs / 1e6) : toUnit(c, s.requestUs));
  return {
    req: { batch, prompt, tokens: 1 },
    read,
    detail: (s) => `prompt of ${prompt} at batch ${batch}: ${(s.requestUs / 1e3).toFixed(1)} ms`,
  };
}

/** Tokens generated one at a time: per sequence, or all sequences of the batch. */
function decodeCell(c: EngineCell): CellPlan {
  const output = num(c, 'outputTokens') ?? 128;
  const prompt = Math.max(1, num(c, 'promptTokens') ?? 1);
  const batch = num(c, 'batch') ?? 1;
  const perSequence = batch === 1 || /one sequence|per sequence|of one request/i.test(c.metric);
  const withPrefill = /request time|request latency|output tokens \/ request/i.test(c.metric);
  const read: Read = (s) => {
    const us = withPrefill ? s.requestUs : s.requestUs - s.ttftUs;
    const tokens = withPrefill ? output : Math.max(1, output - 1);
    const rate = tokens / (us / 1e6);
    return perSequence ? rate : rate * batch;
  };
  return {
    req: { batch, prompt, tokens: output },
    read,
    detail: (s) =>
      `batch ${batch}: step ${(s.decodeStepUs / 1e3).toFixed(2)} ms, ${(1e6 / s.decodeStepUs).toFixed(1)} tok/s per sequence`,
  };
}

/**
 * A mixture-of-experts model: a batch of identical sequences decoded greedily computes one token's
 * routing B times, so its steps read the experts of one sequence (pipeDejavu prices distinct requests).
 */
function routesExperts(c: EngineCell): boolean {
  if (c.arch?.experts !== undefined) return c.arch.experts > 1;
  if (!c.model || !catalogNames().includes(c.model)) return false;
  const e = getCatalogEntry(c.model);
  return e.kind === 'transformer' && (e.experts ?? 1) > 1;
}

function cellPlan(c: EngineCell): CellPlan {
  if (c.unit === 'TFLOPS' || c.unit === 'us')
    refuse('a kernel microbenchmark (priced by the kernel model, not a serving plan)');
  if (str(c, 'dataset') && (num(c, 'promptTokens') === undefined || num(c, 'outputTokens') === undefined))
    refuse(`prompt and output lengths drawn from ${str(c, 'dataset')} (not stated per request)`);
  if (str(c, 'speculative')) refuse('speculative decoding');
  if (c.config.identicalPrompts === true && (num(c, 'batch') ?? 1) > 1 && routesExperts(c))
    refuse('a batch of one prompt copied and decoded greedily: every sequence routes to the same experts');
  switch (c.kind) {
    case 'prefill':
      return prefillCell(c);
    case 'decode':
      return decodeCell(c);
    default: {
      const prompt = need(c, 'promptTokens');
      const output = need(c, 'outputTokens');
      const batch = num(c, 'batch') ?? num(c, 'maxBatch') ?? 1;
      return servingCell(c, prompt, output, batch);
    }
  }
}

/**
 * The engine's caps the cell states (max batch, tokens per step, ubatch, memory share), and no
 * request-path tokenizer when the cell's tool feeds the engine token ids (bench-tools.ts).
 */
function settingsOf(c: EngineCell, batch: number): PlanRequest['engineSettings'] {
  const maxNumSeqs = num(c, 'maxNumSeqs') ?? num(c, 'maxBatchSize');
  const maxBatchedTokens =
    num(c, 'maxNumTokens') ?? num(c, 'ubatch') ?? (c.engine === 'llama.cpp' ? num(c, 'nBatch') : undefined);
  const memoryUtilization = num(c, 'gpuMemoryUtilization') ?? num(c, 'memFractionStatic');
  const kvShareOfFree = num(c, 'kvCacheFraction');
  const fa = c.config.flashAttention;
  const flashAttention = typeof fa === 'boolean' ? fa : typeof fa === 'number' ? fa > 0 : undefined;
  const staticBatch = loadOf(c) === null && batch > 1;
  return {
    ...(maxNumSeqs !== undefined ? { maxNumSeqs } : staticBatch ? { maxNumSeqs: batch } : {}),
    ...(maxBatchedTokens !== undefined
      ? { maxBatchedTokens: c.engine === 'llama.cpp' ? Math.min(512, maxBatchedTokens) : maxBatchedTokens }
      : {}),
    ...(memoryUtilization !== undefined ? { memoryUtilization } : {}),
    ...(kvShareOfFree !== undefined ? { kvShareOfFree } : {}),
    ...(flashAttention !== undefined ? { flashAttention } : {}),
    ...(feedsTokenIds(c.tool) ? { tokenIds: true } : {}),
  };
}

/** The plan request that prices the cell (`plan --engine ... --layout ... --no-search`), and how its figure is read. */
export interface EngineCellQuery {
  request: PlanRequest & { layout: string };
  read: (s: ServingFigures) => number;
  detail: (s: ServingFigures) => string;
}

/** The cell as a query; throws NotExpressible (see expressed()). */
export function cellQuery(c: EngineCell, date?: string): EngineCellQuery {
  const gpu = gpuOf(c);
  const plan = cellPlan(c);
  const kv = str(c, 'kvCache');
  return {
    request: {
      ...modelOf(c),
      ...plan.req,
      ...weightsOf(c),
      ...versionOf(c, date),
      engine: c.engine as EngineName,
      engineSettings: settingsOf(c, plan.req.batch),
      ...(kv && /fp8|int8/.test(kv) ? { kvCache: 'fp8' as const } : {}),
      devices: 'none',
      virtual: [`${c.gpus}x${gpu.name}`],
      mode: 'inference',
      layout: layoutOf(c),
    },
    read: plan.read,
    detail: plan.detail,
  };
}

/** The cell's figure read off a layout's serving figures; refused when the engine cannot run it. */
export function readFigure(q: EngineCellQuery, s: ServingFigures | null): number {
  if (!s) return refuse('no serving figures for this model');
  if (s.engineRefusal) refuse(s.engineRefusal);
  if (!Number.isFinite(s.ttftUs)) refuse("one request does not fit the engine's KV cache on these GPUs");
  const v = q.read(s);
  return Number.isFinite(v) && v > 0 ? v : refuse('no finite prediction');
}

/** Runs `f`, turning a refusal into the reason a cell cannot be expressed. */
export function expressed<T>(id: string, f: () => T): T | { id: string; notExpressible: string } {
  try {
    return f();
  } catch (e) {
    if (e instanceof NotExpressible) return { id, notExpressible: e.message };
    return { id, notExpressible: `refused by pipeDejavu: ${(e as Error).message.split('\n')[0]}` };
  }
}

export function predictEngineCell(c: EngineCell, db: Database, date?: string): EngineCellResult {
  return expressed(c.id, () => {
    const q = cellQuery(c, date);
    const s = priceLayout(db, q.request).layout.serving ?? null;
    const predicted = readFigure(q, s);
    return { id: c.id, predicted, error: predicted / c.value - 1, detail: q.detail(s as ServingFigures) };
  });
}
