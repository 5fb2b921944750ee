/**
 * One step of an engine serving a decoder on a deployment (its stages, tensor-parallel groups and
 * GPUs): the time to decode one token for each running sequence and prefill the prompt chunks
 * scheduled with them. Pure.
 *
 * On the GPU, per block and per member of a tensor-parallel group (its 1/tp of every split weight):
 * - each weight GEMM on the engine's kernel for the format (weight-kernels.ts), at the step's rows;
 *   routed experts run only the experts the step's tokens reach;
 * - attention: prefill chunks through the engine's prefill kernel (flash: the chunk's causal FLOPs
 *   and its cached prefix's unmasked FLOPs, each at its kernel's published rate for its key count
 *   where the engine names its kernels (attention-kernels.ts), else at the architecture's flat
 *   fused-attention rate; unfused: two batched GEMMs and the scores through memory),
 *   decode through the cached keys and values at the engine's share of the bandwidth;
 * - the block's other kernels (norms, rotary, activation, residual) move their bytes;
 * - W8A8 kernels: each GEMM's input quantised first, by a kernel of its own where the engine
 *   runs it so (vLLM, SGLang), else fused into the kernel before;
 * - every kernel costs the GPU's fixed launch, ramp and tail time, and so does each operation a
 *   weight kernel's host code issues around its GEMM (bitsandbytes LLM.int8: weight-kernels.ts);
 * - two all-reduces of the step's activations when tp > 1.
 * On the host: a serial part the GPU waits for (scheduling, inputs, sampling, outputs; per step and
 * per sequence), and kernel launches, which overlap the GPU: a decode step within the engine's CUDA
 * graph sizes (llama.cpp: any one-token step) is one graph launch; outside a graph, each kernel also
 * leaves the GPU idle for the engine's stream gap. A step takes serial + max(GPU, launches).
 * Pipeline stages: 'sequential' engines run them one after the other; 'overlapped' engines split the
 * running sequences into one microbatch per stage, and a token comes every pipeline cycle.
 * Ubatches (llama.cpp -ub): a step of more tokens is computed in ubatches, one after another, or
 * pipelined over 'sequential' stages where the engine does so (llama.cpp's layer split from b2413).
 */
import { attentionPeakShare } from './attention-kernels.js';
import type { EngineDecoder, EngineGemm } from './engine-decoder.js';
import type { EngineRules } from './engine-rules.js';
import type { GpuSpec } from './gpu-spec.js';
import { WEIGHT_KERNELS, weightGemmUs, type WeightKernel } from './weight-kernels.js';

export interface EngineStage {
  gpu: GpuSpec;
  /** Transformer blocks on the stage. */
  blocks: number;
  /** Devices of one tensor-parallel group of the stage (its degree is their count). */
  members: readonly string[];
}

export interface EngineDeployment {
  engine: EngineRules;
  decoder: EngineDecoder;
  /** Bytes per stored weight of the served format, and of the LM head (kept wider by most formats). */
  bytesPerWeight: number;
  headBytesPerWeight: number;
  /** Bytes per cached key or value element. */
  kvBytesPerValue: number;
  /** The KV cache's dtype as launched (absent: 'auto', the model's dtype). */
  kvCache?: 'auto' | 'fp8';
  /** The kernel each stage's GPU runs the format on. */
  kernels: readonly WeightKernel[];
  stages: readonly EngineStage[];
  /** All-reduce of `bytes` over a tensor-parallel group (µs). */
  allReduceUs(members: readonly string[], bytes: number): number;
  /** Activations from one stage's device to the next stage's (µs). */
  sendUs(from: string, to: string, bytes: number): number;
}

/** What one step runs: sequences decoding a token each (with their cached tokens in total), and prompt chunks. */
export interface StepLoad {
  decodeSeqs: number;
  decodeContext: number;
  prefill: readonly { tokens: number; past: number }[];
}

export interface StepCost {
  us: number;
  gpuUs: number;
  hostUs: number;
  commUs: number;
}

const ACTIVATION_BYTES = 2;

