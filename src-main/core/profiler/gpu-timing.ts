/**
 * How kernels are timed on an accelerator (CUDA, WebGPU). Pure.
 *
 * ORT's trace cannot be used there: under the CUDA EP a node's `_kernel_time` is the
 * host-side enqueue of an asynchronous launch (GPU kernel events need a CUPTI build), the
 * feeds are CPU tensors so MemcpyFromHost/MemcpyToHost nodes run around the kernel, and
 * WebGPU is asynchronous too. So every kernel (the host-device copies aside, which are what
 * their Memcpy nodes measure) is timed by differencing (core/kernels/chain.ts): K copies of
 * it against one copy, ORT trace off, alternating runs, the intermediates on the device, and
 * the run's final output copy synchronizing; label = (T(K) - T(1)) / (K - 1). The per-run
 * and per-node overhead (chains of tiny nodes, overhead.ts) is measured on the same EP and
 * kept as its own figure in the run's summary: small models are launch-bound.
 *
 * Warm-up: GPU_WARMUP_RUNS runs of each session (the single and the K-copy one) before any
 * timed run. The first run of a CUDA session does cuDNN's algorithm search for every conv
 * (EXHAUSTIVE by default: it times each candidate algorithm) and grows ORT's device arena;
 * the second is the first with the memory pattern ORT plans from the first; the third gives
 * the SM clock time to leave its idle state. Later runs are steady.
 */
import { isTorchEp, type EpConfig } from '../domain/execution-provider.js';
import { CHAIN_COPIES } from '../kernels/chain.js';
import type { KernelSpec } from '../kernels/types.js';
import type { StoppingRule } from './timing-stats.js';

/**
 * 'differenced': every kernel by K copies against one; 'cpu': the CPU's mix (small kernels
 * chained, the rest traced); 'direct': the runner times the kernel itself (the PyTorch
 * backend: CUDA events on a GPU, the wall clock on the CPU).
 */
export type TimingMethod = 'differenced' | 'cpu' | 'direct';

/** Warm-up runs of each session before timing on an accelerator (see the file comment). */
export const GPU_WARMUP_RUNS = 3;

/**
 * The timing method of an EP: differenced on accelerators. `forceDifferenced` makes the CPU EP
 * use it too, so that the accelerator path runs for real where no GPU is (tests).
 */
export function timingMethod(ep: EpConfig, forceDifferenced = false): TimingMethod {
  if (isTorchEp(ep)) return 'direct';
  return ep.name !== 'cpu' || forceDifferenced ? 'differenced' : 'cpu';
}

/** The stopping rule with at least GPU_WARMUP_RUNS warm-up runs, except for the CPU EP's usual mix. */
export function methodRule(rule: StoppingRule, method: TimingMethod): StoppingRule {
  return method === 'cpu' ? rule : { ...rule, warmupRuns: Math.max(rule.warmupRuns, GPU_WARMUP_RUNS) };
}

/** Copies for a differenced timing: CHAIN_COPIES for every kernel but the host-device copies (1: traced). */
export function differencedCopies(spec: KernelSpec): number {
  return spec.family === 'copy' ? 1 : CHAIN_COPIES;
}
