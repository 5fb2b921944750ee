/**
 * A kernel's graph repeated as a chain: copy i reads copy i-1's output where the single
 * kernel reads its data input, and every copy shares the other inputs and the weights.
 * Timed without profiling, (T(copies) - T(1)) / (copies - 1) is the time one more such
 * node adds to a run: its kernel plus the executor's per-node cost, without the per-run
 * cost, the binding's input and output copies or the final synchronization. The same
 * method works on CPUs and GPUs (intermediates stay on the device).
 *
 * Two forms (chainForm):
 * - 'chain': the kernel's output has the shape and type of its data input, so copy i reads
 *   copy i-1's output (elementwise ops, softmax, layer norm, attention, square GEMMs,
 *   same-channel stride-1 convs).
 * - 'fan', for every other kernel (GEMM M x K -> M x N, convs that change channels or size,
 *   reductions, pools, transposes, casts, concats, resizes): K independent copies all read
 *   the same device-resident data input, each through its own Reshape view (a different
 *   but equivalent target shape: [0, -1], [-1, 0], the literal dims...). A Reshape aliases
 *   its input, so no data moves; the distinct views keep ONNX Runtime's common-subexpression
 *   elimination from merging the copies into one (identical nodes on identical inputs are
 *   merged; measured on ORT 1.30's CPU EP). Only the last copy writes the graph output; the
 *   others' outputs are left unconsumed, which ORT keeps and runs (measured too), so no
 *   combining node costs time per copy and only one output is copied back. The weights and
 *   the other inputs are shared by every copy (as a chain of square GEMMs shares its weight).
 *   The single-copy model of a fan has its Reshape view too, so the difference per copy is
 *   the kernel plus one Reshape node's executor cost (no kernel launch: a view).
 *   A fan runs its copies one after another on a GPU stream and in a sequential CPU
 *   executor; on a CPU with a parallel executor they could overlap (the profiler runs
 *   sequentially). A rank-1 data input has only three equivalent views ([-1], [0], [n]);
 *   further copies view it as [1, n], [n, 1], ...: only elementwise kernels (Cast) have
 *   rank-1 data inputs and are not chainable, and for them rank does not matter.
 *   On the CPU EP a fan is only a stand-in for tests: ORT's NCHWc layout gives a lone conv a
 *   ReorderOutput that the unconsumed copies do not need, so CPU kernels keep their own mix
 *   (services/profile/kernel-timing.ts chainCopies).
 * Pure.
 */
import type { NodeDef, TensorDef } from '../onnx/model-builder.js';
import { OnnxDataType } from '../onnx/model-builder.js';
import type { KernelTensor } from './build.js';

export interface KernelParts {
  nodes: NodeDef[];
  inputs: KernelTensor[];
  output: KernelTensor;
  initializers: TensorDef[];
}

/** Copies in a chained timing model. */
export const CHAIN_COPIES = 5;

/**
 * True when the output can feed the kernel again: same dims and type as the first (data)
 * input, and no copy's last node meets the next copy's first in a pair ONNX Runtime merges.
 */
export function isChainable(parts: KernelParts): boolean {
  const data = parts.inputs[0];
  if (!data || data.dtype !== parts.output.dtype) return false;
  const sameShape =
    data.dims.length === parts.output.dims.length && data.dims.every((d, i) => d === parts.output.dims[i]);
  return sameShape && !mergesAcrossCopies(parts, data.name);
}

/**
 * Ops that ONNX Runtime's optimizer merges when one feeds another: consecutive Transposes
 * become one (inverse pairs cancel), so a chain of square transposes would time one node or
 * none (measured on ORT 1.30's CPU EP: three chained 1000x1000 Transposes ran as one).
 */
const MERGED_WHEN_CONSECUTIVE = new Set(['Transpose']);

function mergesAcrossCopies(parts: KernelParts, data: string): boolean {
  const last = parts.nodes.find((n) => n.outputs.includes(parts.output.name));
  const first = parts.nodes.filter((n) => n.inputs.includes(data));
  return last !== undefined && MERGED_WHEN_CONSECUTIVE.has(last.opType) && first.some((n) => n.opType === last.opType);
}

export type ChainForm = 'chain' | 'fan';

/** How copies of a kernel are put together for a differenced timing (see the file comment). */
function chainForm(parts: KernelParts): ChainForm {
  return isChainable(parts) ? 'chain' : 'fan';
}

/** Copies of the kernel for differencing, in its form: chainParts or fanParts. */
export function repeatParts(parts: KernelParts, copies: number): KernelParts {
  return chainForm(parts) === 'chain' ? chainParts(parts, copies) : fanParts(parts, copies);
}

