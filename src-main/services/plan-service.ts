/**
 * `pipedejavu plan`: a workload and a set of devices (this machine's, an imported
 * machine's, datasheet-only GPUs) become a planning problem: per-layer times from the
 * predictor on each device, memory per device, alpha-beta links from the probed
 * topology and the stated network. The searches rank plans; the best one is
 * simulated and exported to torchrun, DeepSpeed, Megatron-LM and llama.cpp.
 */
import { finetuneTarget } from './finetune-target.js';
import {
  catalogNames,
  getCatalogEntry,
  kvCacheBytes,
  type CatalogEntry,
  type CatalogLayer,
  type TransformerEntry,
} from '../core/catalog/index.js';
import { headDimOf } from '../core/catalog/block-layout.js';
import { attentionScoreBytes } from '../core/catalog/activation-memory.js';
import { adapterBytesPerParam, type FinetuneRequest, type FinetuneSpec } from '../core/workload/finetune.js';
import { tunedLayersMemory, type TunedLayerMemory } from '../core/planner/cost/finetune-memory.js';
import { layerBackwardUs } from '../core/planner/cost/training-step.js';
import { peftTargetModules } from '../core/catalog/lora.js';
import { formatBytes } from '../core/planner/cost/memory.js';
import { isTorchEpName } from '../core/domain/execution-provider.js';
import { preferredGroup } from './profiled-device.js';
import { decodeBandwidthGBps } from './generation-service.js';
import { servingFigures, type ServingFigures } from '../core/planner/cost/serving.js';
import { WEIGHT_FORMATS, type WeightFormat } from '../core/workload/generation.js';
import { DTYPE_BYTES } from '../core/kernels/cost.js';
import { datasheetCheckLine } from './datasheet-check-service.js';
import { deviceMemoryBytes } from './device-memory.js';
import { UserError } from '../core/errors.js';
import type { DeviceFeatures, Predictor } from '../core/predictor/types.js';
import type { Dtype } from '../core/domain/measurement.js';
import { predictWorkload, type WorkloadPrediction } from '../core/workload/predict-workload.js';
import type { Workload } from '../core/workload/types.js';
import {
  GPU_DATASHEETS,
  hasFp8,
  parseVirtualGpus,
  resolveGpuName,
  virtualDevice,
  type GpuDatasheet,
} from '../core/planner/cost/datasheets.js';
import { DatasheetPredictor } from '../core/predictor/datasheet-predictor.js';
import { memoryEfficiency, type KernelEfficiencies } from '../core/predictor/kernel-efficiency.js';
import { transferredTable, type TransferredTable } from './datasheet-transfer.js';
import { bandwidthProblem, buildPlanLinks, latencyProblem, type MachineLinks } from '../core/planner/cost/links.js';
import { createCostModel, type CostModel, type MeasuredCollective } from '../core/planner/cost/cost-model.js';
import { fitNcclTests, parseNcclTests } from '../core/planner/cost/nccl-tests.js';
import { parseNetworkStatement, type LinkRule } from '../core/planner/cost/network-statement.js';
import { globMatches, isGlob } from '../core/text/glob.js';
import { groupRepeated } from '../core/text/grouped.js';
import { count } from '../core/text/plural.js';
import type { PlanAllResult } from '../core/planner/search.js';
import {
  ASSUMED_HOST_MEMORY_PER_GPU_BYTE,
  assumedHostMemory,
  offloadPolicy,
  offloadSettings,
  searchRanked,
  type RankedPlan,
  type RankedPlans,
  type RecomputeRequest,
} from '../core/planner/search/plan-ranking.js';
import { plannerContext } from '../core/planner/problem.js';
import { simStagesOfPlan, simulatePipeline, type SimEvent } from '../core/planner/simulator/pipeline-simulator.js';
import { exportPlan, type ExportInput, type PlanExports } from '../core/planner/exports/export-plan.js';
import type {
  HostMemory,
  Mode,
  Plan,
  PlanDevice,
  PlanLayer,
  PlanProblem,
  PlanSuggestion,
} from '../core/planner/types.js';
import { SUGGESTION_TIME_MS, suggestChanges } from './plan-suggestions.js';
import { layoutAnswer, type LayoutAnswer } from './layout-plan.js';
import { parseLayout, type Layout } from '../core/planner/layout.js';
import { MachineRepo, type MachineDetail } from '../adapters/store/machine-repo.js';
import type { Database } from '../adapters/store/types.js';
import { findMachine, listMachines } from './machine-service.js';
import { workloadPredictor } from './predictor-service.js';
import { loadTrainingData } from './training-data.js';
import { resolveWorkload, storedWorkload } from './workload-service.js';
import { bandFactors, stepBand, type StepBand } from './plan-bands.js';
import {
  SERVING_CANDIDATES,
  checkWeights,
  isDecoder,
  rankServing,
  searchedBatch,
  servedDecoderOf,
  unusedServingOptions,
  withOneStagePlans,
  type ServedDecoder,
  type ServingObjective,
} from './serving-plan.js';
import { conditionsWarning } from './run-conditions-service.js';

export interface PlanRequest {
  workload: string;
  /** A decoder read from a GGUF header (the workload is then its .gguf file; CLI only). */
  decoder?: CatalogEntry;
  /**
   * How the weights are stored when serving (--weights, or a GGUF file's format): it sets the bytes
   * per parameter (memory and decode) and reaches the problem (`PlanProblem.weights`) and the
   * datasheet predictors; default: the model's dtype. Refused when training, for a format the
   * dtype cannot take, and fp8 on GPUs without fp8 units.
   */
  weights?: WeightFormat;
  /** Serving a decoder: rank plans by a whole request's time (latency, default) or by tokens/s at the largest batch. */
  objective?: ServingObjective;
  /** Serving a decoder: output tokens per request (default 256); the KV cache holds prompt + tokens. */
  tokens?: number;
  /** Serving a decoder: prompt tokens (default: seq, else 1024 or what the model's context leaves). */
  prompt?: number;
  /** Activation recomputation to search when training: 'auto' (default) tries none, selective and full. */
  recompute?: RecomputeRequest;
  /** "all", or a comma list of device keys ("cpu,cuda:0"). */
  devices: string;
  /** Imported machines (comma separated) whose devices join (or replace, with devices "none") the local ones. */
  machine?: string;
  /** Datasheet GPUs nobody here profiled, e.g. ["H100 SXM5", "RTX 4090"]. */
  virtual?: string[];
  mode: Mode;
  batch: number;
  /** Network between machines, e.g. "25GbE", "200Gb-IB". */
  network?: string;
  seq?: number;
  image?: number;
  /** Catalog models: the dtype to build them in (default: the catalog's for the mode). */
  dtype?: Dtype;
  dims?: Record<string, number>;
  inputs?: Record<string, number[]>;
  topN?: number;
  /**
   * Tensor-parallel degrees to search (Megatron-style splits of a catalog transformer's blocks);
   * default: 1, 2, 4 and 8 where they divide the heads and KV heads. [1]: no tensor parallelism.
   */
  tp?: number[];
  /**
   * Stated links between machines (network-statement.ts: "rack1-* rack1-* 200Gb-IB" lines): the
   * first matching line wins; `network` covers the pairs no line does.
   */
  links?: { source: string; text: string };
  /** nccl-tests outputs (all_reduce_perf) measured on devices of the plan: they replace the modelled all-reduce. */
  nccl?: { source: string; text: string }[];
  /**
   * Optimizer offload to the CPU (training): 'no', 'yes' (every plan offloads), or 'auto'
   * (plans with and without are ranked together). Default 'auto'.
   */
  offload?: 'no' | 'yes' | 'auto';
  /**
   * ZeRO stage of training (1: optimizer state, 2: and gradients, 3: and weights sharded over
   * data-parallel replicas; 0: plain DDP). Absent: searched (1, 2 and 3 on two or more GPUs).
   */
  zero?: 0 | 1 | 2 | 3;
  /** The user's own layout, priced beside the recommendation: "tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8" (core/planner/layout.ts). */
  layout?: string;
  /**
   * Fine-tuning with LoRA/QLoRA adapters (mode 'training'): the base frozen in its dtype or NF4,
   * gradients and optimizer state for the adapters only (core/catalog/lora.ts).
   */
  finetune?: FinetuneRequest;
}