/** The rows each of a GEMM's weights sees, and how many weight matrices run (experts the tokens reach). */
function gemmRuns(g: EngineGemm, tokens: number): { rows: number; copies: number } {
  if (!g.experts) return { rows: tokens, copies: 1 };
  const { count, topK } = g.experts;
  const reached = count * (1 - (1 - Math.min(topK, count) / count) ** Math.max(1, tokens));
  return { rows: Math.max(1, (tokens * topK) / Math.max(1, reached)), copies: reached };
}

/** Linear modules a GEMM is in the engine's modelling code: fused q/k/v and gate/up run apart where it keeps them separate. */
function modules(g: EngineGemm, engine: EngineRules): number {
  if (!engine.launches.separateProjections) return 1;
  return g.name === 'qkv' ? 3 : g.name === 'gate_up' ? 2 : 1;
}

function shard(g: EngineGemm, tp: number): { n: number; k: number } {
  if (g.split === 'column') return { n: Math.ceil(g.n / tp), k: g.k };
  if (g.split === 'row') return { n: g.n, k: Math.ceil(g.k / tp) };
  return { n: g.n, k: g.k };
}

/** Query heads and KV values per token one member holds (KV heads are replicated when tp exceeds them). */
function memberHeads(d: EngineDecoder, tp: number): { heads: number; kvValues: number } {
  return {
    heads: Math.ceil(d.heads / tp),
    kvValues: d.kvValuesPerLayer * Math.max(1 / tp, 1 / d.kvHeads),
  };
}

/**
 * A prompt chunk's flash attention (µs): its own tokens under the causal mask and the cached prefix
 * without one, each at its kernel's published rate for its key count (attention-kernels.ts) where
 * the engine names its kernels and the architecture has a table; else all of it at the
 * architecture's flat fused-attention fraction.
 */
export function flashPrefillUs(
  dep: EngineDeployment,
  gpu: GpuSpec,
  heads: number,
  tokens: number,
  past: number,
): number {
  const { engine, decoder: d } = dep;
  const perPair = 4 * heads * d.headDim;
  const ownFlops = perPair * tokens * ((tokens + 1) / 2);
  const prefixFlops = perPair * tokens * past;
  const rate = gpu.peak.fp16 * gpu.sustained * engine.attention.prefillShare;
  const kernels = engine.attention.prefillKernels;
  const own = kernels && attentionPeakShare(gpu.architecture, kernels.chunk, tokens, true);
  const prefix = kernels && attentionPeakShare(gpu.architecture, kernels.prefix, past, false);
  if (own === undefined || prefix === undefined) return (ownFlops + prefixFlops) / (rate * gpu.attentionFraction);
  return ownFlops / (rate * own) + (past > 0 ? prefixFlops / (rate * prefix) : 0);
}

function attentionUs(dep: EngineDeployment, stage: EngineStage, load: StepLoad, window?: number): number {
  const { engine, decoder: d } = dep;
  const gpu = stage.gpu;
  const tp = stage.members.length;
  const { heads, kvValues } = memberHeads(d, tp);
  const cap = (past: number): number => (window === undefined ? past : Math.min(past, window));
  let us = 0;
  for (const c of load.prefill) {
    const attended = cap(c.past) + (c.tokens + 1) / 2;
    const flops = 4 * heads * d.headDim * c.tokens * attended;
    const pastBytes = cap(c.past) * kvValues * dep.kvBytesPerValue;
    if (engine.attention.prefill === 'flash') {
      const computeUs = flashPrefillUs(dep, gpu, heads, c.tokens, cap(c.past));
      us += Math.max(computeUs, pastBytes / gpu.bytesPerUs);
    } else {
      const scores = heads * c.tokens * (cap(c.past) + c.tokens);
      const gemmUs = (2 * flops) / (gpu.peak.fp16 * gpu.sustained * gpu.gemmFraction * engine.attention.prefillShare);
      us += gemmUs + (scores * 4 * 3) / gpu.bytesPerUs + 2 * engine.launches.gpuUs;
    }
  }
  if (load.decodeSeqs > 0) us += decodeAttentionUs(dep, stage, load, window);
  return us;
}

