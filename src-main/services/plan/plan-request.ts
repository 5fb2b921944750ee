/**
 * What `pipedejavu plan`, the app's Plans view and the HTTP API ask the planner (PlanRequest) and
 * what plan-service.ts answers (PlanResponse, and the PlanSummary they show).
 */
import type { CatalogEntry } from '../../core/catalog/index.js';
import type { FinetuneRequest } from '../../core/workload/finetune.js';
import type { ServingObjective } from '../../core/planner/serving/serving.js';
import type { WeightFormat } from '../../core/workload/generation.js';
import type { Dtype } from '../../core/domain/measurement.js';
import type { PlanAllResult } from '../../core/planner/search/index.js';
import type { RecomputeRequest } from '../../core/planner/search/plan-ranking.js';
import type { Mode, PlanProblem } from '../../core/planner/types.js';
import type { PlanOutcome, PlanSummary } from '../../core/planner/plan-summary.js';
import type { EngineChoice } from '../../core/engines/engine-names.js';
import type { ServingLoadRequest } from '../../core/engines/engine-serving.js';

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
  /**
   * Serving a decoder: the engine that will run it (core/engines/): its kernels per weight format,
   * host cost per step, batching, split over GPUs and reserved memory set the figures and the
   * launch lines. Default 'auto' (llama.cpp for GGUF block formats, vLLM otherwise); 'ideal' is the
   * kernel roofline with no engine around it.
   */
  engine?: EngineChoice;
  /** The engine's version ("0.5.4", "b3000"): its rules at that version; absent: the newest. */
  engineVersion?: string;
  /**
   * Serving a decoder: the engine's caps as its launch line sets them (vLLM --max-num-seqs,
   * --max-num-batched-tokens, --gpu-memory-utilization; llama.cpp -np, -ub; TensorRT-LLM's max
   * batch size and tokens); absent: the engine's defaults.
   */
  engineSettings?: {
    maxNumSeqs?: number;
    maxBatchedTokens?: number;
    memoryUtilization?: number;
    kvShareOfFree?: number;
    /** Flash attention switched on (llama.cpp -fa) or off. */
    flashAttention?: boolean;
  };
  /** Serving a decoder: the KV cache's dtype, the model's ('auto', default) or fp8. */
  kvCache?: 'auto' | 'fp8';
  /**
   * Serving a decoder at a load: users each keeping one request in flight (concurrency), or
   * Poisson arrivals (rate, requests per second), over `requests` requests (default 200); the
   * plans' figures then carry the simulated latency percentiles and throughput.
   */
  load?: ServingLoadRequest;
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

/** The planner's answer: the best plan's problem, every search's result, and the rest (PlanOutcome). */
export interface PlanResponse extends PlanOutcome {
  workload: string;
  problem: PlanProblem;
  result: PlanAllResult;
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
    engine: r.engine,
    suggestions: r.suggestions,
    layout: r.layout,
    finetune: r.finetune,
    stepBands: r.stepBands,
    warnings: r.warnings,
  };
}
