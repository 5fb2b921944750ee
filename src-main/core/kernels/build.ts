/**
 * One ONNX model per kernel: a single node, or the few nodes an exporter emits for it. Pure.
 *
 * Weights are initializers where real models hold them as constants: the [K,N] weight of a
 * linear MatMul (B = 1), Gemm's weight and bias, Conv's filter, LayerNormalization's scale and
 * bias, the Gelu/attention scalar constants. That is what the runtime sees in a real model: the
 * weight lives on the device once and the CPU EP may prepack it, so a timing measures the kernel
 * and not a per-run upload. A batched MatMul (B > 1) multiplies two activations, as in
 * attention, so both operands are inputs. `weightsAsInputs` turns the big weights into inputs
 * (small models, or to time the unprepacked path); the scalar constants stay initializers.
 *
 * Inputs are fed on every run; names, dims and dtypes are returned. Opset 17, IR version 8.
 */
import type { Dtype } from '../domain/measurement.js';
import { isChainable, repeatParts, type KernelParts } from './chain.js';
import {
  attr,
  encodeModel,
  OnnxDataType,
  type NodeDef,
  type OnnxDataTypeCode,
  type TensorDef,
  type ValueInfoDef,
} from '../onnx/model-builder.js';
import { castTarget, convOutDims, convPads, poolOutSize, RECURRENT_GATES } from './cost.js';
import { encodeValues, randomBytes } from './fill.js';
import type { KernelOp, KernelSpec } from './types.js';

/** A graph input or output of a built kernel model: its name, dims and dtype (all known). */
export interface KernelTensor {
  name: string;
  dims: number[];
  dtype: Dtype;
}

export interface KernelModel {
  /** The serialized ModelProto. */
  model: Uint8Array;
  /** Graph inputs, fed on every run. */
  inputs: KernelTensor[];
  outputName: string;
  /** The single graph output, with its dims and dtype. */
  output: KernelTensor;
}

export interface BuildOptions {
  /** Big weights (MatMul/Gemm weight and bias, Conv filter) as graph inputs instead of initializers. */
  weightsAsInputs?: boolean;
  /**
   * Copies of the kernel for a differenced timing (chain.ts): a chain when its output can
   * feed it again, else a fan of copies reading the input through Reshape views (a fan of 1
   * keeps its view, like the single model it is compared with). Absent: the kernel alone.
   */
  chain?: number;
  /**
   * End the graph in a one-element Slice of the kernel's output (SINK_NODE), so the kernel writes
   * into ONNX Runtime's own memory as it does inside a model, and the binding hands back one
   * element instead of copying the whole output into a fresh buffer after every run (a copy that
   * evicts the kernel's inputs from the cache before its next run). Not with `chain`.
   */
  sink?: boolean;
}

/** The node that ends a kernel model built with `sink`; its own time is not the kernel's. */
export const SINK_NODE = 'pdjv_sink';

/**
 * Kernels that keep their graph output: ORT rewrites them through a Slice (its transpose optimizer
 * moves a Transpose after the Slice, so the transpose would run on one element; a copy's Identity is
 * removed). The test on ORT's optimized graphs (ort-cpu.test.ts) finds any other.
 */
const UNSINKABLE_OPS: ReadonlySet<KernelOp> = new Set<KernelOp>(['Transpose', 'CopyH2D', 'CopyD2H']);

/** Whether `sink` ends this kernel in a Slice (else it is built as without). */
export const sinkable = (spec: KernelSpec): boolean => !UNSINKABLE_OPS.has(spec.op);

export const ONNX_DTYPE: Record<Dtype, OnnxDataTypeCode> = {
  fp32: OnnxDataType.FLOAT,
  fp16: OnnxDataType.FLOAT16,
  bf16: OnnxDataType.BFLOAT16,
  /** FLOAT8E4M3FN (ONNX 1.14+); a planning dtype: no micro-kernel is built in it. */
  fp8: OnnxDataType.FLOAT8E4M3FN,
  int8: OnnxDataType.INT8,
  int32: OnnxDataType.INT32,
  int64: OnnxDataType.INT64,
};