/**
 * A decode step's attention over the cached keys and values: read once per KV head at the engine's
 * share of the bandwidth; a paged per-query-head kernel (engine-rules.ts `paged`, or `fp8CachePaged`
 * where the engine falls back to one for an fp8 cache) also reads each sequence's last block whole,
 * and takes at least the query heads' reads at its L2 rate.
 */
export function decodeAttentionUs(dep: EngineDeployment, stage: EngineStage, load: StepLoad, window?: number): number {
  const { engine, decoder: d } = dep;
  const gpu = stage.gpu;
  const tp = stage.members.length;
  const { heads, kvValues } = memberHeads(d, tp);
  const paged = (dep.kvCache === 'fp8' ? engine.attention.fp8CachePaged : undefined) ?? engine.attention.paged;
  const context = window === undefined ? load.decodeContext : Math.min(load.decodeContext, window * load.decodeSeqs);
  // The new token, and on average half a block past each sequence's last token (read, then masked).
  const perSequence = 1 + (paged ? (paged.blockTokens - 1) / 2 : 0);
  const bytes = (context + load.decodeSeqs * perSequence) * kvValues * dep.kvBytesPerValue;
  const kvUs = bytes / (gpu.bytesPerUs * engine.attention.decodeShare);
  if (!paged) return kvUs;
  const queriesPerKvHead = heads / Math.max(1, d.kvHeads / tp);
  return Math.max(kvUs, (bytes * queriesPerKvHead) / (gpu.bytesPerUs * paged.queryHeadRate));
}

/**
 * The batch a graphed decode step of `seqs` sequences replays where the engine pads to its captured
 * sizes (EngineHost.graphBatchAlign): 1, 2, 4, then the next multiple of the alignment.
 */
export function graphBatch(engine: EngineRules, seqs: number): number {
  const align = engine.host.graphBatchAlign;
  if (align === undefined || seqs <= 2) return seqs;
  if (seqs <= 4) return 4;
  return Math.ceil(seqs / align) * align;
}

/**
 * One stage's GPU time for the load (µs), and the kernels it launches. `padRows`: rows a padded
 * CUDA graph adds to the weight GEMMs and elementwise kernels (not to attention or the LM head).
 */
function stageGpu(
  dep: EngineDeployment,
  index: number,
  load: StepLoad,
  padRows = 0,
): { us: number; kernels: number; commUs: number } {
  const stage = dep.stages[index] as EngineStage;
  const { engine, decoder: d } = dep;
  const gpu = stage.gpu;
  const kernel = dep.kernels[index] as WeightKernel;
  const tp = stage.members.length;
  const tokens = load.decodeSeqs + load.prefill.reduce((a, c) => a + c.tokens, 0) + padRows;
  let us = 0;
  let kernels = 0;
  let commUs = 0;
  const blockShare = stage.blocks / d.layers;
  for (const kind of d.blocks) {
    const blocks = kind.count * blockShare;
    let blockUs = attentionUs(dep, stage, load, kind.window);
    let blockKernels = engine.launches.perBlock;
    const quantises = kernel.quantisesActivations === true && engine.launches.activationQuant === 'separate';
    for (const g of kind.gemms) {
      const { rows, copies } = gemmRuns(g, tokens);
      const { n, k } = shard(g, tp);
      blockUs += copies * weightGemmUs(gpu, kernel, dep.bytesPerWeight, rows, n, k);
      if (g.experts) blockKernels += Math.max(0, Math.ceil(copies) - 1);
      blockKernels += Math.ceil(copies) * modules(g, engine) * (kernel.hostOps ?? 0);
      if (quantises) {
        // The GEMM's input quantised by a kernel of its own: read 16-bit, write 8-bit.
        blockUs += (tokens * k * (ACTIVATION_BYTES + 1)) / gpu.bytesPerUs;
        blockKernels += 1;
      }
    }
    // Norms, rotary, activation and residuals: about 6 hidden-wide and 3 MLP-wide passes a token.
    const mlp = kind.gemms.find((g) => g.split === 'row' && g.name !== 'o');
    const elementBytes = tokens * ACTIVATION_BYTES * (6 * d.hidden + 3 * (mlp ? Math.ceil(mlp.k / tp) : 0));
    blockUs += elementBytes / gpu.bytesPerUs + blockKernels * engine.launches.gpuUs;
    if (tp > 1) {
      const syncs = engine.split.syncsPerBlock ?? 2;
      const arUs = syncs * dep.allReduceUs(stage.members, tokens * d.hidden * ACTIVATION_BYTES);
      commUs += blocks * arUs;
      blockUs += arUs;
      blockKernels += syncs;
    }
    us += blocks * blockUs;
    kernels += blocks * blockKernels;
  }
  if (index === dep.stages.length - 1) {
    const logits = load.decodeSeqs + load.prefill.length;
    const head = { ...WEIGHT_KERNELS.cublas };
    const { n, k } = shard({ name: 'head', n: d.vocab, k: d.hidden, split: 'column' }, tp);
    us += weightGemmUs(gpu, head, dep.headBytesPerWeight, logits, n, k);
    us += engine.launches.perStep * engine.launches.gpuUs;
    kernels += engine.launches.perStep;
  }
  return { us, kernels, commUs };
}

