/**
 * The plan request, defined once: what `pipedejavu plan`, the app's Plans view (`plan:create`, over
 * IPC or HTTP) and the benches ask the planner. The service's type is this schema's output; the API
 * contract takes it less the fields only a caller on this machine gives (LOCAL_PLAN_FIELDS), with
 * its texts bounded as a network peer's are; the CLI fills it from its options by a table
 * (src-main/cli/plan-request-options.ts). Pure.
 */
import { z } from 'zod';
import type { CatalogEntry } from '../catalog/index.js';
import { MODES } from '../domain/mode.js';
import { TRAINING_STACK_NAMES } from './stacks/stack-names.js';
import { ATTENTION_KERNELS } from '../predictor/attention-kernels.js';
import { ENGINE_CHOICES } from '../engines/engine-names.js';
import type { ServingLoadRequest } from '../engines/engine-serving.js';
import { WEIGHT_FORMATS, type WeightFormat } from '../workload/generation.js';
import { REQUEST_LIMITS as L, type Range } from '../workload/limits.js';
import { CATALOG_DTYPE, FINETUNE_REQUEST, aboveIn, countIn } from '../workload/request-schemas.js';

/** Tensor-parallel degrees a plan may search (`tp`, the CLI's --tp). */
export const TENSOR_DEGREES: Range = { min: 1, max: 64 };

/** Serving at a load: users each keeping one request in flight, over `requests` requests (default 200). */
export const CONCURRENCY_LOAD = z.strictObject({
  kind: z.literal('concurrency'),
  users: countIn(L.users),
  requests: countIn(L.requests).optional(),
});
/** Serving at a load: Poisson arrivals, `perSecond` requests per second. */
export const RATE_LOAD = z.strictObject({
  kind: z.literal('rate'),
  perSecond: aboveIn(L.rate),
  requests: countIn(L.requests).optional(),
});
/** Every request queued at once (the engine benches' offline runs). */
const OFFLINE_LOAD = z.strictObject({ kind: z.literal('offline'), requests: countIn(L.requests) });

/** A small text file the user named (a links statement, an nccl-tests output): its name and text. */
const namedText = z.strictObject({ source: z.string(), text: z.string() });

