/**
 * Messages between the profiler and its kernel-runner child process. ORT's
 * session.run blocks the event loop and a crashing kernel would take its process
 * down, so kernels run in a child; these types are the whole contract.
 */
import type { EpConfig } from '../../core/domain/execution-provider.js';
import type { Dtype } from '../../core/domain/measurement.js';
import type { KernelSpec } from '../../core/kernels/types.js';
import type { StoppingRule, StopReason } from '../../core/profiler/timing-stats.js';
import type { TraceReadings } from '../../core/profiler/trace-cost.js';

export interface RunJob {
  id: number;
  spec: KernelSpec;
  ep: EpConfig;
  rule: StoppingRule;
  /**
   * Copies in a chain (core/kernels/chain.ts): time the kernel alone and chained, both with
   * ORT trace off, alternating runs; no trace. Absent or 1: one profiled kernel.
   */
  chain?: number;
  /** Directory for ORT traces (one file per kernel, deleted after reading). */
  traceDir: string;
}

export type FailureKind = 'ep-unavailable' | 'unsupported' | 'out-of-memory' | 'failed' | 'crashed' | 'timeout';

export type RunOutcome =
  | {
      id: number;
      ok: true;
      /** ORT-traced kernel time per timed run (µs), warm-up runs excluded. */
      kernelUs: number[];
      /** Wall-clock time per timed run around session.run (µs). */
      wallUs: number[];
      providers: string[];
      /** Per op type, per timed run (µs): lets copies be read from the Memcpy nodes alone. */
      byOpUs: Record<string, number[]>;
      /** Op type of every node that ran (ORT's node names). */
      nodeOps: Record<string, string>;
      /** With `chain`: wall time per run of the kernel alone and of the chain, alternating (µs). */
      chained?: { copies: number; singleUs: number[]; chainUs: number[] };
      /**
       * Set by runners that time the kernel itself (the PyTorch backend): `kernelUs` is its own
       * time per call, by CUDA events on a GPU or the wall clock on the CPU; no trace to read.
       */
      timedBy?: 'cuda-events' | 'wall-clock';
      stop: StopReason;
      sessionCreateMs: number;
      /**
       * Other processes' work over the timed runs (core/profiler/run-conditions.ts othersBeside):
       * CPUs' worth, and the host's CPUs; null where /proc/stat is not there or the runs were too short.
       */
      beside?: Beside | null;
    }
  | { id: number; ok: false; kind: FailureKind; error: string };

/** Other processes' work beside a kernel's timed runs: CPUs' worth, and the host's CPUs. */
export interface Beside {
  othersCpus: number;
  cpus: number;
}

/** A whole user model, run as it is (no kernel generation). */
export interface ModelJob {
  id: number;
  modelPath: string;
  /** Every graph input with the concrete shape to feed. */
  inputs: { name: string; dims: number[]; dtype: Dtype }[];
  ep: EpConfig;
  /** Stopping rule of the untraced timing (what end to end means), shared by its passes. */
  rule: StoppingRule;
  /** Traced runs after it, only to attribute time to nodes (default 10). */
  attributionRuns?: number;
  /**
   * Keep ORT's trace of the traced pass (Chrome trace JSON) in traceDir and name it in the
   * outcome's `traceFile`: the caller moves it away (the runner deletes traceDir on close).
   */
  keepTrace?: boolean;
  traceDir: string;
}

export type ModelOutcome =
  | {
      id: number;
      ok: true;
      /**
       * Wall time around session.run per timed run, ORT trace off (µs): the end-to-end time.
       * The untraced pass with the lower median (passMediansUs).
       */
      wallUs: number[];
      /** Each untraced pass's median wall time (µs), in time order; absent from older runners. */
      passMediansUs?: number[];
      /** The attribution pass (ORT trace on, which costs microseconds per node), per run. */
      tracedWallUs: number[];
      /** ORT's own model_run time per traced run (µs). */
      modelRunUs: number[];
      /** Per traced run: ORT-traced sum of node times (µs). */
      kernelUs: number[];
      /** Per node (ORT's node names), per traced run (µs). */
      byNodeUs: Record<string, number[]>;
      nodeOps: Record<string, string>;
      /**
       * Per node of the traced session's graph (ORT's node names): its first output tensor.
       * ORT names the nodes it inserts differently in each session; their outputs are stable.
       * Absent when that graph could not be written or read.
       */
      nodeOutputs?: Record<string, string>;
      providers: string[];
      outputShapes: Record<string, number[]>;
      /** With `keepTrace`: ORT's trace file of the traced pass (warm-up run included), in traceDir. */
      traceFile?: string;
    }
  | { id: number; ok: false; kind: FailureKind; error: string };