/** What a kernel's graph is made of, before encoding. */
type Parts = KernelParts;

/** Whether a kernel can be timed by chaining copies of it (chain.ts). */
export function kernelChainable(spec: KernelSpec): boolean {
  return isChainable(kernelParts(spec, true));
}

const OUT = 'Y';

export function buildKernelModel(spec: KernelSpec, opts: BuildOptions = {}): KernelModel {
  const alone = kernelParts(spec, opts.weightsAsInputs ?? false);
  const repeated = opts.chain === undefined ? alone : repeatParts(alone, opts.chain);
  const parts = opts.sink && opts.chain === undefined && sinkable(spec) ? withSink(repeated) : repeated;
  const model = encodeModel({
    graph: {
      name: spec.id,
      nodes: parts.nodes,
      inputs: parts.inputs.map(valueInfo),
      outputs: [valueInfo(parts.output)],
      initializers: parts.initializers,
    },
  });
  return { model, inputs: parts.inputs, outputName: parts.output.name, output: parts.output };
}

/** The kernel's output sliced to its first element (a scalar output stays as it is). */
function withSink(parts: Parts): Parts {
  const rank = parts.output.dims.length;
  if (rank === 0 || parts.output.dims.some((d) => d < 1)) return parts;
  const index = (name: string, v: number): TensorDef => ({
    name,
    dataType: OnnxDataType.INT64,
    dims: [rank],
    rawData: encodeValues('int64', new Array<number>(rank).fill(v)),
  });
  const output: KernelTensor = {
    name: `${OUT}_sink`,
    dims: new Array<number>(rank).fill(1),
    dtype: parts.output.dtype,
  };
  const slice: NodeDef = {
    opType: 'Slice',
    inputs: [parts.output.name, 'sink_starts', 'sink_ends'],
    outputs: [output.name],
    name: SINK_NODE,
    attributes: [],
  };
  return {
    ...parts,
    nodes: [...parts.nodes, slice],
    output,
    initializers: [...parts.initializers, index('sink_starts', 0), index('sink_ends', 1)],
  };
}

function valueInfo(t: KernelTensor): ValueInfoDef {
  return { name: t.name, elemType: ONNX_DTYPE[t.dtype], dims: t.dims };
}

function node(opType: string, inputs: string[], outputs: string[], attributes: NodeDef['attributes'] = []): NodeDef {
  return { opType, inputs, outputs, name: `${opType}_${outputs[0] ?? ''}`, attributes };
}

/** A weight: an initializer with deterministic contents, or a graph input. */
class Weights {
  readonly initializers: TensorDef[] = [];
  readonly inputs: KernelTensor[] = [];
  private seed = 1;
  constructor(private readonly asInputs: boolean) {}

  /** `scale` narrows random float contents to [-scale, scale). */
  add(name: string, dtype: Dtype, dims: number[], values?: number[], scale = 1): string {
    if (this.asInputs && values === undefined) {
      this.inputs.push({ name, dims, dtype });
      return name;
    }
    const count = dims.reduce((a, d) => a * d, 1);
    const rawData = values ? encodeValues(dtype, values) : randomBytes(dtype, count, this.seed++, scale);
    this.initializers.push({ name, dataType: ONNX_DTYPE[dtype], dims, rawData });
    return name;
  }

  /** A scalar constant, always an initializer. */
  scalar(name: string, dtype: Dtype, value: number): string {
    this.initializers.push({ name, dataType: ONNX_DTYPE[dtype], dims: [], rawData: encodeValues(dtype, [value]) });
    return name;
  }
}

/** One kernel's graph under construction: its dims, its fed inputs and its weights. */
class Graph {
  readonly inputs: KernelTensor[] = [];
  readonly w: Weights;
  readonly t: Dtype;
  constructor(
    private readonly spec: KernelSpec,
    weightsAsInputs: boolean,
  ) {
    this.w = new Weights(weightsAsInputs);
    this.t = spec.dtype;
  }

