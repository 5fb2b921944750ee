/**
 * What a shape rule sees of a node: its inputs' shapes, types and known values, its attributes
 * and the opset; and the helpers rules share (broadcasting, axis handling). Pure.
 */
import { SMALL_TENSOR_ELEMENTS, type OnnxAttribute, type OnnxNode } from '../onnx/onnx-parser.js';

/** What shape inference knows about one tensor of a workload's graph (dims and dtype may be unknown). */
export interface InferredTensor {
  /** Static dims; null when unknown (data-dependent, or an unsupported op upstream). */
  dims: number[] | null;
  /** TensorProto.DataType code; 0 when unknown. */
  dtype: number;
  /** Row-major values, when known and small (constants, shapes folded from Shape chains). */
  value?: number[];
  /** Weights and constants: initializers and Constant-node outputs (not activations). */
  constant?: boolean;
}

/** Thrown by a rule whose outputs cannot be known statically; the message says why. */
export class ShapeUnknown extends Error {
  constructor(
    message: string,
    /** True when an input was already unknown: the cause was reported upstream. */
    readonly propagated = false,
  ) {
    super(message);
    this.name = 'ShapeUnknown';
  }
}

/** A shape rule: the outputs' infos, in output order (missing trailing ones are unknown). */
export type ShapeRule = (c: NodeContext) => InferredTensor[];

export const product = (dims: readonly number[]): number => dims.reduce((a, d) => a * d, 1);

export class NodeContext {
  constructor(
    readonly node: OnnxNode,
    /** The default-domain opset. */
    readonly opset: number,
    private readonly infos: readonly (InferredTensor | undefined)[],
  ) {}

  get opType(): string {
    return this.node.opType;
  }

  get inputCount(): number {
    return this.node.inputs.length;
  }

  /** Whether input i is given (not omitted with ''). */
  has(i: number): boolean {
    return (this.node.inputs[i] ?? '') !== '';
  }

  info(i: number): InferredTensor {
    const t = this.infos[i];
    if (!this.has(i) || !t) throw new ShapeUnknown(`input ${i} is missing`);
    return t;
  }

  /** Input i's dims; throws ShapeUnknown (propagated) when they are unknown. */
  dims(i: number): number[] {
    const d = this.info(i).dims;
    if (!d) throw new ShapeUnknown(`input ${this.node.inputs[i]} has an unknown shape`, true);
    return d;
  }

  dtype(i: number): number {
    return this.has(i) ? (this.infos[i]?.dtype ?? 0) : 0;
  }

  /** Input i's values when known (a constant or a folded shape), else undefined. */
  value(i: number): number[] | undefined {
    return this.has(i) ? this.infos[i]?.value : undefined;
  }

  /** Input i's values; throws ShapeUnknown when they are not known statically. */
  needValue(i: number, what: string): number[] {
    const v = this.value(i);
    if (v) return v;
    const t = this.has(i) ? this.infos[i] : undefined;
    const upstream = !t || t.dims === null;
    throw new ShapeUnknown(`${what} (${this.node.inputs[i] ?? '?'}) is not a constant`, upstream);
  }

  attr(name: string): OnnxAttribute | undefined {
    return this.node.attributes.get(name);
  }

  int(name: string, fallback: number): number {
    const a = this.attr(name);
    return a?.type === 'INT' ? a.value : fallback;
  }

  ints(name: string): number[] | undefined {
    const a = this.attr(name);
    return a?.type === 'INTS' ? a.value : undefined;
  }

  float(name: string, fallback: number): number {
    const a = this.attr(name);
    return a?.type === 'FLOAT' ? a.value : fallback;
  }

  floats(name: string): number[] | undefined {
    const a = this.attr(name);
    return a?.type === 'FLOATS' ? a.value : undefined;
  }

  string(name: string, fallback: string): string {
    const a = this.attr(name);
    return a?.type === 'STRING' ? a.value : fallback;
  }

  /** Axes from input `inputIndex` (newer opsets) or the attribute (older): null when neither is given. */
  axes(inputIndex: number, attrName = 'axes'): number[] | null {
    if (this.has(inputIndex)) return this.needValue(inputIndex, 'axes');
    return this.ints(attrName) ?? null;
  }
}

/** An info with the given dims and type, and its values when they are few enough to keep. */
export function tensor(dims: number[], dtype: number, value?: number[]): InferredTensor {
  if (dims.some((d) => !Number.isSafeInteger(d) || d < 0))
    throw new ShapeUnknown(`computed an invalid shape [${dims}]`);
  const t: InferredTensor = { dims, dtype };
  if (value && value.length === product(dims) && value.length <= SMALL_TENSOR_ELEMENTS) t.value = value;
  return t;
}

/** A negative axis counted from the end; throws when outside [-rank, rank). */
export function normAxis(axis: number, rank: number): number {
  const a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) throw new ShapeUnknown(`axis ${axis} is out of range for rank ${rank}`);
  return a;
}

/** Numpy broadcasting of any number of shapes; throws ShapeUnknown on incompatible dims. */
export function broadcast(shapes: readonly (readonly number[])[]): number[] {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array<number>(rank).fill(1);
  for (const s of shapes) {
    const off = rank - s.length;
    s.forEach((d, i) => {
      const cur = out[off + i] ?? 1;
      if (d === cur || d === 1) return;
      if (cur === 1) out[off + i] = d;
      else throw new ShapeUnknown(`shapes [${shapes.map((x) => x.join(',')).join('] and [')}] do not broadcast`);
    });
  }
  return out;
}

/** Index into a broadcast input's values for each output position (row-major). */
export function broadcastIndex(outDims: readonly number[], inDims: readonly number[]): (flat: number) => number {
  const rank = outDims.length;
  const off = rank - inDims.length;
  const inStrides: number[] = new Array<number>(rank).fill(0);
  let stride = 1;
  for (let i = inDims.length - 1; i >= 0; i--) {
    const d = inDims[i] ?? 1;
    inStrides[off + i] = d === 1 ? 0 : stride;
    stride *= d;
  }
  return (flat: number): number => {
    let idx = 0;
    let rest = flat;
    for (let i = rank - 1; i >= 0; i--) {
      const d = outDims[i] ?? 1;
      idx += (rest % d) * (inStrides[i] ?? 0);
      rest = Math.floor(rest / d);
    }
    return idx;
  };
}
