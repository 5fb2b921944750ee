/**
 * What an engine file states (vllm-engine.ts, llama-cpp-engine.ts, ...): the kernels it runs per
 * weight format and GPU generation, its attention, how many kernels a block launches, what its
 * host does per step and per sequence (with or without CUDA graphs), its batching and caps, how it
 * splits a model over GPUs, and the memory it takes. Numbers fitted on the engine's own
 * publications name their calibration cells in `from` (bench/engines; a test checks that each is
 * first-party to the engine or a kernel microbenchmark). Pure.
 */
import type { WeightFormat } from '../workload/generation.js';
import type { AttentionKernel } from './attention-kernels.js';
import type { EngineName } from './engine-names.js';
import type { WeightKernelName } from './weight-kernels.js';

/** Bytes in a GiB: the unit the engine files state their memory reserves in. */
export const GiB = 2 ** 30;

export interface EngineAttention {
  /** Prefill attention: a fused flash kernel, or scores materialised in memory (matmul, softmax, matmul). */
  prefill: 'flash' | 'unfused';
  /** Share of the architecture's fused-attention rate the prefill kernel reaches. */
  prefillShare: number;
  /**
   * The flash kernels a prompt chunk runs (from the engine's source): one over the chunk's own
   * tokens (causal) and one over the cached prefix it attends (no mask), each priced at its
   * published rate for its key count where the GPU's architecture has a table
   * (attention-kernels.ts); absent, or an architecture without a table: the architecture's flat
   * fused-attention fraction over both.
   */
  prefillKernels?: { chunk: AttentionKernel; prefix: AttentionKernel };
  /** Share of the memory's achieved bandwidth a decode step's attention reads the KV cache at. */
  decodeShare: number;
  /**
   * The decode kernel runs one thread block per query head over a paged cache (vLLM's own
   * PagedAttention kernel; TensorRT-LLM's masked MHA before 0.12): each block reads its KV head's
   * whole cache, so a grouped-query model's keys and values are read once per query head, the
   * repeats served from L2 at `queryHeadRate` times the memory's bandwidth; and each sequence is
   * read in whole blocks of `blockTokens` (1: token by token).
   * Absent: the cache is read once per KV head, token by token.
   */
  paged?: PagedDecode;
  /**
   * The decode kernel the engine falls back to when the KV cache is stored in fp8: it replaces
   * `paged` for such a cache (vLLM's V0 backend selector refuses FlashAttention-2 for an fp8 cache
   * and decodes through its own PagedAttention kernel). Absent: `paged` either way.
   */
  fp8CachePaged?: PagedDecode;
}

export interface PagedDecode {
  queryHeadRate: number;
  blockTokens: number;
}

export interface EngineHost {
  /** CPU time of a step the GPU waits for: scheduling, inputs, sampling sync, outputs (µs). */
  stepUs: number;
  /** The same per sequence in the step (µs). */
  perSequenceUs: number;
  /**
   * The same per tensor-parallel rank beyond the first: a step's inputs sent to each worker process
   * (vLLM, SGLang, TGI shards) or rank (MPI), µs.
   */
  perRankUs: number;
  /** CPU time per kernel launched outside a CUDA graph (µs); overlaps the GPU's work. */
  launchUs: number;
  /** Decode steps of up to this many sequences replay a CUDA graph (0: never). */
  graphMaxBatch: number;
  /**
   * CPU time per prompt token the server spends tokenizing a request before its scheduler sees it,
   * in one process, requests one after another (request-path.ts); the GPU keeps stepping meanwhile.
   * Per token of English text (ENGLISH_BYTES_PER_TOKEN): a load of denser text pays per byte.
   * Absent: the request reaches the scheduler when it arrives.
   */
  tokenizeUsPerToken?: number;
  /**
   * What picks the graph: 'decode' (absent: steps of decodes only, up to graphMaxBatch sequences) or
   * 'tokens' (any step of up to graphMaxBatch tokens, a prompt's included: llama.cpp turns its graphs
   * off only for a batch of more than one token, `node->src[1]->ne[1] > 1` in ggml-cuda.cu).
   */
  graphBy?: 'decode' | 'tokens';
  /**
   * A graphed decode step runs the smallest captured batch that holds it: 1, 2, 4, then multiples of
   * this (vLLM V0's `_get_graph_batch_size`: `(batch_size + 7) // 8 * 8` past 4). The padding rows go
   * through every weight GEMM and elementwise kernel; attention and the LM head see the real ones.
   * Absent: the graph runs the step's own batch.
   */
  graphBatchAlign?: number;
}

