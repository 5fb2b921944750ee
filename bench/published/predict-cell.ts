/**
 * What pipeDejavu predicts for one published cell, through the product's own paths: `plan` on
 * datasheet GPUs (training steps, prefill, serving figures) with the cell's configuration as a
 * layout, the datasheet predictor for GEMM and bandwidth peaks, the cost model for all-reduce.
 * A cell the tool cannot express is returned with the reason.
 */
import { openDatabase } from '../../src-main/adapters/store/open-database.js';
import type { Database } from '../../src-main/adapters/store/types.js';
import { catalogNames, getCatalogEntry } from '../../src-main/core/catalog/index.js';
import type { CatalogEntry } from '../../src-main/core/catalog/index.js';
import { allReduceOver, allReduceRoute } from '../../src-main/core/planner/cost/all-reduce.js';
import { gatherScatterOver, SHARD_COLLECTIVES } from '../../src-main/core/planner/cost/gather-scatter.js';
import { busBandwidthFactor } from '../../src-main/core/planner/cost/nccl-tests.js';
import {
  MAX_VIRTUAL_CLUSTER_GPUS,
  virtualDevice,
  type GpuDatasheet,
} from '../../src-main/core/planner/cost/datasheets.js';
import { buildPlanLinks } from '../../src-main/core/planner/cost/links.js';
import { DatasheetPredictor } from '../../src-main/core/predictor/datasheet-predictor.js';
import { ENGINE_CHOICES } from '../../src-main/core/engines/engine-names.js';
import { TRAINING_STACK_NAMES, type TrainingStack } from '../../src-main/core/planner/stacks/stack-names.js';
import type { CatalogDtype } from '../../src-main/core/workload/request-schemas.js';
import { planWorkload, type PlanRequest, type PlanResponse } from '../../src-main/services/plan/plan-service.js';
import { virtualNodes } from '../../src-main/core/planner/problem/virtual-nodes.js';
import type { LayoutAnswer } from '../../src-main/services/plan/layout-plan.js';
import type { ServingFigures } from '../../src-main/core/planner/serving/serving.js';
import type { Arch, Cell } from './cells.js';
import { archDecoder, exactGpu } from '../lib/published-model.js';
import { finetuneOf } from './finetune-cell.js';

/**
 * A priced layout's memory, the most loaded GPU's: what the plan needs there against what the GPU
 * holds, whether the plan is judged to fit, and why not; with the source's own figure where it
 * states one (GiB per GPU, as measured).
 */
export interface CellMemory {
  fits: boolean;
  neededBytes: number;
  availableBytes: number;
  /** The first reason the plan gives when it does not fit. */
  reason?: string;
  publishedBytes?: number;
}

export type CellResult =
  | { id: string; predicted: number; error: number; detail: string; memory?: CellMemory }
  | { id: string; notExpressible: string };

interface Priced {
  predicted: number;
  detail: string;
  memory?: CellMemory;
}

class NotExpressible extends Error {}
const refuse = (why: string): never => {
  throw new NotExpressible(why);
};

const num = (c: Cell, k: string): number | undefined => {
  const v = c.config[k];
  return typeof v === 'number' ? v : undefined;
};
const str = (c: Cell, k: string): string | undefined => {
  const v = c.config[k];
  return typeof v === 'string' ? v : undefined;
};
const need = (c: Cell, k: string): number => num(c, k) ?? refuse(`the source states no ${k}`);

/** The cell's GPU by one of its exact names (no partial match: "L40" is not the L40S). */
function gpuOf(c: Cell): GpuDatasheet {
  return exactGpu(c.gpu) ?? refuse(`GPU "${c.gpu}" is not in models/gpus.json`);
}

/** A published architecture as a catalog transformer description. */
const archEntry = (id: string, a: Arch): CatalogEntry => archDecoder(id, a);

/** The cell trained with dropout (config.dropout > 0): its architecture carries it. */
const withDropout = (c: Cell, e: CatalogEntry): CatalogEntry =>
  (num(c, 'dropout') ?? 0) > 0 && e.kind === 'transformer' ? { ...e, dropout: true } : e;