/** Whether the step replays a CUDA graph: its decodes within the graphs' batch, or (graphBy 'tokens') its tokens. */
function graphedStep(engine: EngineRules, load: StepLoad): boolean {
  const { graphMaxBatch, graphBy } = engine.host;
  if (graphBy === 'tokens') return load.decodeSeqs + load.prefill.reduce((a, c) => a + c.tokens, 0) <= graphMaxBatch;
  return load.prefill.length === 0 && load.decodeSeqs <= graphMaxBatch;
}

function scaled(load: StepLoad, share: number): StepLoad {
  return {
    decodeSeqs: load.decodeSeqs * share,
    decodeContext: load.decodeContext * share,
    prefill: load.prefill.map((c) => ({ tokens: c.tokens * share, past: c.past })),
  };
}

function sendsUs(dep: EngineDeployment, tokens: number): number {
  let us = 0;
  for (let i = 0; i + 1 < dep.stages.length; i++) {
    const from = dep.stages[i]?.members[0] as string;
    const to = dep.stages[i + 1]?.members[0] as string;
    us += dep.sendUs(from, to, tokens * dep.decoder.hidden * ACTIVATION_BYTES);
  }
  return us;
}

type MutableLoad = { decodeSeqs: number; decodeContext: number; prefill: { tokens: number; past: number }[] };

/**
 * The step's load cut into ubatches of at most `ubatch` tokens, as llama_decode cuts a batch: the
 * decoding sequences first, then the prompt chunks in order, each piece after its chunk's part before it.
 */
export function ubatchLoads(load: StepLoad, ubatch: number): StepLoad[] {
  const out: StepLoad[] = [];
  let part: MutableLoad = { decodeSeqs: 0, decodeContext: 0, prefill: [] };
  let room = ubatch;
  const take = (n: number): void => {
    room -= n;
    if (room > 0) return;
    out.push(part);
    part = { decodeSeqs: 0, decodeContext: 0, prefill: [] };
    room = ubatch;
  };
  const perSequence = load.decodeSeqs > 0 ? load.decodeContext / load.decodeSeqs : 0;
  for (let left = load.decodeSeqs; left > 0;) {
    const n = Math.min(room, left);
    part.decodeSeqs += n;
    part.decodeContext += n * perSequence;
    left -= n;
    take(n);
  }
  for (const c of load.prefill) {
    for (let done = 0; done < c.tokens;) {
      const n = Math.min(room, c.tokens - done);
      part.prefill.push({ tokens: n, past: c.past + done });
      done += n;
      take(n);
    }
  }
  if (room < ubatch) out.push(part);
  return out;
}

/**
 * A step computed in ubatches (EngineBatching.ubatchTokens): each ubatch through every stage, one
 * ubatch after another, or pipelined over 'sequential' stages where the engine does so (a stage
 * takes the next ubatch once it has passed this one on); the host's serial part once a step.
 */
