/**
 * A decode step's attention on a profiled device (core/workload/decode-attention.ts): one
 * layer's attention graph priced node by node, times the layers. On ONNX Runtime's CPU EP, a
 * product of more than one query row over the KV cache (MLAS packs it first) costs at least its
 * cache bytes at the rate the profile's rows of such products over caches from memory ran at
 * (stream-rate.ts cacheReadRates). Other nodes and engines, and profiles before those rows: a node
 * that reads the cache costs at least its bytes at the device's streaming rate, or, where it packs
 * or copies the cache, its profiled time plus that read.
 */
import type { Dtype } from '../../core/domain/measurement.js';
import { DTYPE_BYTES } from '../../core/domain/dtypes.js';
import { CACHE_INPUT, decodeAttentionModel, type KvDataflow } from '../../core/workload/decode-attention.js';
import { workloadFromOnnx } from '../../core/workload/from-onnx.js';
import type { Workload } from '../../core/workload/types.js';
import type { DecoderShape } from '../../core/workload/generation.js';
import type { Database } from '../../adapters/store/types.js';
import type { DeviceGroup } from './training-data.js';
import { predictOnDevice } from '../workload/workload-service.js';
import { cacheReadRates, streamRateAt } from './stream-rate.js';

export interface AttentionAt {
  batch: number;
  dataflow: KvDataflow;
  dtype: Dtype;
  /** The rate the cache streams at (GB/s): the step's weight-streaming rate. */
  bandwidthGBps: number;
}

/**
 * Whether a product packs its cache operand before multiplying (on ONNX Runtime's CPU EP, whose
 * GEMM is MLAS; PyTorch's BLAS and the GPUs' kernels are not modelled so): MLAS
 * copies B into panels for a product of more than one row and streams it for one row
 * (MlasSgemmKernelM1). Packing reads the whole cold operand before any arithmetic, so its read
 * adds to the profiled (cache-hot) time; a streamed read overlaps it.
 */
function packsCache(kernel: { op: string; shape: Record<string, number> } | null | undefined): boolean {
  return kernel?.op === 'MatMul' && (kernel.shape['M'] ?? 1) > 1;
}

/**
 * A Concat of the cache and the new token copies the whole cache (the concatenating dataflow). Its
 * profiled time is the copy with both ends in cache; from memory the copy waits on its read as a
 * pack does, and the write stays, so the read adds to the profiled time. Found on stop 80's
 * `measure-model` run of a concatenating step (Zen 4, L14 h448 GQA 7/1 at 2,200 tokens: a layer's
 * copy of 563 KiB took 44-46 µs, profiled 14 with its operands in cache, its read 28 at the
 * weights' streaming rate); bench:decode's set I is held out for it.
 */
function copiesCache(kernel: { op: string } | null | undefined): boolean {
  return kernel?.op === 'Concat';
}

/**
 * A Transpose whose output only products read (K transposed for the scores): ONNX Runtime folds it
 * into the product (MatmulTransposeFusion: a FusedMatMul reading B transposed, as `measure-model`
 * shows on a concatenating decode step), and PyTorch's transpose is a view. Its work is the
 * product's; priced on its own it was the whole cache moved once more per layer.
 */
function foldedIntoProduct(w: Workload, index: number): boolean {
  const node = w.nodes[index];
  const out = node?.outputs[0]?.name;
  if (node?.opType !== 'Transpose' || !out) return false;
  const readers = w.nodes.filter((m) => m.inputs.some((t) => t.name === out));
  return readers.length > 0 && readers.every((m) => m.opType === 'MatMul');
}

/** Head width of the cache: hidden / heads, or what kvValuesPerLayer says a layer keeps per KV head. */
function headDimOf(d: DecoderShape): number {
  return d.kvValuesPerLayer !== undefined ? d.kvValuesPerLayer / (2 * d.kvHeads) : d.hidden / d.heads;
}

/**
 * The attention of every layer at `context` cached tokens on a profiled device (µs; the per-node
 * cost of its shape-only nodes left out: the step counts it for all its nodes); null when the
 * shape is not one the decode graph builds (query heads not a multiple of the key/value heads, a
 * fractional head width, as latent attention's cache has). GPU engines price theirs in
 * core/engines/engine-step.ts.
 */
export function profiledAttentionUs(
  db: Database,
  device: DeviceGroup,
  d: DecoderShape,
  context: number,
  at: AttentionAt,
): number | null {
  const headDim = headDimOf(d);
  if (!Number.isInteger(d.heads / d.kvHeads) || !Number.isInteger(headDim) || context < 1) return null;
  const model = decodeAttentionModel(
    { batch: at.batch, heads: d.heads, kvHeads: d.kvHeads, headDim, context },
    at.dataflow,
    at.dtype,
  );
  const w = workloadFromOnnx(model, { name: 'decode attention' });
  const p = predictOnDevice(db, w, device, { mode: 'inference' });
  const elementBytes = DTYPE_BYTES[at.dtype] ?? 2;
  const cacheBytes = (index: number): number =>
    (w.nodes[index]?.inputs ?? [])
      .filter((t) => CACHE_INPUT.test(t.name))
      .reduce((a, t) => a + t.dims.reduce((x, y) => x * y, 1) * elementBytes, 0);
  const mlas = device.executionProvider === 'cpu';
  const rates = mlas ? cacheReadRates(db, device) : [];
  // A shape-only node's time is the per-node cost alone, which the step counts for all its nodes.
  const layer = p.nodes.reduce((a, n) => {
    const kernelUs = n.how === 'free' || foldedIntoProduct(w, n.index) ? 0 : n.timeUs;
    const bytes = cacheBytes(n.index);
    const kernel = w.nodes[n.index]?.kernel;
    const coldUs = bytes / (at.bandwidthGBps * 1e3);
    const packed = mlas && packsCache(kernel);
    // Packed over a cache from memory, where the profile timed such products over caches from memory.
    if (packed && bytes > 0 && rates.length) return a + Math.max(kernelUs, bytes / (streamRateAt(rates, bytes) * 1e3));
    return a + (packed || copiesCache(kernel) ? kernelUs + coldUs : Math.max(kernelUs, coldUs));
  }, 0);
  return layer * d.layers;
}

/**
 * The attention at each context from `from` to `to` cached tokens, priced at the two ends and
 * interpolated in between (its kernels grow linearly with the context); null as above.
 */
export function profiledAttentionOver(
  db: Database,
  device: DeviceGroup,
  d: DecoderShape,
  span: { from: number; to: number },
  at: AttentionAt,
): ((context: number) => number) | null {
  const a = profiledAttentionUs(db, device, d, span.from, at);
  const b = span.to > span.from ? profiledAttentionUs(db, device, d, span.to, at) : a;
  if (a === null || b === null) return null;
  const width = span.to - span.from;
  return (context) => (width > 0 ? a + ((b - a) * (context - span.from)) / width : a);
}