function modelOf(c: Cell): { workload: string; decoder?: CatalogEntry } {
  if (c.model && catalogNames().includes(c.model)) return { workload: c.model };
  if (c.arch) return { workload: `${c.id}.arch`, decoder: withDropout(c, archEntry(c.id.slice(0, 60), c.arch)) };
  return refuse(c.model ? `model ${c.model} is not in the catalog and no architecture is given` : 'no model given');
}

const WEIGHTS: Record<string, PlanRequest['weights'] | null> = {
  f16: null,
  fp16: null,
  bf16: null,
  q8_0: 'q8_0',
  q4_0: 'q4_0',
  q4_k_m: 'q4_k',
  q4_k: 'q4_k',
  'int4-awq': 'int4' as PlanRequest['weights'],
  'int4-gptq': 'int4' as PlanRequest['weights'],
  int4: 'int4' as PlanRequest['weights'],
  fp8: 'fp8' as PlanRequest['weights'],
  int8: 'int8',
};

function weightsOf(c: Cell): Partial<PlanRequest> {
  const w = str(c, 'weights');
  if (w === undefined) return {};
  const f = WEIGHTS[w];
  if (f === undefined) return refuse(`weight format ${w} is not one pipeDejavu plans`);
  return f === null ? {} : { weights: f };
}

function dtypeOf(c: Cell, fallback: CatalogDtype): CatalogDtype {
  const d = str(c, 'dtype') ?? fallback;
  if (!['fp32', 'fp16', 'bf16', 'fp8'].includes(d)) return refuse(`dtype ${d}`);
  return d as CatalogDtype;
}

const ZERO: Record<string, 0 | 1 | 2 | 3> = {
  none: 0,
  zero1: 1,
  'distributed-optimizer': 1,
  zero2: 2,
  'fsdp-shard-grad-op': 2,
  zero3: 3,
  'fsdp-full-shard': 3,
  hsdp: 3,
};

/**
 * Hybrid sharding's shard group: config.shardGroup, else FSDP's HYBRID_SHARD default, full sharding
 * within a node (PyTorch docs, ShardingStrategy.HYBRID_SHARD), nodes of 8 as plan places datasheet GPUs.
 */
function shardGroupOf(c: Cell): number | undefined {
  return str(c, 'zero') === 'hsdp' ? (num(c, 'shardGroup') ?? 8) : undefined;
}

/** The cell's data-parallel replicas: its dp, else the GPUs left over tp x cp x pp. */
function dataParallel(c: Cell, gpus: number): number {
  return num(c, 'dp') ?? gpus / ((num(c, 'tp') ?? 1) * (num(c, 'cp') ?? 1) * (num(c, 'pp') ?? 1));
}

/** The cell's parallel layout as `plan --layout` takes it (cp: Megatron-LM's context parallelism, ring attention). */
function layoutOf(c: Cell, gpus: number, microbatches?: number): string {
  const tp = num(c, 'tp') ?? 1;
  const pp = num(c, 'pp') ?? 1;
  const cp = num(c, 'cp') ?? 1;
  const dp = dataParallel(c, gpus);
  if (!Number.isInteger(dp) || tp * cp * pp * dp !== gpus)
    refuse(`tp ${tp} x cp ${cp} x pp ${pp} x dp ${dp} is not ${gpus} GPUs`);
  const zero = str(c, 'zero');
  const z = zero === undefined ? undefined : ZERO[zero];
  if (zero !== undefined && z === undefined) refuse(`sharding "${zero}"`);
  const recompute = str(c, 'recompute');
  const parts = [`tp=${tp}`, `pp=${pp}`, `dp=${dp}`, ...(cp > 1 ? [`cp=${cp}`] : [])];
  if (z !== undefined) parts.push(`zero=${z}`);
  const shard = shardGroupOf(c);
  if (shard !== undefined) parts.push(`shard=${shard}`);
  if (recompute !== undefined) parts.push(`recompute=${recompute}`);
  if (microbatches !== undefined) parts.push(`mb=${microbatches}`);
  return parts.join(',');
}

