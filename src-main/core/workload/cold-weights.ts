/**
 * Weights a model reads from memory on every run (issue 62). A profile times each kernel again and
 * again with its operands in cache; inside a model whose weights together exceed the last-level
 * cache, a run reads them in the same order each time, and an LRU cache holding less than that
 * cycle keeps none of it for the next run: every product reads its weight matrix from memory, and
 * costs at least its bytes at the device's streaming rate (the profile's chains of distinct
 * matrix-vector products). That floor binds on a matrix-vector product: the LM head of a prompt's
 * last position (a 115 MB head ran 5.5-5.7 ms at 1 thread on Zen 4, its bytes at 20.5 GB/s, where its
 * profiled kernel said 3.3 ms). A product of 32 or more rows hides the read behind its arithmetic:
 * chains of distinct 1-16 MiB weights ran within -18% to +13% of chains that stay in cache, at 32 and
 * 128 rows (bench/runs/cold-weights.md), so nothing is added to it.
 *
 * Products only: a convolution's filters are small beside its arithmetic, and an embedding gathers
 * rows. Pure.
 */
import { DTYPE_BYTES } from '../domain/dtypes.js';
import type { NodePrediction } from './predict-workload.js';
import type { Workload, WorkloadNode } from './types.js';

export interface ColdWeights {
  /** The last-level cache (bytes) the weights must fit to stay there between runs. */
  lastLevelCacheBytes: number;
  /** The device's streaming rate (GB/s) for a weight matrix of this many bytes. */
  streamGBps: (matrixBytes: number) => number;
}

const PRODUCTS: ReadonlySet<string> = new Set(['MatMul', 'Gemm']);

/** Bytes of the weights a node owns (its initializer operands), at its dtype. */
export function weightBytes(n: WorkloadNode): number {
  return n.params * (DTYPE_BYTES[n.dtype] ?? 4);
}

/** Whether a run finds none of its weights in cache: together they exceed the last-level cache. */
export function weightsRunCold(w: Workload, c: ColdWeights): boolean {
  return w.nodes.reduce((a, n) => a + weightBytes(n), 0) > c.lastLevelCacheBytes;
}

/** What a product's read adds beyond its profiled time (µs): its weights at the streaming rate, less that time; 0 for every other node. */
export function coldReadUs(n: WorkloadNode, profiledUs: number, c: ColdWeights): number {
  const bytes = weightBytes(n);
  if (!n.kernel || !PRODUCTS.has(n.kernel.op) || bytes <= 0) return 0;
  return Math.max(0, bytes / (c.streamGBps(bytes) * 1e3) - profiledUs);
}

/** A node's prediction with its cold read added (time and band moved together). */
export function withColdRead(n: WorkloadNode, p: NodePrediction, c: ColdWeights): NodePrediction {
  const extra = coldReadUs(n, p.timeUs, c);
  return extra > 0 ? { ...p, timeUs: p.timeUs + extra, lowUs: p.lowUs + extra, highUs: p.highUs + extra } : p;
}