export const PLAN_REQUEST = z.strictObject({
  /** A catalog name, a stored workload, or a model file or folder. */
  workload: z.string(),
  /** A decoder read from a GGUF header or a config.json (the workload is then that file; CLI only). */
  decoder: z.custom<CatalogEntry>((v) => typeof v === 'object' && v !== null).optional(),
  /** Sequences (serving) or samples (training) per step (default: 1 serving, 8 training). */
  batch: countIn(L.batch).optional(),
  seq: countIn(L.seq).optional(),
  image: countIn(L.image).optional(),
  /** Catalog models: the dtype to build them in (default: the catalog's for the mode). */
  dtype: CATALOG_DTYPE.optional(),
  dims: z.record(z.string(), countIn(L.dim)).optional(),
  inputs: z.record(z.string(), z.array(countIn(L.dim))).optional(),
  /** This machine's devices: "all" (default), "none", or a comma list of device keys ("cpu,cuda:0"). */
  devices: z.string().optional(),
  mode: z.enum(MODES),
  /** Imported machines (comma separated) whose devices join (or replace, with devices "none") the local ones. */
  machine: z.string().optional(),
  /** Datasheet GPUs nobody here profiled, e.g. ["H100 SXM5", "RTX 4090"]. */
  virtual: z.array(z.string()).optional(),
  /** Network between machines, e.g. "25GbE", "200Gb-IB". */
  network: z.string().optional(),
  /**
   * Stated links between machines (network-statement.ts: "rack1-* rack1-* 200Gb-IB" lines): the
   * first matching line wins; `network` covers the pairs no line does.
   */
  links: namedText.optional(),
  /** nccl-tests outputs (all_reduce_perf) measured on devices of the plan: they replace the modelled all-reduce. */
  nccl: z.array(namedText).optional(),
  /** Plans to list (default 5). */
  topN: countIn(L.top).optional(),
  /**
   * Optimizer offload to the CPU (training): 'no', 'yes' (every plan offloads), or 'auto'
   * (plans with and without are ranked together). Default 'auto'.
   */
  offload: z.enum(['auto', 'yes', 'no']).optional(),
  /**
   * ZeRO stage of training (1: optimizer state, 2: and gradients, 3: and weights sharded over
   * data-parallel replicas; 0: plain DDP). Absent: searched (1, 2 and 3 on two or more GPUs).
   */
  zero: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).optional(),
  /**
   * Training: the stack that will run it (core/planner/stacks/): the search keeps to the
   * parallelisms, ZeRO stages and recomputation it runs, gradients are priced as it overlaps them,
   * and the exports are its launcher. Absent: any of them (stacks.ts NO_STACK).
   */
  stack: z.enum(TRAINING_STACK_NAMES).optional(),
  /**
   * Training: the attention kernel the stack runs. 'fused' (default: FlashAttention, SDPA, cuDNN
   * through Transformer Engine) or 'unfused' (batched QKᵀ and AV GEMMs and a softmax over the
   * scores in memory, as Megatron-LM ran it before 2022); datasheet GPUs price it so.
   */
  attention: z.enum(ATTENTION_KERNELS).optional(),
  /** Activation recomputation to search when training: 'auto' (default) tries none, selective and full. */
  recompute: z.enum(['auto', 'none', 'selective', 'full']).optional(),
  /**
   * Tensor-parallel degrees to search (Megatron-style splits of a catalog transformer's blocks);
   * default: 1, 2, 4 and 8 where they divide the heads and KV heads. [1]: no tensor parallelism.
   */
  tp: z.array(countIn(TENSOR_DEGREES)).min(1).optional(),
  /** The user's own layout, priced beside the recommendation: "tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8" (core/planner/layout.ts). */
  layout: z.string().optional(),
  /**
   * false: the layout is priced alone, with the cost and memory of a searched plan but no search for
   * a better one (nor its ranking, vsBest or suggestions): one plan priced, at any cluster size.
   * Needs a layout. Default true.
   */
  search: z.boolean().optional(),
  /**
   * How the weights are stored when serving (--weights, or a GGUF file's format): it sets the bytes
   * per parameter (memory and decode) and reaches the problem (`PlanProblem.weights`) and the
   * datasheet predictors; default: the model's dtype. Refused when training, for a format the
   * dtype cannot take, and fp8 on GPUs without fp8 units.
   */
  weights: z.enum(Object.keys(WEIGHT_FORMATS) as [WeightFormat, ...WeightFormat[]]).optional(),
  /**
   * Serving a decoder: the engine that will run it (core/engines/): its kernels per weight format,
   * host cost per step, batching, split over GPUs and reserved memory set the figures and the
   * launch lines. Default 'auto' (llama.cpp for GGUF block formats, vLLM otherwise); 'ideal' is the
   * kernel roofline with no engine around it.
   */
  engine: z.enum(ENGINE_CHOICES).optional(),
  /** The engine's version ("0.5.4", "b3000"): its rules at that version; absent: the newest. */
  engineVersion: z.string().min(1).optional(),
  /**
   * Serving a decoder: the engine's caps as its launch line sets them (vLLM --max-num-seqs,
   * --max-num-batched-tokens, --gpu-memory-utilization; llama.cpp -np, -ub; TensorRT-LLM's max
   * batch size and tokens); absent: the engine's defaults.
   */
  engineSettings: z
    .strictObject({
      maxNumSeqs: z.number().int().positive().optional(),
      maxBatchedTokens: z.number().int().positive().optional(),
      memoryUtilization: z.number().gt(0).max(1).optional(),
      kvShareOfFree: z.number().gt(0).max(1).optional(),
      /** Decode steps per scheduling decision (vLLM v0.5.3-v0.6.x --num-scheduler-steps); absent: 1. */
      schedulerSteps: z.number().int().positive().max(256).optional(),
      /** Flash attention switched on (llama.cpp -fa) or off. */
      flashAttention: z.boolean().optional(),
      /**
       * The client sends token ids (a benchmark tool that feeds them: gptSessionBenchmark,
       * trtllm-bench, vLLM's benchmark_latency): the server tokenizes nothing before its scheduler.
       */
      tokenIds: z.boolean().optional(),
    })
    .optional(),
  /** Serving a decoder: the KV cache's dtype, the model's ('auto', default) or fp8. */
  kvCache: z.enum(['auto', 'fp8']).optional(),
  /**
   * Serving a decoder at a load: users each keeping one request in flight (concurrency), or
   * Poisson arrivals (rate, requests per second), over `requests` requests (default 200); the
   * plans' figures then carry the simulated latency percentiles and throughput.
   */
  load: z.discriminatedUnion('kind', [CONCURRENCY_LOAD, RATE_LOAD, OFFLINE_LOAD]).optional(),
  /** Serving a decoder: rank plans by a whole request's time (latency, default) or by tokens/s at the largest batch. */
  objective: z.enum(['latency', 'throughput']).optional(),
  /** Serving a decoder: output tokens per request (default 256); the KV cache holds prompt + tokens. */
  tokens: countIn(L.tokens).optional(),
  /** Serving a decoder: prompt tokens (default: seq, else 1024 or what the model's context leaves). */
  prompt: countIn(L.prompt).optional(),
  /**
   * Fine-tuning with LoRA/QLoRA adapters (mode 'training'): the base frozen in its dtype or NF4,
   * gradients and optimizer state for the adapters only (core/catalog/lora.ts).
   */
  finetune: FINETUNE_REQUEST.optional(),
});

export type PlanRequest = z.output<typeof PLAN_REQUEST>;

/**
 * Fields only a caller on this machine gives, which `plan:create` does not take: a description
 * parsed from a file, files read (links, nccl-tests outputs), the search's recomputation and
 * tensor degrees (CLI options), and an engine's version and launch caps (the engine benches).
 */
export const LOCAL_PLAN_FIELDS = {
  decoder: true,
  links: true,
  nccl: true,
  recompute: true,
  tp: true,
  engineVersion: true,
  engineSettings: true,
} as const satisfies { [K in keyof PlanRequest]?: true };

// The load the schema takes is the one the engines simulate (checked both ways).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _loadMatches: Same<NonNullable<PlanRequest['load']>, ServingLoadRequest> = true;
void _loadMatches;