export interface EngineBatching {
  /** Continuous (iteration-level) batching, or static batches run to their longest request. */
  kind: 'continuous' | 'static';
  /** Most sequences running at once (vLLM max_num_seqs, llama.cpp -np slots...). */
  maxNumSeqs: number;
  /** Most tokens one step processes (vLLM max_num_batched_tokens, llama.cpp -ub). */
  maxBatchedTokens: number;
  /** Prompts are cut into chunks of at most maxBatchedTokens a step. */
  chunkedPrefill: boolean;
  /**
   * A step's tokens are computed in ubatches of at most this many, one after another (llama.cpp's
   * llama_decode splits a batch of up to -b tokens into -ub ubatches, from b2413); absent: a step
   * is computed whole.
   */
  ubatchTokens?: number;
  /**
   * A step with prompt work also decodes every running sequence (vLLM V1's chunked prefill,
   * TensorRT-LLM's in-flight batching, which runs context and generation requests in one
   * iteration); false: prompt steps run alone and the running sequences wait (vLLM V0, SGLang
   * without --enable-mixed-chunk). Absent: as chunkedPrefill.
   */
  prefillWithDecodes?: boolean;
  /**
   * The scheduler forms the next step while this one runs on the GPU (SGLang's overlap
   * scheduler): a request arriving during a step misses the step already formed and joins the one
   * after, unless the engine would otherwise sit idle. Absent: false.
   */
  scheduleAhead?: boolean;
  /** KV cache held for the whole request from admission ('full') or grown as tokens come ('on-demand'). */
  admission: 'on-demand' | 'full';
  /**
   * An on-demand cache whose scheduler admits a request only while the free cache, less the output the
   * running sequences are still expected to write, holds its prompt and its output (SGLang's
   * PrefillAdder); once one does not fit, nobody is admitted until a running sequence ends. Absent: no
   * reservation (vLLM admits on the prompt's blocks alone).
   */
  outputReserve?: OutputReserve;
  /**
   * Decode steps per scheduling decision, tokens streamed at their end (vLLM v0.5.3-v0.6.x
   * --num-scheduler-steps, a launch setting); absent: 1.
   */
  schedulerSteps?: number;
}

/**
 * The output a scheduler reserves for running sequences before it admits another (SGLang): each running
 * sequence's remaining output, clipped at `clip` tokens, times a ratio that starts at `initRatio`, falls
 * by (initRatio - minRatio) / decaySteps each decode step to `minRatio`, returns to `initRatio` when the
 * engine is idle, and after a preemption is set to (tokens written + retractSteps a sequence) / outputs
 * of the sequences left (at most 1). A request being admitted reserves its prompt and its output
 * (clipped) in full.
 */
export interface OutputReserve {
  initRatio: number;
  minRatio: number;
  decaySteps: number;
  clip: number;
  retractSteps: number;
}

export interface EngineSplit {
  /** Tensor parallelism (Megatron-style column/row splits with two all-reduces a block). */
  tensor: boolean;
  /** Pipeline stages: overlapped across microbatches, one after the other, or not offered. */
  pipeline: 'overlapped' | 'sequential' | 'none';
  /** A one-shot all-reduce kernel over NVLink or PCIe P2P for small messages; else NCCL. */
  customAllReduce: boolean;
  /** Fixed time of one custom all-reduce call (launch, flag exchange between GPUs), µs. */
  allReduceUs: number;
  /**
   * The largest message (bytes) the engine sends to its custom all-reduce over `gpus` GPUs; larger
   * ones go to NCCL. Absent: every message the custom kernel can take.
   */
  customAllReduceUpTo?(gpus: number): number;
  /**
   * Collectives a tensor-parallel block waits on: 2 all-reduces for a Megatron-style split; llama.cpp's
   * row split gathers every split matrix product's result on the main GPU (q, k, v, o, gate, up, down: 7).
   */
  syncsPerBlock?: number;
  /**
   * With 'sequential' stages, a step's ubatches (EngineBatching.ubatchTokens) are pipelined over the
   * stages: the next stage takes a ubatch while the one before starts the next (llama.cpp's pipeline
   * parallelism over a layer split, from b2413); the step ends when its last ubatch leaves the last
   * stage. Absent: false.
   */
  pipelinesUbatches?: boolean;
  /** Data-parallel replicas (several engine instances behind one endpoint). */
  replicas: boolean;
}