/** `plan --layout ... --no-search` on the cell's datasheet GPUs: the layout priced alone, as a searched plan would be. */
function plan(db: Database, c: Cell, req: Omit<PlanRequest, 'devices' | 'virtual' | 'workload'>): PlanResponse {
  const gpu = gpuOf(c);
  if (c.gpus > MAX_VIRTUAL_CLUSTER_GPUS) refuse(`${c.gpus} GPUs (a plan takes at most ${MAX_VIRTUAL_CLUSTER_GPUS})`);
  const virtual = [`${c.gpus}x${gpu.name}`];
  return planWorkload(db, { ...modelOf(c), ...req, devices: 'none', virtual, topN: 1, search: false });
}

/** The priced layout of a response: the `--layout` plan, with its serving figures when served. */
function pricedLayout(r: PlanResponse): LayoutAnswer {
  return r.layout ?? refuse('no layout priced');
}

const GIB = 2 ** 30;

/** The layout's memory on its most loaded GPU (largest need over what it holds), with the source's figure. */
function layoutMemory(c: Cell, l: LayoutAnswer): CellMemory {
  const worst = [...l.plan.memory].sort(
    (a, b) => b.neededBytes / b.availableBytes - a.neededBytes / a.availableBytes,
  )[0];
  const published = c.alsoPublished?.['memoryGiB'];
  return {
    fits: l.fits,
    neededBytes: worst?.neededBytes ?? 0,
    availableBytes: worst?.availableBytes ?? 0,
    ...(l.fits || l.reasons[0] === undefined ? {} : { reason: l.reasons[0] }),
    ...(published !== undefined ? { publishedBytes: published * GIB } : {}),
  };
}

/** The training stack the cell ran (its config's `stack`), priced with that stack's rules (core/planner/stacks/). */
function stackOf(c: Cell): TrainingStack | undefined {
  const s = str(c, 'stack');
  if (s === undefined) return undefined;
  return (TRAINING_STACK_NAMES as readonly string[]).includes(s) ? (s as TrainingStack) : refuse(`stack ${s}`);
}

/** The attention kernel the cell's stack ran (config.attention): fused unless it says unfused. */
function attentionOf(c: Cell): PlanRequest['attention'] {
  const a = str(c, 'attention');
  if (a === undefined || a === 'fused' || a === 'unfused') return a;
  return refuse(`attention ${a}`);
}

function trainingCell(db: Database, c: Cell): Priced {
  const seq = need(c, 'seq');
  const globalBatch = need(c, 'globalBatch');
  const micro = num(c, 'microBatch');
  const microbatches = micro !== undefined ? globalBatch / (micro * dataParallel(c, c.gpus)) : undefined;
  const layout = layoutOf(c, c.gpus, microbatches);
  const stack = stackOf(c);
  const attention = attentionOf(c);
  const adapters = finetuneOf(c);
  if (typeof adapters === 'string') refuse(adapters);
  // The network between the cell's nodes where the source states it (config.network), else plan's assumed one.
  const network = str(c, 'network');
  const r = plan(db, c, {
    ...(stack ? { stack } : {}),
    ...(attention ? { attention } : {}),
    ...(typeof adapters === 'string' ? {} : adapters),
    ...(network ? { network } : {}),
    mode: 'training',
    batch: globalBatch,
    seq,
    dtype: dtypeOf(c, 'bf16'),
    offload: 'no',
    layout,
  });
  const priced = pricedLayout(r);
  const { stepUs } = priced;
  const tokensPerGpu = (globalBatch * seq) / (stepUs / 1e6) / c.gpus;
  return {
    predicted: trainingValue(c, tokensPerGpu),
    // No micro-batch size stated: the layout's best count of those each replica's share allows, shown.
    detail: `${stack ? `${stack}: ` : ''}${typeof adapters !== 'string' && adapters.finetune ? `${adapters.finetune.adapter} r${adapters.finetune.rank}: ` : ''}${layout}${microbatches === undefined ? `; mb=${priced.plan.microbatches} chosen` : ''}${network ? ` over ${network}` : ''}; step ${(stepUs / 1e6).toFixed(2)} s`,
    memory: layoutMemory(c, priced),
  };
}