  /** A dim of the shape; throws if absent. */
  s(name: string): number {
    const v = this.spec.shape[name];
    if (v === undefined) throw new RangeError(`${this.spec.id}: shape lacks ${name}`);
    return v;
  }

  /** An optional dim (OP_OPTIONAL_DIMS): 0 when absent. */
  opt(name: string): number {
    return this.spec.shape[name] ?? 0;
  }

  /** A graph input, fed on every run. */
  input(name: string, dims: number[], dtype: Dtype = this.t): string {
    this.inputs.push({ name, dims, dtype });
    return name;
  }

  /** The finished parts: fed inputs first, then weights turned into inputs. */
  parts(nodes: NodeDef[], outDims: number[], outDtype: Dtype = this.t): Parts {
    return {
      nodes,
      inputs: [...this.inputs, ...this.w.inputs],
      output: { name: OUT, dims: outDims, dtype: outDtype },
      initializers: this.w.initializers,
    };
  }
}

type Rule = (spec: KernelSpec, weightsAsInputs: boolean) => Parts;

/** A rule from a function of the kernel's Graph. */
const rule =
  (f: (g: Graph) => Parts): Rule =>
  (spec, weightsAsInputs) =>
    f(new Graph(spec, weightsAsInputs));

const matMul = rule((g) => {
  const [B, M, N, K] = [g.s('B'), g.s('M'), g.s('N'), g.s('K')];
  if (B === 1) {
    // A linear layer: activations [M,K] times a constant weight [K,N]; with `distinct`, that many
    // in a row, each with its own weight (random contents: ORT shares equal initializers), scaled
    // by sqrt(3 / K) so each product keeps its input's variance: 128 in a row neither overflow nor
    // sink into denormals, which would time something else.
    const a = g.input('A', [M, K]);
    const copies = Math.max(1, g.opt('distinct'));
    const scale = copies > 1 ? Math.sqrt(3 / K) : 1;
    const nodes = Array.from({ length: copies }, (_, i) =>
      node(
        'MatMul',
        [i === 0 ? a : `H${i - 1}`, g.w.add(i === 0 ? 'W' : `W${i}`, g.t, [K, N], undefined, scale)],
        [i === copies - 1 ? OUT : `H${i}`],
      ),
    );
    return g.parts(nodes, [M, N]);
  }
  const a = g.input('A', [B, M, K]);
  const copies = g.opt('distinct');
  if (copies > 1) return g.parts(cacheRow(g, a, { B, M, N, K }, copies), [B, M, K]);
  const b = g.input('B', [B, K, N]);
  return g.parts([node('MatMul', [a, b], [OUT])], [B, M, N]);
});

/**
 * A batched row with `distinct`: a decode step's attention over its KV cache layer after layer,
 * the cache past every last-level cache. Products alternate between a K^T [B,K,N] and a V [B,N,K]
 * operand, each its own constant of 3 dims (ONNX Runtime packs only 2-D constant weights when the
 * session is made, so these are read and packed on every run, as a cache fed to a decoder is),
 * each product's output the next one's input; scaled by sqrt(3 / inner) as the linear row is.
 */
function cacheRow(g: Graph, a: string, d: { B: number; M: number; N: number; K: number }, copies: number) {
  return Array.from({ length: copies }, (_, i) => {
    const [inner, outer] = i % 2 === 0 ? [d.K, d.N] : [d.N, d.K];
    const cache = g.w.add(`C${i}`, g.t, [d.B, inner, outer], undefined, Math.sqrt(3 / inner));
    return node('MatMul', [i === 0 ? a : `H${i - 1}`, cache], [i === copies - 1 ? OUT : `H${i}`]);
  });
}