/** Copy `c` of the kernel's nodes: names suffixed _c`c`, tensors renamed (an empty optional input stays empty). */
function copyNodes(nodes: readonly NodeDef[], c: number, rename: (tensor: string) => string): NodeDef[] {
  return nodes.map((n) => ({
    ...n,
    name: `${n.name ?? n.opType}_c${c}`,
    inputs: n.inputs.map((t) => (t === '' ? t : rename(t))),
    outputs: n.outputs.map(rename),
  }));
}

/** `copies` copies of the kernel in a chain; the last copy writes the original output. */
export function chainParts(parts: KernelParts, copies: number): KernelParts {
  if (!Number.isInteger(copies) || copies < 1) throw new RangeError(`copies must be a positive integer, got ${copies}`);
  if (copies === 1) return parts;
  if (!isChainable(parts))
    throw new RangeError('this kernel cannot be chained: its output is not shaped like its input');
  const data = (parts.inputs[0] as KernelTensor).name;
  const produced = new Set(parts.nodes.flatMap((n) => n.outputs));
  const nodes: NodeDef[] = [];
  for (let c = 0; c < copies; c++) {
    const last = c === copies - 1;
    const rename = (t: string): string => {
      if (t === data && c > 0) return `${parts.output.name}_c${c - 1}`;
      if (t === parts.output.name && !last) return `${t}_c${c}`;
      if (produced.has(t) && t !== parts.output.name) return `${t}_c${c}`;
      return t;
    };
    nodes.push(...copyNodes(parts.nodes, c, rename));
  }
  return { ...parts, nodes };
}

/**
 * Distinct shapes equivalent to `dims` for Reshape (0 copies a dim, -1 infers one); the
 * literal dims first, then the other same-rank forms, then (rank 1 only) higher ranks.
 */
export function viewShapes(dims: number[], count: number): number[][] {
  const out: number[][] = [];
  const seen = new Set<string>();
  const add = (s: number[]): void => {
    const key = s.join(',');
    if (!seen.has(key) && out.length < count) {
      seen.add(key);
      out.push(s);
    }
  };
  add(dims);
  const r = dims.length;
  for (let mask = 0; mask < 2 ** r && out.length < count; mask++) {
    const zeros = dims.map((d, i) => ((mask >> i) & 1 ? 0 : d));
    add(zeros);
    for (let i = 0; i < r; i++) add(zeros.map((d, j) => (j === i ? -1 : d)));
  }
  const total = dims.reduce((a, d) => a * d, 1);
  for (let extra = 1; out.length < count; extra++) {
    if (r !== 1) throw new RangeError(`no ${count} distinct views of a [${dims.join(',')}] input`);
    add([...Array<number>(extra).fill(1), -1]);
    add([-1, ...Array<number>(extra).fill(1)]);
    if (extra > 64) throw new RangeError(`no ${count} distinct views of a [${total}] input`);
  }
  return out;
}

function int64Bytes(values: number[]): Uint8Array {
  const view = new DataView(new ArrayBuffer(values.length * 8));
  values.forEach((v, i) => view.setBigInt64(i * 8, BigInt(v), true));
  return new Uint8Array(view.buffer);
}

/**
 * `copies` independent copies of the kernel, each reading the data input through its own
 * Reshape view; the last copy writes the original output, the others' outputs are unused.
 */
export function fanParts(parts: KernelParts, copies: number): KernelParts {
  if (!Number.isInteger(copies) || copies < 1) throw new RangeError(`copies must be a positive integer, got ${copies}`);
  const data = parts.inputs[0];
  if (!data) throw new RangeError('this kernel has no data input to fan out from');
  const produced = new Set(parts.nodes.flatMap((n) => n.outputs));
  const views = viewShapes(data.dims, copies);
  const nodes: NodeDef[] = [];
  const initializers: TensorDef[] = [...parts.initializers];
  for (let c = 0; c < copies; c++) {
    const last = c === copies - 1;
    const shape = views[copies - 1 - c] as number[];
    const shapeName = `fan_shape_c${c}`;
    const view = `${data.name}_view_c${c}`;
    initializers.push({
      name: shapeName,
      dataType: OnnxDataType.INT64,
      dims: [shape.length],
      rawData: int64Bytes(shape),
    });
    nodes.push({ opType: 'Reshape', name: `Reshape_view_c${c}`, inputs: [data.name, shapeName], outputs: [view] });
    const rename = (t: string): string => {
      if (t === data.name) return view;
      if (t === parts.output.name) return last ? t : `${t}_c${c}`;
      return produced.has(t) ? `${t}_c${c}` : t;
    };
    nodes.push(...copyNodes(parts.nodes, c, rename));
  }
  return { ...parts, nodes, initializers };
}
