/**
 * Weights a model reads from memory on every run (issue 62). A profile times each kernel again and
 * again with its operands in cache; inside a model whose weights together exceed the last-level
 * cache, a run reads them in the same order each time, and an LRU cache holding less than that
 * cycle keeps none of it for the next run: every product reads its weight matrix from memory, and
 * costs at least its bytes at the device's streaming rate (the profile's chains of distinct
 * matrix-vector products). That floor binds on a matrix-vector product: the LM head of a prompt's
 * last position (a 115 MB head ran 5.5-5.7 ms at 1 thread on Zen 4, its bytes at 20.5 GB/s, where its
 * profiled kernel said 3.3 ms). Whether a product of many rows hides the read behind its arithmetic
 * depends on the engine's BLAS and the weight's size, so the profile measures it (`unhiddenShare`):
 * ONNX Runtime packs a constant weight once, when the session is made, and its 32-row products on the
 * Zen 4 VM showed 0.65 of a 4 MiB weight's read and 0.17 of a 16 MiB one's; PyTorch hands each call's
 * weight to OpenBLAS, which packs it first and multiplies after, and its products took their time in
 * cache plus about the whole read at both sizes (bench/runs/h79-cold-pack.md).
 *
 * Products only: a convolution's filters are small beside its arithmetic, and an embedding gathers
 * rows. Pure.
 */
import { DTYPE_BYTES } from '../domain/dtypes.js';
import { logLinearAt } from '../util/log-linear.js';
import type { NodePrediction } from './predict-workload.js';
import type { Workload, WorkloadNode } from './types.js';

export interface ColdWeights {
  /** The last-level cache (bytes) the weights must fit to stay there between runs. */
  lastLevelCacheBytes: number;
  /** The device's streaming rate (GB/s) for a weight matrix of this many bytes. */
  streamGBps: (matrixBytes: number) => number;
  /**
   * The share (0-1) of a weight's read (of this many bytes) a product of many rows does not hide
   * behind its arithmetic, as the profile measured it (unhiddenShareAt); 0 where it did not.
   */
  unhiddenShare: (weightBytes: number) => number;
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

/**
 * What a product's read adds beyond its profiled time (µs): its weights at the streaming rate less
 * that time (the product can be no faster than its read), or the read's unhidden share, whichever
 * is more; 0 for every other node.
 */
export function coldReadUs(n: WorkloadNode, profiledUs: number, c: ColdWeights): number {
  const bytes = weightBytes(n);
  if (!n.kernel || !PRODUCTS.has(n.kernel.op) || bytes <= 0) return 0;
  const readUs = bytes / (c.streamGBps(bytes) * 1e3);
  const share = productRows(n) > GEMV_ROWS ? c.unhiddenShare(bytes) : 0;
  return Math.max(0, readUs - profiledUs, share * readUs);
}

/**
 * Rows this thin make a matrix-vector product: its time in cache is itself a read, which the floor
 * above prices; the unhidden share is measured on, and applies to, products of more rows.
 */
export const GEMV_ROWS = 4;

/** The rows a product multiplies its weight by (its batch folded in). */
function productRows(n: WorkloadNode): number {
  const s = n.kernel?.shape ?? {};
  return (s['B'] ?? 1) * (s['M'] ?? 1);
}

/** The unhidden share at `bytes`, from the shares measured at a few weight sizes (log-linear in bytes); 0 with none. */
export function unhiddenShareAt(measured: readonly { bytes: number; share: number }[], bytes: number): number {
  return (
    logLinearAt(
      measured.map((m) => ({ x: m.bytes, y: m.share })),
      bytes,
    ) ?? 0
  );
}

/**
 * The share of a weight read a many-row product does not hide, from a profile's chain of such
 * products over distinct weights past the cache (µs per product), the same product timed with its
 * weight in cache, and the read's time at the streaming rate: (cold - warm) / read, within 0-1.
 */
export function unhiddenReadShare(coldUs: number, warmUs: number, readUs: number): number {
  if (!(readUs > 0) || !Number.isFinite(coldUs) || !Number.isFinite(warmUs)) return 0;
  return Math.min(1, Math.max(0, (coldUs - warmUs) / readUs));
}

/** A node's prediction with its cold read added (time and band moved together). */
export function withColdRead(n: WorkloadNode, p: NodePrediction, c: ColdWeights): NodePrediction {
  const extra = coldReadUs(n, p.timeUs, c);
  return extra > 0 ? { ...p, timeUs: p.timeUs + extra, lowUs: p.lowUs + extra, highUs: p.highUs + extra } : p;
}