/** As exporters write nn.Linear: weight [N,K] with transB = 1, bias [N]. */
const gemm = rule((g) => {
  const [M, N, K] = [g.s('M'), g.s('N'), g.s('K')];
  const a = g.input('A', [M, K]);
  const inputs = [a, g.w.add('W', g.t, [N, K]), g.w.add('bias', g.t, [N])];
  return g.parts([node('Gemm', inputs, [OUT], [attr.int('transB', 1)])], [M, N]);
});

/**
 * Padding floor(R/2) on every side (none when valid = 1); act = 1 adds a Relu on the conv's
 * output (ORT fuses the pair); d1 = 1 builds a 1-D conv over X [N, C, H]; transpose = 1 a
 * ConvTranspose (W [C, K/groups, R, S], unpadded).
 */
const conv = rule((g) => {
  const [N, C, H, W, K] = [g.s('N'), g.s('C'), g.s('H'), g.s('W'), g.s('K')];
  const [R, S, stride, groups] = [g.s('R'), g.s('S'), g.s('stride'), g.s('groups')];
  const [d1, transpose] = [g.opt('d1') === 1, g.opt('transpose') === 1];
  const shape = { N, C, H, W, K, R, S, stride, valid: g.opt('valid'), transpose: Number(transpose), d1: Number(d1) };
  const [pr, ps] = convPads(shape);
  const [ho, wo] = convOutDims(shape);
  const x = g.input('X', d1 ? [N, C, H] : [N, C, H, W]);
  const [wOut, wIn] = transpose ? [C, K / groups] : [K, C / groups];
  const filter = g.w.add('W', g.t, d1 ? [wOut, wIn, R] : [wOut, wIn, R, S]);
  const act = g.opt('act') === 1;
  const attrs = [
    attr.ints('kernel_shape', d1 ? [R] : [R, S]),
    attr.ints('strides', d1 ? [stride] : [stride, stride]),
    attr.ints('pads', d1 ? [pr, pr] : [pr, ps, pr, ps]),
    attr.ints('dilations', d1 ? [1] : [1, 1]),
    attr.int('group', groups),
  ];
  const nodes = [node(transpose ? 'ConvTranspose' : 'Conv', [x, filter], [act ? 'conv' : OUT], attrs)];
  if (act) nodes.push(node('Relu', ['conv'], [OUT]));
  return g.parts(nodes, d1 ? [N, K, ho] : [N, K, ho, wo]);
});

/** Constants of a scalar operand: HardSwish's x + 3, a scale that keeps a 5-copy chain in range. */
const SCALAR_OPERAND = { Add: 3, Mul: 1.25 } as const;

/** A + B of two full tensors, or x + c with a scalar constant c (scalar = 1). */
const binary = (op: 'Add' | 'Mul'): Rule =>
  rule((g) => {
    const n = g.s('n');
    const a = g.input('A', [n]);
    const b = g.opt('scalar') === 1 ? g.w.scalar('c', g.t, SCALAR_OPERAND[op]) : g.input('B', [n]);
    return g.parts([node(op, [a, b], [OUT])], [n]);
  });

const unary = (op: 'Relu' | 'Sigmoid'): Rule =>
  rule((g) => {
    const n = g.s('n');
    return g.parts([node(op, [g.input('X', [n])], [OUT])], [n]);
  });

/** Unary elementwise ops with their ONNX defaults (LeakyRelu alpha 0.01, HardSigmoid 0.2x + 0.5). */
const UNARY_OPS = ['Sqrt', 'Exp', 'Log', 'Tanh', 'Erf', 'HardSigmoid', 'HardSwish', 'LeakyRelu', 'Softplus'] as const;
const plainUnary = (op: (typeof UNARY_OPS)[number]): Rule =>
  rule((g) => {
    const n = g.s('n');
    return g.parts([node(op, [g.input('X', [n])], [OUT])], [n]);
  });

/** x / 6 and x ^ 2: a scalar divisor or exponent, the form models use (HardSwish's / 6, a variance's square). */
const withScalar = (op: 'Div' | 'Pow', value: number): Rule =>
  rule((g) => {
    const n = g.s('n');
    return g.parts([node(op, [g.input('X', [n]), g.w.scalar('s', g.t, value)], [OUT])], [n]);
  });