/** tokens/s/GPU as the cell's unit: model TFLOP/s per GPU or MFU by the source's own FLOP count. */
function trainingValue(c: Cell, tokensPerGpu: number): number {
  if (c.unit === 'tokens/s/gpu') return tokensPerGpu;
  if (c.unit === 'tokens/s') return tokensPerGpu * c.gpus;
  const flops = flopsPerToken(c);
  if (c.unit === 'TFLOP/s/gpu') return (tokensPerGpu * flops) / 1e12;
  if (c.unit === 'MFU') {
    const peak = num(c, 'peakTflops') ?? refuse('an MFU without the peak it was taken against');
    return (tokensPerGpu * flops) / 1e12 / peak;
  }
  return refuse(`unit ${c.unit}`);
}

/**
 * Model FLOPs per token as the source counts them (config.flops): "6N" (6 x parameters),
 * "6N+attn" (6N + 12 x layers x hidden x seq, PaLM/MosaicML), "megatron" (Narayanan et al.:
 * 96 B s l h² (1 + s/6h + V/16lh) per batch, with full recomputation).
 */
function flopsPerToken(c: Cell): number {
  const a = c.arch ?? archOfCatalog(c);
  const seq = need(c, 'seq');
  const n = a.params ?? refuse('no parameter count to count FLOPs with');
  switch (str(c, 'flops') ?? '6N+attn') {
    case '6N':
      return 6 * n;
    case '6N+attn':
      return 6 * n + 12 * a.layers * a.hidden * seq;
    case 'megatron': {
      const h = a.hidden;
      return 96 * a.layers * h * h * (1 + seq / (6 * h) + a.vocab / (16 * a.layers * h));
    }
    default:
      return refuse(`FLOP count ${str(c, 'flops')}`);
  }
}

function archOfCatalog(c: Cell): Arch {
  const e = c.model ? getCatalogEntry(c.model) : refuse('no model');
  if (e.kind !== 'transformer') return refuse('not a transformer');
  return {
    family: e.mlp === 'swiglu' ? 'llama' : 'gpt',
    layers: e.layers,
    hidden: e.hidden,
    heads: e.heads,
    ffn: e.ffn,
    vocab: e.vocab ?? 0,
    context: e.context ?? 0,
    params: e.reportedParams,
  };
}

function splitLayout(c: Cell): string {
  const tp = num(c, 'tp') ?? 1;
  const split = str(c, 'split');
  if (c.gpus === 1) return 'tp=1,pp=1,dp=1';
  if (split === 'layer' || (split === undefined && tp === 1)) return `tp=1,pp=${c.gpus},dp=1`;
  return layoutOf(c, c.gpus);
}

function servingPlan(
  db: Database,
  c: Cell,
  batch: number,
  prompt: number,
  tokens: number,
): { s: ServingFigures; memory: CellMemory } {
  const kv = str(c, 'kvCache');
  if (kv !== undefined && !['fp16', 'bf16', 'f16'].includes(kv))
    refuse(
      `a KV cache in ${kv} (the kernel roofline this bench checks holds it in the model's dtype; engines price it: bench:engines)`,
    );
  const req = {
    mode: 'inference',
    batch,
    seq: prompt,
    dtype: dtypeOf(c, 'fp16'),
    ...weightsOf(c),
    layout: splitLayout(c),
    prompt,
    tokens,
  } as const;
  // The datasheet kernel model this bench checks (issue 46); engines are checked by bench:engines.
  const priced = pricedLayout(plan(db, c, { ...req, engine: 'ideal' }));
  const s = priced.serving ?? refuse('no serving figures for this model');
  // Memory as the engine that ran the cell places the model (config.engine), the kernel roofline's otherwise.
  const engine = engineOf(c);
  const placed = engine ? pricedLayout(plan(db, c, { ...req, engine })) : priced;
  return { s, memory: layoutMemory(c, placed) };
}