export interface PlanResponse {
  workload: string;
  problem: PlanProblem;
  result: PlanAllResult;
  exports: PlanExports | null;
  /** The best plan's schedule from the discrete-event simulator (one step); empty when none fits. */
  timeline: SimEvent[];
  /** The same for every listed plan, in `result.plans` order (empty for plans that do not fit). */
  timelines: SimEvent[][];
  /** Serving a decoder (inference): time to first token, tokens per second, longest context, per listed plan. */
  serving: ServingFigures[] | null;
  /** Serving a decoder: its prompt, output tokens and the objective the plans are ranked by; else null. */
  served: ServedDecoder | null;
  /** When no plan fits: verified changes that would make one fit (plan-suggestions.ts); else []. */
  suggestions: PlanSuggestion[];
  /** The request's --layout priced beside the best plan; null without one. */
  layout: LayoutAnswer | null;
  /** Fine-tuning with LoRA/QLoRA adapters: rank, alpha and targets as planned; null otherwise. */
  finetune: FinetuneSpec | null;
  /** Each listed plan's step band (90% for profiled devices, the published band for datasheet GPUs); null: none. */
  stepBands: (StepBand | null)[];
  warnings: string[];
}

/** A plan's answer as the app's Plans view and `pipedejavu plan --json` show it. */
export interface PlanSummary {
  workload: string;
  mode: Mode;
  batch: number;
  devices: PlanDevice[];
  plans: PlanAllResult['plans'];
  rejected: PlanAllResult['rejected'];
  searchMs: number;
  exports: PlanExports | null;
  timeline: SimEvent[];
  timelines: SimEvent[][];
  serving: ServingFigures[] | null;
  served: ServedDecoder | null;
  suggestions: PlanSuggestion[];
  layout: LayoutAnswer | null;
  finetune: FinetuneSpec | null;
  stepBands: (StepBand | null)[];
  warnings: string[];
}

export function planSummary(r: PlanResponse): PlanSummary {
  return {
    workload: r.workload,
    mode: r.problem.mode,
    batch: r.problem.batch,
    devices: r.problem.devices,
    plans: r.result.plans,
    rejected: r.result.rejected,
    searchMs: r.result.searchMs,
    exports: r.exports,
    timeline: r.timeline,
    timelines: r.timelines,
    serving: r.serving,
    served: r.served,
    suggestions: r.suggestions,
    layout: r.layout,
    finetune: r.finetune,
    stepBands: r.stepBands,
    warnings: r.warnings,
  };
}