/** Relu6 as exporters write it (opset 11+: min and max are inputs). */
const clip = rule((g) => {
  const n = g.s('n');
  const inputs = [g.input('X', [n]), g.w.scalar('min', g.t, 0), g.w.scalar('max', g.t, 6)];
  return g.parts([node('Clip', inputs, [OUT])], [n]);
});

/** Erf form, as exporters emit it (the Gelu op needs opset 20): x * 0.5 * (1 + erf(x / sqrt 2)). */
const gelu = rule((g) => {
  const n = g.s('n');
  const x = g.input('X', [n]);
  const nodes = [
    node('Div', [x, g.w.scalar('sqrt2', g.t, Math.SQRT2)], ['scaled']),
    node('Erf', ['scaled'], ['erf']),
    node('Add', ['erf', g.w.scalar('one', g.t, 1)], ['erf_plus_1']),
    node('Mul', [x, 'erf_plus_1'], ['x_times']),
    node('Mul', ['x_times', g.w.scalar('half', g.t, 0.5)], [OUT]),
  ];
  return g.parts(nodes, [n]);
});

/** Opset 13+: axes is an input. Reduces the last axis, keepdims = 0. */
const reduceSum = rule((g) => {
  const [rows, cols] = [g.s('rows'), g.s('cols')];
  const axes = g.w.add('axes', 'int64', [1], [-1]);
  return g.parts([node('ReduceSum', [g.input('X', [rows, cols]), axes], [OUT], [attr.int('keepdims', 0)])], [rows]);
});

/** Opset 17: axes is still an attribute (an input from opset 18). */
const reduceMean = rule((g) => {
  const [rows, cols] = [g.s('rows'), g.s('cols')];
  const x = g.input('X', [rows, cols]);
  return g.parts([node('ReduceMean', [x], [OUT], [attr.ints('axes', [-1]), attr.int('keepdims', 0)])], [rows]);
});

const softmax = rule((g) => {
  const [rows, cols] = [g.s('rows'), g.s('cols')];
  return g.parts([node('Softmax', [g.input('X', [rows, cols])], [OUT], [attr.int('axis', -1)])], [rows, cols]);
});

/** Scale 1 and bias 0, as a freshly initialized layer: the output has mean 0 and variance 1. */
const layerNorm = rule((g) => {
  const [rows, cols] = [g.s('rows'), g.s('cols')];
  const x = g.input('X', [rows, cols]);
  const scale = g.w.add('scale', g.t, [cols], new Array<number>(cols).fill(1));
  const bias = g.w.add('bias', g.t, [cols], new Array<number>(cols).fill(0));
  const attrs = [attr.int('axis', -1), attr.float('epsilon', 1e-5)];
  return g.parts([node('LayerNormalization', [x, scale, bias], [OUT], attrs)], [rows, cols]);
});

/**
 * A residual Add then LayerNormalization, as exporters write a transformer's post-norm, on
 * X and the skip S of [1, rows, cols]. ONNX Runtime's CPU and CUDA EPs fuse the pair into
 * com.microsoft SkipLayerNormalization (the fusion wants 3-D operands of one shape), a kernel
 * of its own: on the CPU EP (ORT 1.30, Zen 4) it took 11x LayerNormalization's time per
 * element. Other EPs run the two nodes, as they would in the user's model.
 */
const skipLayerNorm = rule((g) => {
  const [rows, cols] = [g.s('rows'), g.s('cols')];
  const x = g.input('X', [1, rows, cols]);
  const skip = g.input('S', [1, rows, cols]);
  const scale = g.w.add('scale', g.t, [cols], new Array<number>(cols).fill(1));
  const bias = g.w.add('bias', g.t, [cols], new Array<number>(cols).fill(0));
  const attrs = [attr.int('axis', -1), attr.float('epsilon', 1e-5)];
  const nodes = [node('Add', [x, skip], ['sum']), node('LayerNormalization', ['sum', scale, bias], [OUT], attrs)];
  return g.parts(nodes, [1, rows, cols]);
});