/** The serving engine that ran the cell (config.engine), one `plan --engine` names. */
function engineOf(c: Cell): PlanRequest['engine'] {
  const e = str(c, 'engine');
  if (e === undefined) return undefined;
  return (ENGINE_CHOICES as readonly string[]).includes(e) ? (e as PlanRequest['engine']) : refuse(`engine ${e}`);
}

function prefillCell(db: Database, c: Cell): Priced {
  const batch = num(c, 'batch') ?? 1;
  const prompt = need(c, 'promptTokens');
  const { s, memory } = servingPlan(db, c, batch, prompt, num(c, 'outputTokens') ?? 1);
  const detail = `TTFT ${(s.ttftUs / 1e3).toFixed(1)} ms`;
  if (c.unit === 'ms') return { predicted: s.ttftUs / 1e3, detail, memory };
  if (c.unit === 'tokens/s') return { predicted: (batch * prompt) / (s.ttftUs / 1e6), detail, memory };
  return refuse(`unit ${c.unit}`);
}

function decodeCell(db: Database, c: Cell): Priced {
  const batch = num(c, 'batch') ?? 1;
  const out = need(c, 'outputTokens');
  const prompt = num(c, 'promptTokens') ?? 1;
  const { s, memory } = servingPlan(db, c, batch, prompt, out);
  const perSeq = 1e6 / s.decodeStepUs;
  const detail = `step ${(s.decodeStepUs / 1e3).toFixed(2)} ms at batch ${batch}`;
  if (c.unit === 'tokens/s')
    return { predicted: str(c, 'rate') === 'per-sequence' ? perSeq : perSeq * batch, detail, memory };
  return refuse(`unit ${c.unit}`);
}

/** Output tokens per second of a batch that prefills its prompts, then decodes its output tokens. */
function servingCell(db: Database, c: Cell): Priced {
  const prompt = need(c, 'promptTokens');
  const out = need(c, 'outputTokens');
  const batch = num(c, 'batch') ?? num(c, 'concurrency') ?? refuse('the source states no batch or concurrency');
  const { s, memory } = servingPlan(db, c, batch, prompt, out);
  const seconds = s.requestUs / 1e6;
  const tokens = (batch * out) / seconds;
  const detail = `batch ${batch}: TTFT ${(s.ttftUs / 1e3).toFixed(0)} ms, step ${(s.decodeStepUs / 1e3).toFixed(1)} ms`;
  if (c.unit === 'tokens/s') return { predicted: tokens, detail, memory };
  if (c.unit === 'tokens/s/gpu') return { predicted: tokens / c.gpus, detail, memory };
  if (c.unit === 'ms') return { predicted: s.ttftUs / 1e3, detail, memory };
  return refuse(`unit ${c.unit}`);
}

function gemmCell(c: Cell): { predicted: number; detail: string } {
  const gpu = gpuOf(c);
  const m = need(c, 'm');
  const n = need(c, 'n');
  const k = need(c, 'k');
  const dtype = dtypeOf(c, 'bf16');
  const flops = 2 * m * n * k;
  const bytes = (m * k + k * n + m * n) * (dtype === 'fp32' ? 4 : dtype === 'fp8' ? 1 : 2);
  // A GEMM benchmark's fp8 inputs are fp8 already: no cast.
  const p = new DatasheetPredictor(gpu, { fp8Inputs: true }).predict([
    {
      op: 'MatMul',
      family: 'gemm',
      shape: { B: 1, M: m, N: n, K: k },
      dtype,
      flops,
      bytes,
      device: virtualDevice(gpu.name).features,
    },
  ])[0];
  const us = p?.timeUs ?? refuse('no prediction');
  return { predicted: flops / us / 1e6, detail: `${m}x${n}x${k} ${dtype}: ${us.toFixed(0)} µs` };
}