function ubatchedCost(dep: EngineDeployment, load: StepLoad, parts: readonly StepLoad[]): StepCost {
  const { engine } = dep;
  const pipelined = engine.split.pipeline === 'sequential' && engine.split.pipelinesUbatches === true;
  const free = dep.stages.map(() => 0);
  let kernels = 0;
  let commUs = 0;
  for (const part of parts) {
    const tokens = part.decodeSeqs + part.prefill.reduce((a, c) => a + c.tokens, 0);
    // A ubatch is a graph's replay only as a step is (graphedStep); else its kernels pay the gap.
    const graphed = graphedStep(engine, part);
    const gapPerKernel = graphed ? 0 : (engine.launches.streamGapUs ?? 0);
    let at = pipelined ? 0 : Math.max(...free);
    for (let i = 0; i < dep.stages.length; i++) {
      const s = stageGpu(dep, i, part);
      const next = dep.stages[i + 1]?.members[0];
      const send = next
        ? dep.sendUs(dep.stages[i]?.members[0] as string, next, tokens * dep.decoder.hidden * ACTIVATION_BYTES)
        : 0;
      at = Math.max(at, free[i] as number) + s.us + s.kernels * gapPerKernel + send;
      free[i] = at;
      kernels += s.kernels;
      commUs += s.commUs + send;
    }
  }
  const gpuUs = Math.max(...free);
  const launchUs = kernels * engine.host.launchUs;
  const ranks = dep.stages.reduce((a, s) => a + s.members.length, 0);
  const sequences = load.decodeSeqs + load.prefill.length;
  const serialUs =
    engine.host.stepUs + engine.host.perSequenceUs * sequences + engine.host.perRankUs * Math.max(0, ranks - 1);
  return { us: serialUs + Math.max(gpuUs, launchUs), gpuUs, hostUs: serialUs + launchUs, commUs };
}

/** The step's time: the host's serial part, then the larger of the GPU's work and the kernel launches. */
export function stepCost(dep: EngineDeployment, load: StepLoad): StepCost {
  const { engine } = dep;
  const sequences = load.decodeSeqs + load.prefill.length;
  const tokens = load.decodeSeqs + load.prefill.reduce((a, c) => a + c.tokens, 0);
  const ubatch = engine.batching.ubatchTokens;
  if (ubatch !== undefined && tokens > ubatch) return ubatchedCost(dep, load, ubatchLoads(load, ubatch));
  const pp = dep.stages.length;
  const overlapped = engine.split.pipeline === 'overlapped' && pp > 1;
  const microbatches = overlapped ? Math.max(1, Math.min(pp, sequences)) : 1;
  const part = microbatches > 1 ? scaled(load, 1 / microbatches) : load;
  const graphed = graphedStep(engine, load);
  const padRows =
    graphed && part.prefill.length === 0 ? graphBatch(engine, Math.ceil(part.decodeSeqs)) - part.decodeSeqs : 0;
  const stages = dep.stages.map((_, i) => stageGpu(dep, i, part, padRows));
  const sum = stages.reduce((a, s) => a + s.us, 0);
  const slowest = Math.max(...stages.map((s) => s.us));
  const sends = sendsUs(dep, tokens / microbatches);
  const commUs = stages.reduce((a, s) => a + s.commUs, 0) * microbatches + sends * microbatches;
  const kernels = stages.reduce((a, s) => a + s.kernels, 0) * microbatches;
  const gapUs = graphed ? 0 : kernels * (engine.launches.streamGapUs ?? 0);
  const gpuUs = sum + (microbatches - 1) * slowest + sends * microbatches + gapUs;
  const launchUs = graphed ? 20 * microbatches : kernels * engine.host.launchUs;
  const ranks = dep.stages.reduce((a, s) => a + s.members.length, 0);
  const serialUs =
    engine.host.stepUs + engine.host.perSequenceUs * sequences + engine.host.perRankUs * Math.max(0, ranks - 1);
  const hostUs = serialUs + launchUs;
  return { us: serialUs + Math.max(gpuUs, launchUs), gpuUs, hostUs, commUs };
}