/**
 * softmax(Q K^T / sqrt(d)) V with heads as a batch dim. K is fed already transposed
 * ([batch,heads,headDim,seq]), so no Transpose node is timed.
 */
const attention = rule((g) => {
  const [b, h, sq, d] = [g.s('batch'), g.s('heads'), g.s('seq'), g.s('headDim')];
  const q = g.input('Q', [b, h, sq, d]);
  const kt = g.input('KT', [b, h, d, sq]);
  const v = g.input('V', [b, h, sq, d]);
  const nodes = [
    node('MatMul', [q, kt], ['scores']),
    node('Mul', ['scores', g.w.scalar('scale', g.t, 1 / Math.sqrt(d))], ['scaled']),
    node('Softmax', ['scaled'], ['probs'], [attr.int('axis', -1)]),
    node('MatMul', ['probs', v], [OUT]),
  ];
  return g.parts(nodes, [b, h, sq, d]);
});

const transpose = rule((g) => {
  const [rows, cols] = [g.s('rows'), g.s('cols')];
  return g.parts([node('Transpose', [g.input('X', [rows, cols])], [OUT], [attr.ints('perm', [1, 0])])], [cols, rows]);
});

const cast = rule((g) => {
  const n = g.s('n');
  const to = castTarget(g.t);
  return g.parts([node('Cast', [g.input('X', [n])], [OUT], [attr.int('to', ONNX_DTYPE[to])])], [n], to);
});

/** Identity: where the input and output live (host or device) is the runner's binding. */
const copy = rule((g) => {
  const n = g.s('n');
  return g.parts([node('Identity', [g.input('X', [n])], [OUT])], [n]);
});

/**
 * X [N,C,H,W], a square R x R window with the same stride on both axes and floor((R-1)/2)
 * padding on every side (cost.ts poolOutSize); AveragePool leaves the padding out of the
 * divisor (count_include_pad = 0, the ONNX default).
 */
const pool = (op: 'MaxPool' | 'AveragePool'): Rule =>
  rule((g) => {
    const [N, C, H, W, R, stride] = [g.s('N'), g.s('C'), g.s('H'), g.s('W'), g.s('R'), g.s('stride')];
    const p = Math.floor((R - 1) / 2);
    const attrs = [
      attr.ints('kernel_shape', [R, R]),
      attr.ints('strides', [stride, stride]),
      attr.ints('pads', [p, p, p, p]),
    ];
    const out = [N, C, poolOutSize(H, R, stride), poolOutSize(W, R, stride)];
    return g.parts([node(op, [g.input('X', [N, C, H, W])], [OUT], attrs)], out);
  });

/** X [N,C,H,W] to Y [N,C,1,1]. */
const globalAveragePool = rule((g) => {
  const [N, C, H, W] = [g.s('N'), g.s('C'), g.s('H'), g.s('W')];
  return g.parts([node('GlobalAveragePool', [g.input('X', [N, C, H, W])], [OUT])], [N, C, 1, 1]);
});

/**
 * `parts` inputs X0, X1, ... of [rows, cols/parts] joined on axis 1 into [rows, cols]. rows is
 * the product of the dims before the concat axis, cols/parts the elements each input holds
 * from it on: a channel concat of NCHW maps {N: 1, ...} to rows 1, cols C*H*W.
 */
const concat = rule((g) => {
  const [rows, cols, parts] = [g.s('rows'), g.s('cols'), g.s('parts')];
  const xs = Array.from({ length: parts }, (_, i) => g.input(`X${i}`, [rows, cols / parts]));
  return g.parts([node('Concat', xs, [OUT], [attr.int('axis', 1)])], [rows, cols]);
});