/** Chains of tiny nodes, timed without the ORT trace: the per-run and per-node overhead. */
export interface OverheadJob {
  id: number;
  ep: EpConfig;
  rule: StoppingRule;
  /** Chain lengths to time. */
  lengths: number[];
  /** Rounds over the lengths (each length: the lowest of its rounds' medians); absent: 1. */
  rounds?: number;
  /** Sizes (elements) of the one-node models the binding fit is timed on; none: no binding fit. */
  bindingElements?: number[];
  /** Lengths of the pool's wake-up chains (a CPU at more than one thread); none: not timed. */
  wakeLengths?: number[];
  traceDir: string;
}

export type OverheadOutcome =
  | {
      id: number;
      ok: true;
      /** Untraced median wall time per chain length (the lowest over the rounds). */
      points: { nodes: number; medianUs: number }[];
      /** Median trace time of one tiny node with the ORT trace on: what the ORT trace adds to every node's time (µs). */
      traceNodeUs: number | null;
      /** The longest traced chain's per-node trace readings behind traceNodeUs: how many read each whole µs. */
      traceReadings?: TraceReadings;
      /** The shortest and longest chains with the ORT trace on: median model_run (µs). */
      tracedRuns?: { nodes: number; modelRunUs: number }[];
      /** One-node models per size: input + output bytes, untraced wall (feeds only), traced model_run. */
      binding?: { bytes: number; wallUs: number; modelRunUs: number }[];
      /** The wake-up chains' untraced wall times, at the job's thread count and at one thread. */
      wake?: { atThreads: { nodes: number; medianUs: number }[]; atOneThread: { nodes: number; medianUs: number }[] };
    }
  | { id: number; ok: false; kind: FailureKind; error: string };

/** Create a session only, so ORT writes the graph it will execute to `outPath`. */
export interface OptimizeJob {
  id: number;
  modelPath: string;
  ep: EpConfig;
  outPath: string;
  /** Weights go to this file beside outPath (only the graph is wanted; the caller deletes it). */
  weightsFile: string;
}

export type OptimizeOutcome = { id: number; ok: true } | { id: number; ok: false; kind: FailureKind; error: string };

export type ToChild =
  | { type: 'run'; job: RunJob }
  | { type: 'run-model'; job: ModelJob }
  | { type: 'overhead'; job: OverheadJob }
  | { type: 'optimize'; job: OptimizeJob }
  | { type: 'exit' };

export type FromChild =
  | { type: 'ready'; ortVersion: string; backends: { name: string; bundled: boolean }[] }
  | { type: 'result'; outcome: RunOutcome }
  | { type: 'model-result'; outcome: ModelOutcome }
  | { type: 'overhead-result'; outcome: OverheadOutcome }
  | { type: 'optimize-result'; outcome: OptimizeOutcome };

/**
 * CUDA errors after which the device is gone or its context dead for the rest of the process
 * (sticky errors, a GPU that fell off the bus, an uncorrectable ECC error): every later kernel
 * would fail the same way, so the profile stops there. As ORT prints them: "CUDA failure 999:
 * unknown error ..." (CUDA_CALL) or "CUDA error cudaErrorLaunchFailure:unspecified launch failure".
 */
const CUDA_LOST =
  /CUDA failure (46|100|214|700|701|714|715|716|717|718|719|999)\b|cudaError(DevicesUnavailable|NoDevice|ECCUncorrectable|IllegalAddress|HardwareStackError|IllegalInstruction|MisalignedAddress|InvalidAddressSpace|InvalidPc|LaunchFailure|Unknown)\b/;

/** The GPU is gone (CUDA_LOST): one line for the report, from ORT's long message. */
function gpuLost(message: string): string | null {
  const m = CUDA_LOST.exec(message);
  return m ? `the GPU stopped answering (${m[0]})` : null;
}

export function classifyOrtError(message: string): FailureKind {
  if (/alloc|out of memory|OOM|bad_alloc|CUDNN_STATUS_ALLOC|cudaErrorMemoryAllocation/i.test(message))
    return 'out-of-memory';
  if (CUDA_LOST.test(message)) return 'ep-unavailable';
  if (/NOT_IMPLEMENTED|Could not find an implementation|not supported|unsupported|No kernel/i.test(message))
    return 'unsupported';
  if (/execution provider|backend .* not (found|available)|libonnxruntime_providers|EP .* not|adapter/i.test(message))
    return 'ep-unavailable';
  return 'failed';
}

/**
 * ORT errors start with a source location and a failed check ("/onnxruntime_src/...cc:136
 * ... was false. Failed to get a WebGPU adapter: ..."): keep what a person can act on.
 */
export function cleanOrtMessage(message: string): string {
  const lost = gpuLost(message);
  if (lost) return lost;
  const first = message.split('\n')[0] ?? message;
  const check = / was false\. (.+)$/.exec(first);
  if (check?.[1]) return check[1];
  return first.replace(/^\/onnxruntime_src\/\S+:\d+ /, '').replace(/^\[ONNXRuntimeError\] : \d+ : \w+ : /, '');
}