function bandwidthCell(c: Cell): { predicted: number; detail: string } {
  const gpu = gpuOf(c);
  const bytes = 2 ** 30;
  const p = new DatasheetPredictor(gpu).predict([
    {
      op: 'Add',
      family: 'elementwise',
      shape: { n: bytes / 6 },
      dtype: 'fp16',
      flops: bytes / 6,
      bytes,
      device: virtualDevice(gpu.name).features,
    },
  ])[0];
  const us = p?.timeUs ?? refuse('no prediction');
  return { predicted: bytes / us / 1e3, detail: `1 GiB streamed in ${us.toFixed(0)} µs` };
}

/**
 * nccl-tests bus bandwidth of an all-reduce, all-gather or reduce-scatter over the cell's GPUs,
 * from the cost model (all-reduce.ts, gather-scatter.ts): in one machine, or in nodes of 8 over
 * the cell's network (config.network: a node of models/node-networks.json or '8x400Gb-IB').
 * config.nvls false: the run disabled NVLS (NCCL_NVLS_ENABLE=0), so the links lose it. busbw =
 * algbw x 2(n−1)/n for an all-reduce, (n−1)/n for the other two (nccl-tests PERFORMANCE.md).
 */
function ncclCell(c: Cell): { predicted: number; detail: string } {
  const gpu = gpuOf(c);
  const op = str(c, 'op') ?? 'all_reduce';
  if (op !== 'all_reduce' && !(SHARD_COLLECTIVES as readonly string[]).includes(op))
    refuse(`${op} (the planner prices all_reduce, all_gather and reduce_scatter)`);
  const bytes = need(c, 'bytes');
  // Placed as plan places datasheet GPUs: nodes of 8 with the generation's InfiniBand beyond 8.
  const nodes = virtualNodes(Array<string>(c.gpus).fill(gpu.name), undefined);
  const devices = nodes.machines.map((machine, i) => virtualDevice(gpu.name, { index: i, machine }).device);
  const network = str(c, 'network') ?? nodes.network;
  const built = buildPlanLinks(devices, network ? { network } : {}).links;
  const links = c.config['nvls'] === false ? built.map(({ nvlsGbps: _, ...l }) => l) : built;
  const ids = devices.map((d) => d.id);
  const route = allReduceRoute(ids, links) ?? refuse('no route between the GPUs');
  const { us, algorithm } = op === 'all_reduce' ? allReduceOver(route, bytes) : gatherScatterOver(route, bytes);
  const algbw = bytes / us / 1e3;
  return {
    predicted: algbw * busBandwidthFactor(op, c.gpus),
    detail: `${(bytes / 2 ** 20).toFixed(0)} MiB in ${us.toFixed(0)} µs, ${algorithm}${network ? ` over ${network}` : ''}`,
  };
}

export function predictCell(c: Cell, db: Database = openDatabase(':memory:')): CellResult {
  try {
    const r = ((): Priced => {
      switch (c.kind) {
        case 'training':
          return trainingCell(db, c);
        case 'prefill':
          return prefillCell(db, c);
        case 'decode':
          return decodeCell(db, c);
        case 'serving':
          return servingCell(db, c);
        case 'gemm':
          return gemmCell(c);
        case 'bandwidth':
          return bandwidthCell(c);
        case 'nccl':
          return ncclCell(c);
      }
    })();
    // A latency is better when lower: its error is still predicted over published.
    return {
      id: c.id,
      predicted: r.predicted,
      error: r.predicted / c.value - 1,
      detail: r.detail,
      ...(r.memory ? { memory: r.memory } : {}),
    };
  } catch (e) {
    if (e instanceof NotExpressible) return { id: c.id, notExpressible: e.message };
    return { id: c.id, notExpressible: `refused by pipeDejavu: ${(e as Error).message.split('\n')[0]}` };
  }
}