/**
 * Nearest-neighbour upsampling of X [N,C,H,W] by an integer scale on H and W, as PyTorch exports
 * F.interpolate(scale_factor): scales [1,1,scale,scale] (float), asymmetric coordinates,
 * nearest_mode floor, so Y[.., y, x] = X[.., floor(y/scale), floor(x/scale)].
 */
const resize = rule((g) => {
  const [N, C, H, W, scale] = [g.s('N'), g.s('C'), g.s('H'), g.s('W'), g.s('scale')];
  const x = g.input('X', [N, C, H, W]);
  const scales = g.w.add('scales', 'fp32', [4], [1, 1, scale, scale]);
  const attrs = [
    attr.string('mode', 'nearest'),
    attr.string('coordinate_transformation_mode', 'asymmetric'),
    attr.string('nearest_mode', 'floor'),
  ];
  return g.parts([node('Resize', [x, '', scales], [OUT], attrs)], [N, C, H * scale, W * scale]);
});

/**
 * One direction of an LSTM or GRU over X [seq, batch, input], as a streaming model steps it:
 * the state comes in as initial_h [1, batch, hidden] (the data input) and goes out as Y_h of
 * the same shape, so a chain passes the state from copy to copy and every copy reads the same
 * X. Y (every step's h) is written too, as exported models use it. W, R and B are constant
 * weights; initial_c is omitted (zeros). A GRU has linear_before_reset = 1, as PyTorch exports it.
 */
const recurrent = (op: 'LSTM' | 'GRU'): Rule =>
  rule((g) => {
    const [seq, batch, input, hidden] = [g.s('seq'), g.s('batch'), g.s('input'), g.s('hidden')];
    const { gates } = RECURRENT_GATES[op];
    const h0 = g.input('H0', [1, batch, hidden]);
    const x = g.input('X', [seq, batch, input]);
    const w = g.w.add('W', g.t, [1, gates * hidden, input]);
    const r = g.w.add('R', g.t, [1, gates * hidden, hidden]);
    const b = g.w.add('B', g.t, [1, 2 * gates * hidden]);
    const attrs = [attr.int('hidden_size', hidden), ...(op === 'GRU' ? [attr.int('linear_before_reset', 1)] : [])];
    return g.parts([node(op, [x, w, r, b, '', h0], ['Y_steps', OUT], attrs)], [1, batch, hidden]);
  });

/** Reorders are timed inside the NCHWc kernels ORT wraps with them (types.ts TIMED_INSIDE_OPS). */
const timedInside: Rule = (spec) => {
  throw new RangeError(`${spec.op} is timed inside the NCHWc convs and pools ORT wraps with it; it is not built alone`);
};

const RULES: Record<KernelOp, Rule> = {
  MatMul: matMul,
  Gemm: gemm,
  Conv: conv,
  Add: binary('Add'),
  Mul: binary('Mul'),
  Relu: unary('Relu'),
  Gelu: gelu,
  Sigmoid: unary('Sigmoid'),
  ReduceSum: reduceSum,
  ReduceMean: reduceMean,
  Softmax: softmax,
  LayerNormalization: layerNorm,
  SkipLayerNormalization: skipLayerNorm,
  Attention: attention,
  Transpose: transpose,
  Cast: cast,
  CopyH2D: copy,
  CopyD2H: copy,
  MaxPool: pool('MaxPool'),
  AveragePool: pool('AveragePool'),
  GlobalAveragePool: globalAveragePool,
  Concat: concat,
  Resize: resize,
  Div: withScalar('Div', 6),
  Pow: withScalar('Pow', 2),
  Clip: clip,
  ReorderInput: timedInside,
  ReorderOutput: timedInside,
  LSTM: recurrent('LSTM'),
  GRU: recurrent('GRU'),
  ...(Object.fromEntries(UNARY_OPS.map((op) => [op, plainUnary(op)])) as Record<(typeof UNARY_OPS)[number], Rule>),
};

function kernelParts(spec: KernelSpec, weightsAsInputs: boolean): Parts {
  return RULES[spec.op](spec, weightsAsInputs);
}