/** The serving figures of every listed plan, for a decoder in inference mode; else null. */
function servingOf(
  served: ServedDecoder | null,
  problem: PlanProblem,
  plans: readonly Plan[],
  devices: PlanDevices,
  costModel: CostModel,
): ServingFigures[] | null {
  if (!served) return null;
  const decodeGBps = Object.fromEntries(devices.candidates.map((c) => [c.device.id, c.decodeGBps]));
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

const GIB = 2 ** 30;

interface Candidate {
  device: PlanDevice;
  features: DeviceFeatures;
  /** A datasheet GPU's own predictor (its datasheet and the shipped kernel fractions); absent: the trained one. */
  predictor?: Predictor;
  /** The bandwidth a decode step streams weights at (generation-service.ts); the roofline's for datasheet devices. */
  decodeGBps: number;
}

function profiledCandidates(
  db: Database,
  machine: MachineDetail,
  keys: string[] | 'all',
  label: string,
  mode: Mode,
  warnings: string[],
): Candidate[] {
  const { devices, samples } = loadTrainingData(db, { machineId: machine.id });
  const byKey = new Map<string, (typeof devices)[number]>();
  for (const key of new Set(devices.map((d) => d.deviceKey))) {
    const best = preferredGroup(
      devices.filter((d) => d.deviceKey === key),
      mode,
    );
    if (best) byKey.set(key, best);
  }
  const wanted = keys === 'all' ? [...byKey.keys()] : keys;
  return wanted.map((key) => {
    const g = byKey.get(key);
    if (!g) {
      // The key is the user's own text: suggest a command only for a real device name.
      const advice = /^(cpu|cuda:\d{1,3}|webgpu:\d{1,3})$/.test(key)
        ? `run pipedejavu profile --device ${key}`
        : 'name devices like cpu, cuda:0 or all';
      throw new UserError(
        `${label}: device "${key}" was never profiled (profiled: ${[...byKey.keys()].join(', ') || 'none'}); ${advice}`,
      );
    }
    const hardware = machine.devices.find((d) => d.key === key)?.name ?? key;
    const name = isTorchEpName(g.executionProvider) ? `${hardware} (PyTorch)` : hardware;
    warnings.push(...conditionsWarning(db, g).map((w) => `${label}: ${w}`));
    return {
      device: {
        id: `${label}/${key}`,
        name,
        kind: key === 'cpu' ? 'cpu' : 'gpu',
        machine: label,
        memoryBytes: deviceMemoryBytes(machine, key),
        estimate: 'profiled',
      },
      features: g.features,
      decodeGBps: decodeBandwidthGBps(db, g, samples) ?? g.features.bandwidthGBps,
    };
  });
}

function layersFor(w: Workload, candidates: Candidate[], predictions: readonly WorkloadPrediction[]): PlanLayer[] {
  const batch = w.bindings.batch ?? 1;
  return w.layers.map((l, i) => {
    const forwardUs: Record<string, number> = {};
    const backwardUs: Record<string, number> = {};
    candidates.forEach((c, j) => {
      forwardUs[c.device.id] = (predictions[j]?.layers[i]?.timeUs ?? 0) / batch;
      backwardUs[c.device.id] = layerBackwardUs(w, l, predictions[j]) / batch;
    });
    const tuned = 'finetune' in l ? (l as CatalogLayer).finetune : undefined;
    return {
      name: l.name,
      forwardUs,
      backwardUs,
      // Fine-tuning trains the adapters only: the base weights are held frozen.
      params: tuned ? tuned.adapterParams : l.params,
      ...(tuned ? { frozenBytes: tuned.frozenBytes } : {}),
      outBytesPerSample: l.outBytes / batch,
      activationBytesPerSample: (l.trainingActivationBytes ?? l.activationBytes) / batch,
    };
  });
}

/** Bytes per parameter a served model's weights take: its stored format (GGUF), else 2 (fp16/bf16). */
/** Bytes a served parameter takes: its weight format when given (a GGUF's), else the workload's dtype. */
function servedBytesPerParam(req: PlanRequest, w: Workload, warnings: string[]): number {
  if (!req.weights) return DTYPE_BYTES[w.nodes.find((n) => n.flops > 0)?.dtype ?? 'fp16'];
  const bytes = WEIGHT_FORMATS[req.weights];
  warnings.push(`${w.name}: weights held as ${req.weights}, ${bytes} bytes per parameter`);
  return bytes;
}

/** The attention scores a block keeps per sample (the s² terms of transformerLayerActivationBytes). */
function scoreBytesPerSample(w: Workload, e: TransformerEntry): number {
  const elementBytes = DTYPE_BYTES[w.nodes[0]?.dtype ?? 'fp16'];
  return attentionScoreBytes({ seq: w.bindings.seq ?? 0, heads: e.heads, elementBytes, dropout: e.dropout });
}

/**
 * A fine-tuned model's activations as its stack keeps them (cost/finetune-memory.ts): fused
 * attention, gradient checkpointing over the blocks, the loss's logits on the head.
 */
function withFinetuneMemory(w: Workload, e: CatalogEntry | null, layers: PlanLayer[], spec: FinetuneSpec): PlanLayer[] {
  if (!e || e.kind !== 'transformer') return layers;
  const memory = tunedLayersMemory(
    layers.map((l) => ({ name: l.name, activationBytes: l.activationBytesPerSample, outBytes: l.outBytesPerSample })),
    { scoreBytes: scoreBytesPerSample(w, e), logits: (w.bindings.seq ?? 1) * (e.vocab ?? 0), lmHead: e.head === 'lm' },
    spec.stack,
  );
  return layers.map((l, i) => {
    const m = memory[i] as TunedLayerMemory;
    return { ...l, activationBytesPerSample: m.activationBytesPerSample, fullRecompute: m.fullRecompute };
  });
}

/**
 * Selective recomputation's inputs for each transformer block of a catalog model (training): the
 * activations it keeps without the attention core's s² terms (the as²b part of
 * transformerLayerActivationBytes, per sample) and that core's predicted forward time per device.
 */
function withSelectiveRecompute(
  w: Workload,
  e: CatalogEntry | null,
  layers: PlanLayer[],
  candidates: Candidate[],
  predictions: readonly WorkloadPrediction[],
): PlanLayer[] {
  if (!e || e.kind !== 'transformer') return layers;
  const scoreBytes = scoreBytesPerSample(w, e);
  const batch = w.bindings.batch ?? 1;
  // Alike devices share one prediction object: index each once.
  const byName = new Map<WorkloadPrediction, Map<string, number>>();
  const coreUs = (p: WorkloadPrediction | undefined, layer: string): number => {
    if (!p) return 0;
    let index = byName.get(p);
    if (!index) {
      index = new Map(p.nodes.map((n) => [n.name, n.timeUs]));
      byName.set(p, index);
    }
    return index.get(`${layer}.attn.core`) ?? 0;
  };
  return layers.map((l) => {
    if (!/^block\.\d+$/.test(l.name)) return l;
    const recomputeUs: Record<string, number> = {};
    candidates.forEach((c, j) => {
      recomputeUs[c.device.id] = coreUs(predictions[j], l.name) / batch;
    });
    return {
      ...l,
      selective: { activationBytesPerSample: Math.max(0, l.activationBytesPerSample - scoreBytes), recomputeUs },
    };
  });
}

/**
 * A mixture-of-experts block holds its experts on the device of its stage, or spread over the
 * members of a tensor-parallel group (expert parallelism, withTensorSplit). When no device holds
 * one expert, or no group of the allowed degrees holds one block, say so in one line instead of
 * listing every plan as not fitting.
 */
function checkExpertsFit(w: Workload, problem: PlanProblem): void {
  // The first block with experts (DeepSeek's first blocks are dense).
  const first = w.layers.find((l) => l.nodes.some((k) => w.nodes[k]?.name.includes('.mlp.experts.')));
  const block = first ? problem.layers[first.index] : undefined;
  if (!first || !block) return;
  const experts = first.nodes.flatMap((k) => {
    const n = w.nodes[k];
    return n && n.name.includes('.mlp.experts.') && n.params > 0 ? [n] : [];
  });
  const largest = Math.max(0, ...problem.devices.map((d) => d.memoryBytes));
  const purpose = problem.mode === 'training' ? 'to train' : 'to serve';
  const expertParams = experts.reduce((s, n) => s + n.params, 0);
  const expertCount = block.tensor?.experts ?? experts.length;
  // Fine-tuning holds the experts frozen: their stored bytes, not the optimizer's.
  const tuned = (first as CatalogLayer).finetune;
  const perParam = tuned ? block.frozenBytes! / Math.max(1, tuned.frozenParams) : problem.bytesPerParam;
  const one = (expertParams / expertCount) * perParam + problem.overheadBytes;
  if (one > largest) {
    throw new UserError(
      `${w.name}: one expert (${(expertParams / expertCount / 1e9).toFixed(2)}B parameters) needs ${formatBytes(one)} ${purpose}; ` +
        `the largest device in the plan has ${formatBytes(largest)}`,
    );
  }
  const gpus = problem.devices.length;
  const degree = Math.max(...(problem.tensorDegrees ?? [1]).filter((t) => t <= gpus), 1);
  const blockBytes = (block.frozenBytes ?? 0) + block.params * problem.bytesPerParam;
  const share = blockBytes / degree + problem.overheadBytes;
  if (share <= largest) return;
  throw new UserError(
    `${w.name}: one block with its experts (${(expertParams / 1e9).toFixed(2)}B expert parameters) needs ${formatBytes(share)} per device` +
      (degree > 1 ? ` spread over ${count(degree, 'device')} (expert parallelism)` : '') +
      ` ${purpose}; the largest device in the plan has ${formatBytes(largest)}`,
  );
}

/** What a token caches, in words: "2 x 32 layers x 8 KV heads x 128", or a latent's width under MLA. */
function kvCacheShape(e: TransformerEntry): string {
  const layers = count(e.layers, 'layer');
  if (e.mla) return `${layers} x (${e.mla.kvLoraRank} latent + ${e.mla.qkRopeHeadDim} rotary)`;
  const window = e.window !== undefined ? `, local layers at most ${count(e.window, 'token')}` : '';
  return `2 x ${layers} x ${e.kvHeads ?? e.heads} KV heads x ${headDimOf(e)}${window}`;
}

/**
 * Serving a catalog decoder holds its KV cache: each block keeps 2 x kvHeads x headDim values per
 * token of the context (prompt + output tokens) per sequence, on the device of its stage, for every
 * sequence that device serves (resident bytes: every search's memory check counts them).
 */
function withKvCache(
  w: Workload,
  e: CatalogEntry | null,
  served: ServedDecoder | null,
  layers: PlanLayer[],
  batch: number,
  warnings: string[],
): PlanLayer[] {
  if (!isDecoder(e) || !served) return layers;
  const seq = served.prompt + served.tokens;
  const dtype = w.nodes[0]?.dtype ?? 'fp16';
  const perBlock = kvCacheBytes(e, { context: seq, batch: 1, dtype }) / e.layers;
  const blocks = layers.filter((l) => /^block\.\d+$/.test(l.name)).length;
  warnings.push(
    `${w.name}: inference memory holds the KV cache of ${count(seq, 'token')} per sequence (prompt ${served.prompt} + ${served.tokens} output), ${formatBytes(perBlock * blocks * batch)} at batch ${batch} (${kvCacheShape(e)} x ${dtype})`,
  );
  return layers.map((l) => (/^block\.\d+$/.test(l.name) ? { ...l, residentBytesPerSample: perBlock } : l));
}

/**
 * A workload in fp16 or bf16 (the exports default to bf16) on a device whose profile measured no
 * peak for that dtype is predicted from its fp32 peak: say so, once per device.
 */
function transferredDtypeWarnings(w: Workload, candidates: readonly Candidate[]): string[] {
  const dtype = w.nodes.find((n) => n.flops > 0)?.dtype;
  if (dtype !== 'fp16' && dtype !== 'bf16') return [];
  const missing = candidates.filter(
    (c) => c.device.estimate === 'profiled' && c.features.peakGflops[dtype] === undefined,
  );
  // A cluster has hundreds of devices: one line for each kind of device, naming a few.
  const byName = new Map<string, Candidate[]>();
  for (const c of missing) byName.set(c.device.name, [...(byName.get(c.device.name) ?? []), c]);
  return [...byName.values()].map((list) => {
    const first = list[0] as Candidate;
    const who =
      list.length === 1
        ? `${first.device.id}: no kernel was measured in ${dtype} on it; its`
        : `${count(list.length, `${first.device.name} device`)} (${list
            .slice(0, 3)
            .map((c) => c.device.id)
            .join(', ')}${list.length > 3 ? ', ...' : ''}): no kernel was measured in ${dtype} on them; their`;
    return (
      `${who} ${dtype} times are transferred from the fp32 peak` +
      (first.device.kind === 'gpu' ? ' (profile with --backend torch, which measures fp16 and bf16)' : '')
    );
  });
}

/** Measured features within this share of each other make devices alike (one prediction serves them). */
const ALIKE_FEATURES = 0.02;

const near = (a: number | undefined, b: number | undefined, tol: number): boolean =>
  a === b || (a !== undefined && b !== undefined && Math.abs(a - b) <= tol * Math.max(Math.abs(a), Math.abs(b)));

/** Same kind of device, the same dtypes measured, peaks, bandwidth and dispatch within `tol`. */
function alikeDevices(a: Candidate, b: Candidate, tol: number): boolean {
  const fa = a.features;
  const fb = b.features;
  const dtypes = Object.keys(fa.peakGflops);
  return (
    a.device.name === b.device.name &&
    a.device.kind === b.device.kind &&
    a.device.estimate === b.device.estimate &&
    fa.threads === fb.threads &&
    dtypes.length === Object.keys(fb.peakGflops).length &&
    dtypes.every((k) => near(fa.peakGflops[k as Dtype], fb.peakGflops[k as Dtype], tol)) &&
    near(fa.bandwidthGBps, fb.bandwidthGBps, tol) &&
    near(fa.dispatchUs, fb.dispatchUs, 5 * tol)
  );
}

/**
 * Each device's prediction; devices alike within measurement noise (a cluster's nodes of one GPU
 * model, each profiled on its own) share the first one's, so the searches see them as twins. A
 * slower node (a throttled GPU) keeps its own.
 */
function predictAll(
  workload: Workload,
  trained: () => Predictor,
  candidates: readonly Candidate[],
  warnings: string[],
): WorkloadPrediction[] {
  const reps: { c: Candidate; p: WorkloadPrediction }[] = [];
  // Datasheet GPUs of one model are the same device by construction: only measured ones count here.
  let sharedMeasured = 0;
  const out = candidates.map((c) => {
    const rep = reps.find((r) => alikeDevices(r.c, c, ALIKE_FEATURES));
    if (rep) {
      if (c.device.estimate === 'profiled') sharedMeasured++;
      return rep.p;
    }
    const p = predictWorkload(workload, c.predictor ?? trained(), c.features, 'inference');
    reps.push({ c, p });
    return p;
  });
  if (sharedMeasured > 0) {
    const measured = candidates.filter((c) => c.device.estimate === 'profiled').length;
    warnings.push(
      `${count(sharedMeasured, 'measured device')} within ${ALIKE_FEATURES * 100}% of another of its kind use that one's predicted times (${count(candidates.length, 'device')}: ${measured} measured, ${candidates.length - measured} from datasheets)`,
    );
  }
  return out;
}

/** Tensor-parallel degrees searched when the request names none. */
export const DEFAULT_TP_DEGREES = [1, 2, 4, 8];

/**
 * Megatron-style tensor parallelism of a catalog transformer: each block splits by head (by KV
 * head group under GQA) and its MLP by columns then rows, with two all-reduces of the block's
 * output forward and two backward. Embeddings and heads stay whole on every member of a group.
 * Requested degrees that do not divide the heads or KV heads are refused in one line; other
 * workloads (ONNX files) are not split, and asking for degrees above 1 says so.
 */
function withTensorSplit(
  w: Workload,
  e: CatalogEntry | null,
  layers: PlanLayer[],
  requested: readonly number[] | undefined,
  warnings: string[],
): { layers: PlanLayer[]; tensorDegrees: number[] } {
  if (!e || e.kind !== 'transformer') {
    if (requested?.some((t) => t > 1)) {
      warnings.push(
        `${w.name}: tensor parallelism is planned for catalog transformers and GGUF decoders only; --tp ignored`,
      );
    }
    return { layers, tensorDegrees: [1] };
  }
  const kvHeads = e.kvHeads ?? e.heads;
  if (requested) {
    const all = [e.heads, kvHeads, ...(e.experts !== undefined ? [e.experts] : [])];
    const bad = requested.filter((t) => all.some((n) => n % t !== 0));
    if (bad.length > 0) {
      const ok = DEFAULT_TP_DEGREES.filter((t) => all.every((n) => n % t === 0));
      const experts = e.experts !== undefined ? `, ${e.experts} experts` : '';
      throw new UserError(
        `--tp ${bad.join(',')}: a tensor-parallel degree must divide ${w.name}'s ${e.heads} attention heads and ${kvHeads} KV heads${experts} (degrees that do: ${ok.join(', ')})`,
      );
    }
  }
  const divides = [e.heads, kvHeads, ...(e.experts !== undefined ? [e.experts] : [])];
  // A mixture-of-experts block: attention split by head (one all-reduce each way), the experts spread
  // over the group (expert parallelism): each token goes to its topK experts and back by two
  // all-to-alls, each about half a ring all-reduce of the same bytes.
  const reduces = e.topK !== undefined ? 1 + e.topK : 2;
  const tensor = {
    divides,
    forwardAllReduces: reduces,
    backwardAllReduces: reduces,
    ...(e.experts !== undefined ? { experts: e.experts } : {}),
  };
  const degrees = (requested ?? DEFAULT_TP_DEGREES).filter((t) => divides.every((n) => n % t === 0));
  return {
    layers: layers.map((l) => (/^block\.\d+$/.test(l.name) ? { ...l, tensor } : l)),
    tensorDegrees: [...new Set([1, ...degrees])].sort((a, b) => a - b),
  };
}

/**
 * Each mixture-of-experts block's expert parameters, expert count and top-k (a decode step reads
 * only the experts its tokens touch, serving.ts); other layers as they are.
 */
function withExperts(w: Workload, e: CatalogEntry | null, layers: PlanLayer[]): PlanLayer[] {
  if (!e || e.kind !== 'transformer' || e.experts === undefined || e.topK === undefined) return layers;
  const { experts: count, topK } = e;
  return layers.map((l, i) => {
    const nodes = w.layers[i]?.nodes ?? [];
    const params = nodes.reduce(
      (s, n) => s + (w.nodes[n]?.name.includes('.mlp.experts.') ? (w.nodes[n]?.params ?? 0) : 0),
      0,
    );
    return params > 0 ? { ...l, experts: { params, count, topK } } : l;
  });
}

/** Serving a decoder beyond the context it was trained for is refused: the plan would promise what the model cannot do. */
function checkServedContext(w: Workload, e: CatalogEntry | null, mode: Mode): void {
  if (mode !== 'inference' || !e || e.kind !== 'transformer' || !e.causal || e.head !== 'lm') return;
  const seq = w.bindings.seq ?? 0;
  if (e.context !== undefined && seq > e.context) {
    throw new UserError(
      `${w.name}: a context of ${count(seq, 'token')} is longer than the model's ${e.context}; give --seq ${e.context} or less`,
    );
  }
}

/** Why an nccl-tests result gives no fit: fewer than two sizes, or times that do not grow with size. */
function unfittable(source: string, rows: readonly { sizeBytes: number }[]): string {
  const sizes = new Set(rows.filter((r) => r.sizeBytes > 0).map((r) => r.sizeBytes)).size;
  return sizes < 2
    ? `${source}: ${count(sizes, 'message size')} above 0 B (a latency and a bandwidth need two or more); ignored`
    : `${source}: the times do not grow with the size (no positive bandwidth fits them); ignored`;
}

/**
 * nccl-tests results whose ranks are all devices of the plan (host = machine label, device = cuda
 * index) become measured all-reduce costs for exactly that device set; others are named in a warning.
 */
function measuredCollectives(
  files: readonly { source: string; text: string }[],
  devices: readonly PlanDevice[],
  warnings: string[],
): MeasuredCollective[] {
  const out: MeasuredCollective[] = [];
  for (const f of files) {
    const result = parseNcclTests(f.text, { source: f.source });
    if (result.op !== 'all_reduce') {
      warnings.push(`${f.source}: ${result.op} results are not used (the planner prices all-reduce only)`);
      continue;
    }
    const fit = fitNcclTests(result);
    if (!fit) {
      warnings.push(unfittable(f.source, result.rows));
      continue;
    }
    const problem = bandwidthProblem(fit.fit.gbps) ?? latencyProblem(fit.fit.alphaUs);
    if (problem) throw new UserError(`${f.source}: fitted from the measured all-reduce, ${problem}`);
    const hosts = new Set(devices.map((d) => d.machine));
    const ids = result.ranks.map((r) => {
      const machine = hosts.has(r.host) ? r.host : hosts.size === 1 ? [...hosts][0] : null;
      const d = devices.find((x) => x.machine === machine && x.id.endsWith(`/cuda:${r.device}`));
      return d?.id ?? null;
    });
    if (ids.length === 0 || ids.some((x) => x === null)) {
      const missing = result.ranks.filter((_, i) => ids[i] === null).map((r) => `${r.host} cuda:${r.device}`);
      warnings.push(
        `${f.source}: ranks ${missing.join(', ') || '(none listed)'} are not devices of this plan; the all-reduce model is kept`,
      );
      continue;
    }
    out.push({ op: 'all_reduce', devices: ids as string[], fit: fit.fit });
    warnings.push(
      `${f.source}: measured all-reduce over ${count(ids.length, 'device')} (${fit.fit.alphaUs.toFixed(1)} µs + ${fit.fit.gbps.toFixed(1)} GB/s) replaces the model`,
    );
  }
  return out;
}

/**
 * The machines `--machine` names, in order and once each: ids, labels, or patterns (node*, all
 * imported machines with *); a name or a pattern that matches nothing is a user error.
 */
function importedMachineIds(db: Database, list: string, local: string | undefined): string[] {
  const all = listMachines(db);
  const ids: string[] = [];
  for (const name of list
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const matches = isGlob(name)
      ? all.filter((m) => globMatches(name, m.label))
      : all.filter((m) => m.id === name || m.label === name);
    // This machine is in the plan already (--devices): an imported one of the same name is meant.
    const others = matches.filter((m) => m.id !== local);
    const found = isGlob(name) || others.length > 0 ? others : matches.slice(0, 1);
    if (matches.length === 0)
      throw new UserError(
        isGlob(name)
          ? `no machine in the store matches "${name}" (see pipedejavu machines)`
          : `no machine "${name}" in the store (see pipedejavu machines)`,
      );
    for (const m of found) if (m.id !== local && !ids.includes(m.id)) ids.push(m.id);
    if (!isGlob(name) && others.length > 1)
      throw new UserError(
        `${count(matches.length, 'machine')} are called "${name}": name one by its id (see pipedejavu machines)`,
      );
  }
  return ids;
}

/**
 * nccl-tests all-reduce between two machines, one GPU on each (the pair recipe in cluster/):
 * the measured link between them. A two-rank ring all-reduce of S bytes takes S/β + 2α, so the
 * fit's bandwidth is the link's and half its latency the link's. Other results are left to
 * measuredCollectives.
 */
function measuredNetworkRules(
  files: readonly { source: string; text: string }[],
  machines: ReadonlySet<string>,
  warnings: string[],
): LinkRule[] {
  const rules: LinkRule[] = [];
  for (const f of files) {
    const result = parseNcclTests(f.text, { source: f.source });
    const hosts = [...new Set(result.ranks.map((r) => r.host))];
    if (result.op !== 'all_reduce' || result.ranks.length !== 2 || hosts.length !== 2) continue;
    const [a, b] = hosts as [string, string];
    if (!machines.has(a) || !machines.has(b)) {
      warnings.push(`${f.source}: measured between ${a} and ${b}, not both machines of this plan; not used`);
      continue;
    }
    const fit = fitNcclTests(result);
    if (!fit) {
      warnings.push(unfittable(f.source, result.rows));
      continue;
    }
    const gbps = Math.round(fit.fit.gbps * 1000) / 1000;
    const alphaUs = Math.round((fit.fit.alphaUs / 2) * 10) / 10;
    const problem = bandwidthProblem(gbps) ?? latencyProblem(alphaUs);
    if (problem) throw new UserError(`${f.source}: the measured link ${a} <-> ${b}: ${problem}`);
    const network = { label: `${gbps}GB/s measured`, kind: 'measured' as const, lineGbitps: gbps * 8, gbps, alphaUs };
    rules.push({ a, b, network, origin: f.source });
    warnings.push(
      `${f.source}: measured link ${a} <-> ${b}: ${gbps} GB/s, ${alphaUs} µs (nccl-tests) replaces the stated network`,
    );
  }
  return rules;
}

/** The devices of the plan: this machine's named ones, the imported machines', and datasheet GPUs. */
interface PlanDevices {
  candidates: Candidate[];
  /** Each machine's probed links, under its label in the plan. */
  machineLinks: MachineLinks[];
  /** Each probed machine's RAM (the host of an optimizer offload), under its label in the plan. */
  hostMemory: Record<string, HostMemory>;
  /** The network assumed between the nodes of a datasheet cluster (virtualNodes); absent: none assumed. */
  assumedNetwork?: string;
}

/** GPUs of one node a datasheet cluster is cut into: an HGX/DGX board's NVLink domain. */
export const GPUS_PER_VIRTUAL_NODE = 8;

/**
 * Where each datasheet GPU sits: in the plan's first machine when measured devices are in the
 * plan ("what if I add an H100 here?"); else in one node "virtual", or, beyond
 * GPUS_PER_VIRTUAL_NODE GPUs, in nodes of 8 ("virtual-1", "virtual-2", ...) as DGX/HGX clusters
 * are built, linked by one InfiniBand NIC per GPU of the generation's rate (HDR 200 Gb/s before
 * Hopper, NDR 400 Gb/s from Hopper) unless the request states a network. A collective across
 * nodes is priced as one ring through one GPU's NIC; NCCL's rings over all 8 NICs are faster.
 */
export function virtualNodes(
  names: readonly string[],
  host: string | undefined,
): { machines: string[]; network: string | undefined } {
  if (host !== undefined) return { machines: names.map(() => host), network: undefined };
  if (names.length <= GPUS_PER_VIRTUAL_NODE) return { machines: names.map(() => 'virtual'), network: undefined };
  const machines = names.map((_, i) => `virtual-${Math.floor(i / GPUS_PER_VIRTUAL_NODE) + 1}`);
  const ndr = names.some((n) => ['Hopper', 'Blackwell'].includes(resolveGpuName(n).architecture));
  // Links between machines are per GPU (each reaches the network over its own PCIe): one NIC each.
  return { machines, network: ndr ? '400Gb-IB' : '200Gb-IB' };
}

/** The device keys `--devices` names: 'all' or a non-empty list. */
function deviceKeys(devices: string): string[] | 'all' {
  if (devices === 'all') return 'all';
  const keys = devices
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (keys.length === 0) throw new UserError('--devices is empty; name devices like cpu,cuda:0 or all');
  return keys;
}

/**
 * The predictor of a datasheet GPU in this request: its datasheet and the shipped kernel
 * fractions, the served weight format, and whether the model's attention is causal.
 */
function datasheetPredictorFor(
  datasheet: GpuDatasheet,
  req: PlanRequest,
  workload: Workload,
  table?: KernelEfficiencies,
): DatasheetPredictor {
  const e = req.decoder ?? (catalogNames().includes(workload.name) ? getCatalogEntry(workload.name) : null);
  const causal = e?.kind === 'transformer' && e.causal;
  const weights =
    req.weights && req.mode === 'inference'
      ? { weights: { format: req.weights, bytesPerWeight: WEIGHT_FORMATS[req.weights] } }
      : {};
  return new DatasheetPredictor(datasheet, {
    causalAttention: causal,
    training: req.mode === 'training',
    ...weights,
    ...(table ? { table } : {}),
  });
}

function planDevices(db: Database, req: PlanRequest, workload: Workload, warnings: string[]): PlanDevices {
  const machines = new MachineRepo(db);
  const out: PlanDevices = { candidates: [], machineLinks: [], hostMemory: {} };
  const labels = new Set<string>();
  const addMachine = (id: string, keys: string[] | 'all'): void => {
    const detail = machines.getMachine(id);
    if (!detail) throw new UserError(`machine ${id} vanished from the store`);
    // Two machines may share a hostname: the second is told apart by its id.
    const label = labels.has(detail.label) ? `${detail.label}~${detail.id.slice(0, 6)}` : detail.label;
    labels.add(label);
    out.candidates.push(...profiledCandidates(db, detail, keys, label, req.mode, warnings));
    out.machineLinks.push({ machine: label, links: detail.links });
    if (detail.probe.memory.totalBytes > 0)
      out.hostMemory[label] = { bytes: detail.probe.memory.totalBytes, source: 'probed' };
  };
  if (req.devices !== 'none') {
    const local = findMachine(db);
    // "all" of a machine nobody profiled is nothing: datasheet GPUs alone are planned, and said so.
    if (!local && req.devices === 'all' && (req.virtual?.length ?? 0) > 0)
      warnings.push('no machine profiled here: only the datasheet GPUs are planned (pipedejavu profile adds this one)');
    else if (!local) throw new UserError('no machine recorded yet: run `pipedejavu profile` first');
    else addMachine(local.id, deviceKeys(req.devices));
  }
  // Imported machines (ids, labels or patterns like node*, comma separated): a virtual cluster of the lab's machines.
  const local = req.devices !== 'none' ? findMachine(db)?.id : undefined;
  for (const id of importedMachineIds(db, req.machine ?? '', local)) addMachine(id, 'all');
  // Datasheet GPUs sit in this machine ("what if I add an H100 here?") unless none is in the plan.
  const host = out.candidates[0]?.device.machine;
  const datasheets = parseVirtualGpus(req.virtual ?? []).flatMap((g) => Array<string>(g.count).fill(g.datasheet.name));
  // One check per GPU model: it predicts every kernel of the measured ones.
  const checkLines = new Map<string, string>();
  const nodes = virtualNodes(datasheets, host);
  if (nodes.network && !req.network) {
    out.assumedNetwork = nodes.network;
    warnings.push(
      `${count(datasheets.length, 'datasheet GPU')} are planned as ${count(new Set(nodes.machines).size, 'node')} of ${GPUS_PER_VIRTUAL_NODE} (NVLink inside), linked by ${nodes.network} with one NIC per GPU; give --network to state another`,
    );
  }
  // A profiled GPU of the same architecture lends its measured fractions (once per GPU model).
  const transfers = new Map<string, TransferredTable | null>();
  for (const [i, name] of datasheets.entries()) {
    const v = virtualDevice(name, { index: i, machine: nodes.machines[i] ?? 'virtual' });
    if (!transfers.has(name)) {
      const t = transferredTable(db, v.datasheet);
      transfers.set(name, t);
      if (t) warnings.push(t.note);
    }
    const transfer = transfers.get(name) ?? null;
    const check = checkLines.get(name) ?? datasheetCheckLine(db, name);
    checkLines.set(name, check);
    warnings.push(...v.warnings, `${name} is from its datasheet, not measured. ${check}`);
    out.candidates.push({
      device: v.device,
      features: v.features,
      decodeGBps: v.datasheet.memory.bandwidthGBps * memoryEfficiency(v.datasheet.memory.type, transfer?.table),
      predictor: datasheetPredictorFor(v.datasheet, req, workload, transfer?.table),
    });
  }
  if (out.candidates.length === 0)
    throw new UserError('no devices to plan for: name some with --devices, --machine or --virtual');
  return out;
}

/**
 * fp8 GEMMs need fp8 tensor cores (Ada, Hopper): a workload built in fp8 on any other device, or
 * on a measured device (no kernel is profiled in fp8), is refused in one line naming what has them.
 */
function checkFp8Devices(workload: Workload, candidates: readonly Candidate[]): void {
  if (!workload.nodes.some((n) => n.dtype === 'fp8')) return;
  const lacking = candidates.filter(
    (c) => !(c.predictor instanceof DatasheetPredictor && hasFp8(c.predictor.datasheet)),
  );
  if (lacking.length === 0) return;
  const names = [...new Set(lacking.map((c) => c.device.name))];
  const withFp8 = GPU_DATASHEETS.filter(hasFp8).map((g) => g.name);
  throw new UserError(
    `--dtype fp8: ${names.slice(0, 3).join(', ')}${names.length > 3 ? ', ...' : ''} ${names.length === 1 ? 'has' : 'have'} no fp8 units planned for (measured devices are profiled in fp32/fp16/bf16); fp8 runs on datasheet GPUs with fp8: ${withFp8.join(', ')}`,
  );
}

/** The planning problem: each layer's predicted time on each device, the links between them, memory rules. */
function planProblem(
  db: Database,
  req: PlanRequest,
  workload: Workload,
  { candidates, machineLinks, assumedNetwork }: PlanDevices,
  warnings: string[],
  finetune: FinetuneSpec | null = null,
): PlanProblem {
  const network = req.network ?? assumedNetwork;
  // Datasheet GPUs carry their own predictor: only measured devices need this machine's trained one.
  let trained: Predictor | null = null;
  const trainedPredictor = (): Predictor => (trained ??= workloadPredictor(db).predictor);
  checkFp8Devices(workload, candidates);
  warnings.push(...transferredDtypeWarnings(workload, candidates));
  const predictions = predictAll(workload, trainedPredictor, candidates, warnings);
  const predicted = layersFor(workload, candidates, predictions);
  const entry = req.decoder ?? (catalogNames().includes(workload.name) ? getCatalogEntry(workload.name) : null);
  checkServedContext(workload, entry, req.mode);
  const withMemory =
    req.mode === 'inference'
      ? withKvCache(workload, entry, servedDecoderOf(req, entry), predicted, req.batch, warnings)
      : finetune
        ? withFinetuneMemory(workload, entry, predicted, finetune)
        : withSelectiveRecompute(workload, entry, predicted, candidates, predictions);
  // No fine-tuning tool splits layers by tensor parallelism (search/plan-ranking.ts says so with pipelines).
  const split = withTensorSplit(workload, entry, withMemory, finetune ? [1] : req.tp, warnings);
  const layers = withExperts(workload, entry, split.layers);
  const { tensorDegrees } = split;
  const machinesInPlan = new Set(candidates.map((c) => c.device.machine));
  const rules = [
    ...measuredNetworkRules(req.nccl ?? [], machinesInPlan, warnings),
    ...(req.links ? parseNetworkStatement(req.links.text, req.links.source) : []),
  ];
  const { links, warnings: linkWarnings } = buildPlanLinks(
    candidates.map((c) => c.device),
    { machines: machineLinks, ...(network ? { network } : {}), rules },
  );
  warnings.push(...linkWarnings);
  if (machinesInPlan.size > 1 && !network && rules.length === 0)
    warnings.push('several machines without a stated network');
  return {
    layers,
    devices: candidates.map((c) => c.device),
    links,
    mode: req.mode,
    batch: req.batch,
    bytesPerParam: finetune
      ? adapterBytesPerParam(finetune.stack)
      : req.mode === 'training'
        ? 16
        : servedBytesPerParam(req, workload, warnings),
    ...(req.weights && req.mode === 'inference' ? { weights: req.weights } : {}),
    zeroStage: req.zero ?? 0,
    overheadBytes: GIB / 2,
    ...(tensorDegrees.length > 1 ? { tensorDegrees } : {}),
  };
}

/**
 * The RAM of every machine of the plan for an offload: probed, or for a machine nobody probed
 * (datasheet GPUs alone) assumed, and said so with the figure.
 */
function offloadHostMemory(
  devices: readonly PlanDevice[],
  probed: Record<string, HostMemory>,
  warnings: string[],
): Record<string, HostMemory> {
  const out: Record<string, HostMemory> = {};
  for (const machine of new Set(devices.map((d) => d.machine))) {
    const known = probed[machine];
    if (known) {
      out[machine] = known;
      continue;
    }
    const assumed = assumedHostMemory(devices, machine);
    out[machine] = assumed;
    warnings.push(
      `optimizer offload: the host memory of ${machine} is assumed, ${formatBytes(assumed.bytes)} (${ASSUMED_HOST_MEMORY_PER_GPU_BYTE} x its GPUs' memory; nobody probed it)`,
    );
  }
  return out;
}

/** Searches with and without optimizer offload as the request and the devices allow, and ranks the plans. */
function searchPlans(
  req: PlanRequest,
  problem: PlanProblem,
  devices: PlanDevices,
  costModel: CostModel,
  warnings: string[],
): RankedPlans {
  // Adapters' optimizer state is small: offloading it to the CPU is not searched when fine-tuning.
  const offload = req.finetune ? 'no' : offloadPolicy(req.mode, problem.devices, req.offload);
  const cpu = devices.candidates.find((c) => c.device.kind === 'cpu' && c.features.bandwidthGBps > 0);
  const settings =
    offload === 'no'
      ? null
      : offloadSettings(
          problem.devices,
          devices.machineLinks,
          cpu?.features.bandwidthGBps ?? null,
          warnings,
          offloadHostMemory(problem.devices, devices.hostMemory, warnings),
        );
  return searchRanked(problem, costModel, {
    topN: req.topN ?? 5,
    offload,
    settings,
    recompute: req.recompute ?? 'auto',
    zero: req.zero ?? 'auto',
  });
}

/** One training or inference step of a plan that fits, from the discrete-event simulator; [] for one that does not. */
function timelineOf(t: RankedPlan, costModel: CostModel): SimEvent[] {
  if (!t.plan.feasible) return [];
  return simulatePipeline(simStagesOfPlan(plannerContext(t.problem, costModel), t.plan), {
    microbatches: t.plan.microbatches,
    schedule: t.plan.schedule,
    mode: t.problem.mode,
  }).timeline;
}

/** A request searched: its workload, devices, problem, cost model and ranked plans. */
interface Searched {
  workload: Workload;
  devices: PlanDevices;
  problem: PlanProblem;
  costModel: CostModel;
  ranked: RankedPlans;
  /** A served decoder's prompt, output tokens and objective; null for anything else. */
  served: ServedDecoder | null;
  /** Fine-tuning with adapters: the spec with its defaults; null otherwise. */
  finetune: FinetuneSpec | null;
  /** Fine-tuning: the model the adapters go on (its family names the PEFT modules); null otherwise. */
  tunedModel: CatalogEntry | null;
}

/**
 * Sequences a served decoder's prefill is predicted at (then per sequence): kernels are priced at
 * the rows they run with, so a batch of short prompts is not priced as one prompt's small GEMMs
 * times the batch; beyond 64 sequences the GEMMs are as efficient as they get.
 */
const SERVED_PREDICTION_BATCH = 64;

/**
 * A fine-tuning request resolved against its model: the description (catalog entry, config.json,
 * a stored Hugging Face folder) and the spec with its defaults; null when not fine-tuning.
 */
function finetuneOf(db: Database, req: PlanRequest): { decoder: CatalogEntry; spec: FinetuneSpec } | null {
  if (!req.finetune) return null;
  if (req.mode !== 'training') throw new Error('fine-tuning plans are training plans');
  if (req.offload === 'yes')
    throw new UserError(
      "--offload yes: fine-tuning keeps the adapters' small optimizer state on the GPU; offload is not planned for it (leave --offload out)",
    );
  return finetuneTarget(db, req.workload, req.decoder, req.finetune);
}

function searchRequest(db: Database, asked: PlanRequest, warnings: string[]): Searched {
  const tuned = finetuneOf(db, asked);
  // Fine-tuning plans the model's description (its blocks split, recomputed and adapted).
  const req = tuned ? { ...asked, decoder: tuned.decoder } : asked;
  // A served decoder's workload is its prompt's prefill; its KV cache holds prompt + output tokens.
  const served = servedDecoderOf(
    req,
    req.decoder ?? (catalogNames().includes(req.workload) ? getCatalogEntry(req.workload) : null),
  );
  warnings.push(...unusedServingOptions(req, served));
  const seq = served?.prompt ?? req.seq;
  const { workload } = resolveWorkload(db, req.workload, {
    batch: served ? Math.min(req.batch, SERVED_PREDICTION_BATCH) : 1,
    ...(seq !== undefined ? { seq } : {}),
    ...(req.image !== undefined ? { image: req.image } : {}),
    ...(req.dtype !== undefined ? { dtype: req.dtype } : {}),
    dims: req.dims ?? {},
    inputs: req.inputs ?? {},
    mode: req.mode,
    ...(req.decoder ? { decoder: req.decoder } : {}),
    ...(tuned ? { finetune: tuned.spec } : {}),
  });
  if (workload.layers.length === 0) throw new UserError(`${workload.name} has no layers to place`);
  const devices = tuned
    ? withoutCpus(planDevices(db, req, workload, warnings), warnings)
    : planDevices(db, req, workload, warnings);
  const dtype = workload.nodes.find((n) => n.flops > 0)?.dtype ?? 'fp16';
  warnings.push(
    ...checkWeights(
      req,
      dtype,
      DTYPE_BYTES[dtype],
      devices.candidates.map((c) => c.device),
    ),
  );
  const batch = searchedBatch(served, req.batch, devices.candidates.length, warnings);
  const problem = planProblem(db, { ...req, batch }, workload, devices, warnings, tuned?.spec ?? null);
  checkExpertsFit(workload, problem);
  const measured = measuredCollectives(req.nccl ?? [], problem.devices, warnings);
  const costModel = createCostModel(problem.links, measured);
  // Serving plans are ranked by their objective afterwards: search wider than the list the step would rank.
  const wide = served ? { ...req, topN: Math.max(req.topN ?? 5, SERVING_CANDIDATES) } : req;
  const searched = searchPlans(wide, problem, devices, costModel, warnings);
  const ranked = served ? withOneStagePlans(searched, problem, costModel) : searched;
  return {
    workload,
    devices,
    problem,
    costModel,
    ranked,
    served,
    finetune: tuned?.spec ?? null,
    tunedModel: tuned?.decoder ?? null,
  };
}

/**
 * Fine-tuning beside GPUs leaves the CPUs out: the adapters' tools run NF4 kernels and NCCL on
 * GPUs only (a CPU alone still fine-tunes, slowly).
 */
function withoutCpus(devices: PlanDevices, warnings: string[]): PlanDevices {
  const gpus = devices.candidates.filter((c) => c.device.kind === 'gpu');
  if (gpus.length === 0 || gpus.length === devices.candidates.length) return devices;
  const cpus = devices.candidates.filter((c) => c.device.kind === 'cpu').map((c) => c.device.id);
  warnings.push(
    `fine-tuning plans the GPUs only: ${cpus.join(', ')} left out (PEFT, bitsandbytes and NCCL run the adapters' steps on GPUs)`,
  );
  return { ...devices, candidates: gpus };
}

/** The fastest plan that fits a changed request; null when none does or the change is refused. */
function bestPlanOf(db: Database, req: PlanRequest): Plan | null {
  try {
    return searchRequest(db, { ...req, topN: 1 }, []).ranked.best?.plan ?? null;
  } catch (e) {
    if (e instanceof UserError) return null;
    throw e;
  }
}

/** The compute dtype and served weights the exports state: fp8 when the weight GEMMs are, else the workload's. */
function exportPrecision(req: PlanRequest, w: Workload): Pick<ExportInput, 'dtype' | 'weights'> {
  const dtypes = new Set(w.nodes.filter((n) => n.flops > 0).map((n) => n.dtype));
  const dtype = dtypes.has('fp8') ? 'fp8' : (['bf16', 'fp16', 'fp32'] as const).find((d) => dtypes.has(d));
  return { ...(dtype ? { dtype } : {}), ...(req.weights && req.mode === 'inference' ? { weights: req.weights } : {}) };
}

/**
 * What a fine-tuning plan's exports load: the Hugging Face id of a catalog model (from its config
 * source), a stored folder's path, or the workload as given; with the architecture's module names.
 */
function finetuneExport(db: Database, req: PlanRequest, searched: Searched): Pick<ExportInput, 'finetune'> {
  const { finetune: spec, workload, tunedModel: entry } = searched;
  if (!spec) return {};
  const hubId = catalogNames().includes(req.workload)
    ? /([\w.-]+\/[\w.-]+) config\.json/.exec(getCatalogEntry(req.workload).config)?.[1]
    : undefined;
  const stored = catalogNames().includes(req.workload) ? null : storedWorkload(db, req.workload)?.filePath;
  return {
    finetune: {
      spec,
      model: hubId ?? stored ?? req.workload,
      ...(workload.bindings.seq !== undefined ? { seqLen: workload.bindings.seq } : {}),
      ...(entry ? { targetModules: peftTargetModules(entry.family, spec.targets) } : {}),
    },
  };
}

/** The request's layout priced beside the best plan, with its serving figures when a decoder is served. */
function layoutWithServing(layout: Layout, searched: Searched, serves: boolean): LayoutAnswer {
  const { workload, devices, problem, costModel, served } = searched;
  const answer = layoutAnswer(layout, problem, costModel, {
    workload: workload.name,
    best: searched.ranked.best?.plan ?? null,
  });
  const figures = serves ? servingOf(served, problem, [answer.plan], devices, costModel) : null;
  return { ...answer, serving: figures?.[0] ?? null };
}

/** Each plan's step band, from every device's factors (plan-bands.ts). */
function stepBands(
  db: Database,
  plans: readonly Plan[],
  devices: readonly PlanDevice[],
  model: string,
): (StepBand | null)[] {
  const factors = bandFactors(db, devices, model);
  return plans.map((p) => stepBand(p, factors));
}

export function planWorkload(db: Database, req: PlanRequest): PlanResponse {
  const warnings: string[] = [];
  // A layout that does not parse is refused before the search.
  const layout = req.layout !== undefined ? parseLayout(req.layout) : null;
  const searched = searchRequest(db, req, warnings);
  const { workload, devices, problem, costModel, served } = searched;
  const figures = servingOf(served, problem, searched.ranked.result.plans, devices, costModel);
  const { ranked, serving } =
    served && figures
      ? rankServing(searched.ranked, figures, served.objective, req.topN ?? 5)
      : { ranked: searched.ranked, serving: figures };
  const { result, listed, best } = ranked;
  const bestProblem = best?.problem ?? problem;
  const search = best
    ? null
    : suggestChanges(
        { req, seq: workload.bindings.seq, bytesPerParam: problem.bytesPerParam, devices: problem.devices },
        (changed) => bestPlanOf(db, { ...changed, layout: undefined }),
      );
  const suggestions = search?.suggestions ?? [];
  if (search?.cut) {
    warnings.push(
      `stopped looking for a change that fits after ${SUGGESTION_TIME_MS / 1000} s (${count(search.searched, 'search', 'searches')}); the changes not tried may fit`,
    );
  }
  return {
    workload: workload.name,
    problem: bestProblem,
    result,
    serving,
    served,
    exports: best
      ? exportPlan({
          plan: best.plan,
          problem: bestProblem,
          ...exportPrecision(req, workload),
          ...finetuneExport(db, req, searched),
        })
      : null,
    timeline: best ? timelineOf(best, costModel) : [],
    timelines: listed.map((t) => timelineOf(t, costModel)),
    suggestions,
    layout: layout ? layoutWithServing(layout, searched, figures !== null) : null,
    finetune: searched.finetune,
    stepBands: stepBands(db, result.plans, problem.devices, workload.name),
    warnings: groupRepeated([...warnings, ...workload.warnings.slice(0, 5)]),
  };
}
