/**
 * Messages between the profiler and its kernel-runner child process. ORT's
 * session.run blocks the event loop and a crashing kernel would take its process
 * down, so kernels run in a child; these types are the whole contract.
 */
import type { Dtype } from '../../core/domain/measurement.js';
import type { KernelSpec } from '../../core/kernels/types.js';
import type { StoppingRule, StopReason } from '../../core/profiler/timing-stats.js';

export type EpConfig =
  { name: 'cpu'; threads: number } | { name: 'cuda'; deviceId: number } | { name: 'webgpu'; deviceId: number };

export interface RunJob {
  id: number;
  spec: KernelSpec;
  ep: EpConfig;
  rule: StoppingRule;
  /** Directory for ORT's profile traces (one file per kernel, deleted after reading). */
  traceDir: string;
}

export type FailureKind = 'ep-unavailable' | 'unsupported' | 'out-of-memory' | 'failed' | 'crashed' | 'timeout';

export type RunOutcome =
  | {
      id: number;
      ok: true;
      /** ORT-profiled kernel time per timed run (µs), warm-up runs excluded. */
      kernelUs: number[];
      /** Wall-clock time per timed run around session.run (µs). */
      wallUs: number[];
      providers: string[];
      /** Per op type, per timed run (µs): lets copies be read from the Memcpy nodes alone. */
      byOpUs: Record<string, number[]>;
      stop: StopReason;
      sessionCreateMs: number;
    }
  | { id: number; ok: false; kind: FailureKind; error: string };

/** A whole user model, run as it is (no kernel generation). */
export interface ModelJob {
  id: number;
  modelPath: string;
  /** Every graph input with the concrete shape to feed. */
  inputs: { name: string; dims: number[]; dtype: Dtype }[];
  ep: EpConfig;
  rule: StoppingRule;
  traceDir: string;
}

export type ModelOutcome =
  | {
      id: number;
      ok: true;
      /** Per timed run: ORT-profiled sum of node times, and wall time around run (µs). */
      kernelUs: number[];
      wallUs: number[];
      /** Per node (ORT's node names), per timed run (µs). */
      byNodeUs: Record<string, number[]>;
      nodeOps: Record<string, string>;
      providers: string[];
      outputShapes: Record<string, number[]>;
    }
  | { id: number; ok: false; kind: FailureKind; error: string };

export type ToChild = { type: 'run'; job: RunJob } | { type: 'run-model'; job: ModelJob } | { type: 'exit' };

export type FromChild =
  | { type: 'ready'; ortVersion: string; backends: { name: string; bundled: boolean }[] }
  | { type: 'result'; outcome: RunOutcome }
  | { type: 'model-result'; outcome: ModelOutcome };

export function classifyOrtError(message: string): FailureKind {
  if (/alloc|out of memory|OOM|bad_alloc|CUDNN_STATUS_ALLOC|cudaErrorMemoryAllocation/i.test(message))
    return 'out-of-memory';
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
  const first = message.split('\n')[0] ?? message;
  const check = / was false\. (.+)$/.exec(first);
  if (check?.[1]) return check[1];
  return first.replace(/^\/onnxruntime_src\/\S+:\d+ /, '').replace(/^\[ONNXRuntimeError\] : \d+ : \w+ : /, '');
}