export interface EngineMemory {
  /** Share of each GPU's memory the engine takes (gpu_memory_utilization). */
  utilization: number;
  /**
   * The share when the engine's default depends on the tensor-parallel degree (SGLang's
   * mem_fraction_static): [least degree, share] pairs, largest degree first; a group takes the first
   * its degree reaches, `utilization` below them all. Empty or absent: `utilization` at every degree
   * (also what a launch stating its share gets).
   */
  utilizationByTp?: readonly (readonly [number, number])[];
  /**
   * The KV cache's share of the memory the weights, reserve and activations leave, when the engine
   * sizes it so (TensorRT-LLM's kv_cache_free_gpu_memory_fraction) instead of by `utilization`.
   */
  kvShareOfFree?: number;
  /** CUDA context, workspaces and graph pools, per GPU (bytes). */
  reservedBytes: number;
  /**
   * The reserve when the replica is one GPU, where the engine's KV budget counts less than
   * `reservedBytes` (vLLM before 0.6 reads its free memory after the CUDA context, before any
   * NCCL communicator); absent: `reservedBytes`.
   */
  reservedBytesAlone?: number;
  /** Activations per token of the largest step (the engine's profile run), per GPU (bytes, per hidden unit). */
  activationBytesPerTokenPerHidden: number;
  /**
   * Tokens of the step the activation memory is set aside for: the engine's tokens per step
   * (vLLM profiles a step of max_num_batched_tokens) unless it allocates per step (a number).
   */
  activationTokens?: number;
  /**
   * 'full-cache': the engine reserves its compute buffer for a step over a full KV cache (n_kv = the
   * context, llama.cpp's graph reserve), so with unfused attention (`attention.prefill` 'unfused') it
   * holds one layer's f32 scores and their f32 mask beside the activations (engine-memory.ts
   * unfusedScoreBytes); absent: none counted.
   */
  scoreBuffer?: 'full-cache';
  /**
   * Where the engine keeps the input token embedding (and a learned position table): 'host' where
   * it leaves the table in host memory and looks the tokens' rows up on the CPU, so no GPU holds it
   * (llama.cpp); absent: on the first stage's GPUs. An LM head tied to the table is a copy on the
   * last stage's GPUs either way.
   */
  inputEmbedding?: 'host';
}

export interface EngineRules {
  name: EngineName;
  /** The first version these rules describe (a later file entry takes over from its own), and its release date. */
  since: string;
  released: string;
  /** What changed at this version, in a line. */
  change: string;
  /** The kernel a weight format runs on a GPU architecture (Ampere, Ada, Hopper, ...). */
  kernel(format: WeightFormat, architecture: string): WeightKernelName;
  attention: EngineAttention;
  /** The attention when flash attention is switched on by a flag (llama.cpp -fa); absent: `attention` either way. */
  flashAttention?: EngineAttention;
  /**
   * The head widths (K = V) the engine's GPU flash-attention kernels take; a flash attention asked
   * of a model with other heads is refused (its kernel would run elsewhere, llama.cpp's on the CPU).
   */
  flashAttentionHeadDims?: readonly number[];
  /**
   * Kernels one transformer block launches, the step's own outside the blocks (embedding, head,
   * sampling), and the GPU's fixed time per kernel under this engine (launch gap, ramp and tail:
   * shorter when kernels replay from a CUDA graph), µs.
   */
  launches: {
    perBlock: number;
    perStep: number;
    gpuUs: number;
    /**
     * The GPU's extra idle time per kernel launched on a stream outside a CUDA graph (the gap a
     * graph's replay removes, even with the host's launches ahead of the GPU), µs. Absent: 0.
     */
    streamGapUs?: number;
    /**
     * How a W8A8 kernel's activations are quantised: 'separate' = a kernel of its own before each
     * GEMM (its fixed time, 16-bit read and 8-bit write of the GEMM's input); absent: fused into the
     * kernel before, nothing added.
     */
    activationQuant?: 'separate';
    /**
     * The modelling code runs the projections engine-decoder.ts fuses as separate Linear modules
     * (Hugging Face's Llama: q, k, v and gate, up), so a weight kernel's host operations
     * (WeightKernel.hostOps) come once per module; absent: once per fused GEMM.
     */
    separateProjections?: true;
  };
  host: EngineHost;
  batching: EngineBatching;
  split: EngineSplit;
  memory: EngineMemory;
  /** The KV cache's bytes per value by the cache dtype the engine is run with. */
  kvBytes: { auto: number; fp8: number };
  /** Calibration cells (bench/engines) the fitted numbers came from. */
  from: readonly string[];
}
