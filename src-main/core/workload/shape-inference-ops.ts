/**
 * Shape rules of elementwise ops and of ops that move or reshape data (Reshape, Transpose,
 * Concat, Slice, Gather...), with constant folding of the small integer tensors exporters
 * compute shapes with (Shape -> Gather -> Unsqueeze -> Concat -> Reshape). Pure.
 */
import { DataType, isIntegerType } from '../onnx/onnx-parser.js';
import {
  broadcast,
  broadcastIndex,
  normAxis,
  product,
  ShapeUnknown,
  tensor,
  type ShapeRule,
  type InferredTensor,
} from './shape-inference-context.js';

/** Output i keeps input 0's shape and type (and `dtype` when given). */
const same =
  (dtype?: number): ShapeRule =>
  (c) => [tensor(c.dims(0), dtype ?? c.dtype(0))];

const UNARY_FOLD: Record<string, (x: number) => number> = {
  Identity: (x) => x,
  Neg: (x) => -x,
  Abs: Math.abs,
  Floor: Math.floor,
  Ceil: Math.ceil,
  Round: (x) => {
    const r = Math.round(x);
    return Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : r;
  },
  Sqrt: Math.sqrt,
  Exp: Math.exp,
  Log: Math.log,
  Reciprocal: (x) => 1 / x,
  Relu: (x) => Math.max(0, x),
  Sign: Math.sign,
  Not: (x) => (x ? 0 : 1),
};

/** Unary elementwise: same shape and type; folds values for the ops in UNARY_FOLD. */
function unary(op: string): ShapeRule {
  const f = UNARY_FOLD[op];
  return (c) => {
    const v = c.value(0);
    return [tensor(c.dims(0), c.dtype(0), f && v ? v.map(f) : undefined)];
  };
}

const intDiv = (a: number, b: number): number => (b === 0 ? 0 : Math.trunc(a / b));

const BINARY_FOLD: Record<string, (a: number, b: number, integer: boolean) => number> = {
  Add: (a, b) => a + b,
  Sub: (a, b) => a - b,
  Mul: (a, b) => a * b,
  Div: (a, b, integer) => (integer ? intDiv(a, b) : a / b),
  Mod: (a, b) => (b === 0 ? 0 : a - b * Math.floor(a / b)),
  Pow: (a, b) => a ** b,
  Max: (a, b) => Math.max(a, b),
  Min: (a, b) => Math.min(a, b),
  Sum: (a, b) => a + b,
  Equal: (a, b) => (a === b ? 1 : 0),
  Less: (a, b) => (a < b ? 1 : 0),
  LessOrEqual: (a, b) => (a <= b ? 1 : 0),
  Greater: (a, b) => (a > b ? 1 : 0),
  GreaterOrEqual: (a, b) => (a >= b ? 1 : 0),
  And: (a, b) => (a && b ? 1 : 0),
  Or: (a, b) => (a || b ? 1 : 0),
  Xor: (a, b) => ((a ? 1 : 0) ^ (b ? 1 : 0) ? 1 : 0),
};

const COMPARISONS = new Set(['Equal', 'Less', 'LessOrEqual', 'Greater', 'GreaterOrEqual', 'And', 'Or', 'Xor']);

/** Numpy-broadcasting n-ary op (Add, Mul, Max, Sum...); comparisons give bool. */
function broadcastOp(op: string): ShapeRule {
  const f = BINARY_FOLD[op];
  return (c) => {
    const shapes = c.node.inputs.map((_, i) => c.dims(i));
    const dims = broadcast(shapes);
    const dtype = COMPARISONS.has(op) ? DataType.BOOL : c.dtype(0);
    const values = c.node.inputs.map((_, i) => c.value(i));
    let value: number[] | undefined;
    if (f && values.every((v) => v !== undefined) && product(dims) <= 4096) {
      const n = product(dims);
      const idx = shapes.map((s) => broadcastIndex(dims, s));
      const integer = isIntegerType(c.dtype(0));
      value = new Array<number>(n);
      for (let k = 0; k < n; k++) {
        let acc = values[0]?.[idx[0]?.(k) ?? 0] ?? 0;
        for (let i = 1; i < values.length; i++) acc = f(acc, values[i]?.[idx[i]?.(k) ?? 0] ?? 0, integer);
        value[k] = acc;
      }
    }
    return [tensor(dims, dtype, value)];
  };
}

const where: ShapeRule = (c) => {
  const shapes = [c.dims(0), c.dims(1), c.dims(2)];
  const dims = broadcast(shapes);
  const [cond, x, y] = [c.value(0), c.value(1), c.value(2)];
  let value: number[] | undefined;
  if (cond && x && y && product(dims) <= 4096) {
    const idx = shapes.map((s) => broadcastIndex(dims, s));
    value = Array.from({ length: product(dims) }, (_, k) =>
      cond[idx[0]?.(k) ?? 0] ? (x[idx[1]?.(k) ?? 0] ?? 0) : (y[idx[2]?.(k) ?? 0] ?? 0),
    );
  }
  return [tensor(dims, c.dtype(1), value)];
};

const cast: ShapeRule = (c) => {
  const to = c.opType === 'CastLike' ? c.dtype(1) : c.int('to', c.dtype(0));
  const v = c.value(0);
  const conv = isIntegerType(to)
    ? (x: number): number => (to === DataType.BOOL ? (x ? 1 : 0) : Math.trunc(x))
    : undefined;
  return [tensor(c.dims(0), to, v ? (conv ? v.map(conv) : v) : undefined)];
};

/** Reshape: 0 copies the input dim (unless allowzero), -1 takes what is left. */
const reshape: ShapeRule = (c) => {
  const input = c.dims(0);
  const spec = c.needValue(1, 'the target shape');
  const allowZero = c.int('allowzero', 0) === 1;
  const dims = spec.map((d, i) => (d === 0 && !allowZero ? (input[i] ?? 0) : d));
  const minus = dims.indexOf(-1);
  if (minus >= 0) {
    const known = product(dims.filter((_, i) => i !== minus));
    if (known === 0) throw new ShapeUnknown(`Reshape -1 with a zero-sized shape [${spec}]`);
    dims[minus] = product(input) / known;
  }
  if (product(dims) !== product(input)) {
    throw new ShapeUnknown(`Reshape of [${input}] (${product(input)} elements) to [${spec}] does not fit`);
  }
  return [tensor(dims, c.dtype(0), c.value(0))];
};

const flatten: ShapeRule = (c) => {
  const d = c.dims(0);
  const axis = c.int('axis', 1);
  const a = axis < 0 ? axis + d.length : axis;
  return [tensor([product(d.slice(0, a)), product(d.slice(a))], c.dtype(0), c.value(0))];
};

function transposeValues(v: number[], dims: number[], perm: number[]): number[] {
  const outDims = perm.map((p) => dims[p] ?? 1);
  const strides = dims.map((_, i) => product(dims.slice(i + 1)));
  const out = new Array<number>(v.length);
  for (let k = 0; k < v.length; k++) {
    let rest = k;
    let src = 0;
    for (let i = outDims.length - 1; i >= 0; i--) {
      const d = outDims[i] ?? 1;
      src += (rest % d) * (strides[perm[i] ?? 0] ?? 0);
      rest = Math.floor(rest / d);
    }
    out[k] = v[src] ?? 0;
  }
  return out;
}

const transpose: ShapeRule = (c) => {
  const d = c.dims(0);
  const perm = c.ints('perm') ?? d.map((_, i) => d.length - 1 - i);
  if (perm.length !== d.length) throw new ShapeUnknown(`Transpose perm [${perm}] for rank ${d.length}`);
  const v = c.value(0);
  return [
    tensor(
      perm.map((p) => d[p] ?? 0),
      c.dtype(0),
      v ? transposeValues(v, d, perm) : undefined,
    ),
  ];
};

const concat: ShapeRule = (c) => {
  const shapes = c.node.inputs.map((_, i) => c.dims(i)).filter((_, i) => c.has(i));
  const first = shapes[0];
  if (!first) throw new ShapeUnknown('Concat of nothing');
  const axis = normAxis(c.int('axis', 0), first.length);
  const dims = [...first];
  dims[axis] = shapes.reduce((a, s) => a + (s[axis] ?? 0), 0);
  const values = c.node.inputs.map((_, i) => c.value(i)).filter((_, i) => c.has(i));
  let value: number[] | undefined;
  if (values.every((v) => v !== undefined)) {
    const outer = product(first.slice(0, axis));
    value = [];
    for (let o = 0; o < outer; o++) {
      shapes.forEach((s, i) => {
        const chunk = product(s.slice(axis));
        value?.push(...(values[i] ?? []).slice(o * chunk, (o + 1) * chunk));
      });
    }
  }
  return [tensor(dims, c.dtype(0), value)];
};

const split: ShapeRule = (c) => {
  const d = c.dims(0);
  const axis = normAxis(c.int('axis', 0), d.length);
  const dim = d[axis] ?? 0;
  const outs = c.node.outputs.length;
  let sizes: number[];
  if (c.has(1)) sizes = c.needValue(1, 'split sizes');
  else if (c.ints('split')) sizes = c.ints('split') ?? [];
  else if (c.attr('num_outputs')) {
    const n = c.int('num_outputs', outs);
    const chunk = Math.ceil(dim / n);
    sizes = Array.from({ length: n }, (_, i) => Math.max(0, Math.min(chunk, dim - i * chunk)));
  } else {
    if (dim % outs !== 0) throw new ShapeUnknown(`Split of ${dim} into ${outs} equal parts`);
    sizes = new Array<number>(outs).fill(dim / outs);
  }
  return sizes.map((s) => {
    const o = [...d];
    o[axis] = s;
    return tensor(o, c.dtype(0));
  });
};

/** Slice bounds of one axis, as ONNX clamps them. */
function sliceRange(dim: number, start: number, end: number, step: number): { start: number; count: number } {
  if (step === 0) throw new ShapeUnknown('Slice step 0');
  let s = start < 0 ? start + dim : start;
  let e = end < 0 ? end + dim : end;
  if (step > 0) {
    s = Math.min(Math.max(s, 0), dim);
    e = Math.min(Math.max(e, 0), dim);
  } else {
    s = Math.min(Math.max(s, 0), dim - 1);
    e = Math.min(Math.max(e, -1), dim - 1);
  }
  return { start: s, count: Math.max(0, Math.ceil((e - s) / step)) };
}

const slice: ShapeRule = (c) => {
  const d = c.dims(0);
  let starts: number[];
  let ends: number[];
  let axes: number[] | undefined;
  let steps: number[] | undefined;
  if (c.opset < 10) {
    starts = c.ints('starts') ?? [];
    ends = c.ints('ends') ?? [];
    axes = c.ints('axes');
  } else {
    starts = c.needValue(1, 'Slice starts');
    ends = c.needValue(2, 'Slice ends');
    axes = c.has(3) ? c.needValue(3, 'Slice axes') : undefined;
    steps = c.has(4) ? c.needValue(4, 'Slice steps') : undefined;
  }
  const ax = (axes ?? starts.map((_, i) => i)).map((a) => normAxis(a, d.length));
  const dims = [...d];
  const begin = new Array<number>(d.length).fill(0);
  const stride = new Array<number>(d.length).fill(1);
  ax.forEach((a, i) => {
    const step = steps?.[i] ?? 1;
    const r = sliceRange(d[a] ?? 0, starts[i] ?? 0, ends[i] ?? 0, step);
    dims[a] = r.count;
    begin[a] = r.start;
    stride[a] = step;
  });
  const v = c.value(0);
  let value: number[] | undefined;
  if (v) {
    const inStrides = d.map((_, i) => product(d.slice(i + 1)));
    value = Array.from({ length: product(dims) }, (_, k) => {
      let rest = k;
      let src = 0;
      for (let i = dims.length - 1; i >= 0; i--) {
        const n = dims[i] ?? 1;
        src += ((begin[i] ?? 0) + (rest % n) * (stride[i] ?? 1)) * (inStrides[i] ?? 0);
        rest = Math.floor(rest / n);
      }
      return v[src] ?? 0;
    });
  }
  return [tensor(dims, c.dtype(0), value)];
};

const gather: ShapeRule = (c) => {
  const d = c.dims(0);
  const idx = c.dims(1);
  const axis = normAxis(c.int('axis', 0), d.length);
  const dims = [...d.slice(0, axis), ...idx, ...d.slice(axis + 1)];
  const v = c.value(0);
  const iv = c.value(1);
  let value: number[] | undefined;
  if (v && iv) {
    const n = d[axis] ?? 1;
    const inner = product(d.slice(axis + 1));
    const outer = product(d.slice(0, axis));
    value = [];
    for (let o = 0; o < outer; o++) {
      for (const raw of iv) {
        const i = raw < 0 ? raw + n : raw;
        for (let k = 0; k < inner; k++) value.push(v[(o * n + i) * inner + k] ?? 0);
      }
    }
  }
  return [tensor(dims, c.dtype(0), value)];
};

const gatherND: ShapeRule = (c) => {
  const d = c.dims(0);
  const idx = c.dims(1);
  const b = c.int('batch_dims', 0);
  const last = idx[idx.length - 1] ?? 0;
  return [tensor([...idx.slice(0, -1), ...d.slice(b + last)], c.dtype(0))];
};

const unsqueeze: ShapeRule = (c) => {
  const d = c.dims(0);
  const axes = c.axes(1) ?? [];
  const rank = d.length + axes.length;
  const set = new Set(axes.map((a) => normAxis(a, rank)));
  const dims: number[] = [];
  let j = 0;
  for (let i = 0; i < rank; i++) dims.push(set.has(i) ? 1 : (d[j++] ?? 1));
  return [tensor(dims, c.dtype(0), c.value(0))];
};

const squeeze: ShapeRule = (c) => {
  const d = c.dims(0);
  const axes = c.axes(1);
  const set = axes && axes.length > 0 ? new Set(axes.map((a) => normAxis(a, d.length))) : null;
  const dims = d.filter((x, i) => (set ? !set.has(i) : x !== 1));
  return [tensor(dims, c.dtype(0), c.value(0))];
};

const expand: ShapeRule = (c) => {
  const d = c.dims(0);
  const dims = broadcast([d, c.needValue(1, 'the Expand shape')]);
  const v = c.value(0);
  const idx = broadcastIndex(dims, d);
  return [tensor(dims, c.dtype(0), v ? Array.from({ length: product(dims) }, (_, k) => v[idx(k)] ?? 0) : undefined)];
};

const shape: ShapeRule = (c) => {
  const d = c.dims(0);
  const r = d.length;
  const clamp = (x: number): number => Math.min(Math.max(x < 0 ? x + r : x, 0), r);
  const value = d.slice(clamp(c.int('start', 0)), clamp(c.int('end', r)));
  return [tensor([value.length], DataType.INT64, value)];
};

const size: ShapeRule = (c) => [tensor([], DataType.INT64, [product(c.dims(0))])];

const constantOfShape: ShapeRule = (c) => {
  const dims = c.needValue(0, 'the ConstantOfShape shape');
  const a = c.attr('value');
  const fill = a?.type === 'TENSOR' ? a.value : null;
  const v = fill?.values?.[0] ?? 0;
  const n = product(dims);
  return [tensor(dims, fill?.dataType ?? DataType.FLOAT, n <= 4096 ? new Array<number>(n).fill(v) : undefined)];
};

const constant: ShapeRule = (c) => {
  const a = c.node.attributes;
  const value = a.get('value');
  if (value?.type === 'TENSOR') {
    const t = value.value;
    return [{ ...tensor(t.dims, t.dataType, t.values ?? undefined), constant: true }];
  }
  const num = (name: string, dtype: number, scalar: boolean): InferredTensor | undefined => {
    const x = a.get(name);
    if (!x) return undefined;
    const vals =
      x.type === 'INT' || x.type === 'FLOAT' ? [x.value] : x.type === 'INTS' || x.type === 'FLOATS' ? x.value : [];
    return { ...tensor(scalar ? [] : [vals.length], dtype, vals), constant: true };
  };
  const out =
    num('value_float', DataType.FLOAT, true) ??
    num('value_floats', DataType.FLOAT, false) ??
    num('value_int', DataType.INT64, true) ??
    num('value_ints', DataType.INT64, false);
  if (out) return [out];
  const s = a.get('value_strings');
  if (s?.type === 'STRINGS') return [{ ...tensor([s.value.length], DataType.STRING), constant: true }];
  if (a.get('value_string')) return [{ ...tensor([], DataType.STRING), constant: true }];
  throw new ShapeUnknown('Constant without a dense value');
};

const range: ShapeRule = (c) => {
  const [start, limit, delta] = [0, 1, 2].map((i) => c.needValue(i, 'a Range bound')[0] ?? 0);
  if (!delta) throw new ShapeUnknown('Range with delta 0');
  const n = Math.max(Math.ceil(((limit ?? 0) - (start ?? 0)) / delta), 0);
  const value = n <= 4096 ? Array.from({ length: n }, (_, i) => (start ?? 0) + i * delta) : undefined;
  return [tensor([n], c.dtype(0), value)];
};

const REDUCE_FOLD: Record<string, (v: number[]) => number> = {
  ReduceProd: (v) => product(v),
  ReduceSum: (v) => v.reduce((a, x) => a + x, 0),
  ReduceMax: (v) => Math.max(...v),
  ReduceMin: (v) => Math.min(...v),
};

/** Reduce*: axes from the attribute (older opsets) or input 1; all axes when none. */
function reduce(op: string): ShapeRule {
  return (c) => {
    const d = c.dims(0);
    const keep = c.int('keepdims', 1) === 1;
    const axesIn = c.axes(1);
    const noop = c.int('noop_with_empty_axes', 0) === 1;
    if ((!axesIn || axesIn.length === 0) && noop) return [tensor(d, c.dtype(0), c.value(0))];
    const axes = new Set(axesIn && axesIn.length > 0 ? axesIn.map((a) => normAxis(a, d.length)) : d.map((_, i) => i));
    const dims = keep ? d.map((x, i) => (axes.has(i) ? 1 : x)) : d.filter((_, i) => !axes.has(i));
    const f = REDUCE_FOLD[op];
    const v = c.value(0);
    const all = axes.size === d.length;
    return [tensor(dims, c.dtype(0), f && v && all && v.length > 0 ? [f(v)] : undefined)];
  };
}

const argReduce: ShapeRule = (c) => {
  const d = c.dims(0);
  const axis = normAxis(c.int('axis', 0), d.length);
  const dims = c.int('keepdims', 1) === 1 ? d.map((x, i) => (i === axis ? 1 : x)) : d.filter((_, i) => i !== axis);
  return [tensor(dims, DataType.INT64)];
};

const topK: ShapeRule = (c) => {
  const d = c.dims(0);
  const axis = normAxis(c.int('axis', -1), d.length);
  const k = c.opset >= 10 ? (c.needValue(1, 'TopK K')[0] ?? 0) : c.int('k', 0);
  const dims = d.map((x, i) => (i === axis ? k : x));
  return [tensor(dims, c.dtype(0)), tensor(dims, DataType.INT64)];
};

const pad: ShapeRule = (c) => {
  const d = c.dims(0);
  const pads = c.opset >= 11 ? c.needValue(1, 'Pad pads') : (c.ints('pads') ?? []);
  const axes = c.has(3) ? c.needValue(3, 'Pad axes').map((a) => normAxis(a, d.length)) : d.map((_, i) => i);
  const dims = [...d];
  axes.forEach((a, i) => {
    dims[a] = (d[a] ?? 0) + (pads[i] ?? 0) + (pads[i + axes.length] ?? 0);
  });
  return [tensor(dims, c.dtype(0))];
};

const tile: ShapeRule = (c) => {
  const d = c.dims(0);
  const reps = c.needValue(1, 'Tile repeats');
  return [
    tensor(
      d.map((x, i) => x * (reps[i] ?? 1)),
      c.dtype(0),
    ),
  ];
};

/** Resize (opset 10+: scales or sizes inputs) and Upsample (scales attribute or input). */
const resize: ShapeRule = (c) => {
  const d = c.dims(0);
  let scales: number[] | undefined;
  let sizes: number[] | undefined;
  if (c.opType === 'Upsample') {
    scales = c.floats('scales') ?? c.needValue(1, 'Upsample scales');
  } else if (c.opset < 11) {
    scales = c.needValue(1, 'Resize scales');
  } else {
    const sv = c.has(2) ? c.value(2) : [];
    const zv = c.has(3) ? c.value(3) : [];
    if (zv && zv.length > 0) sizes = zv;
    else if (sv && sv.length > 0) scales = sv;
    else if (c.has(3)) sizes = c.needValue(3, 'Resize sizes');
    else scales = c.needValue(2, 'Resize scales');
  }
  const axes = (c.ints('axes') ?? d.map((_, i) => i)).map((a) => normAxis(a, d.length));
  const dims = [...d];
  if (sizes) {
    const policy = c.string('keep_aspect_ratio_policy', 'stretch');
    if (policy !== 'stretch') {
      const ratios = axes.map((a, i) => (sizes?.[i] ?? 1) / (d[a] ?? 1));
      const s = policy === 'not_larger' ? Math.min(...ratios) : Math.max(...ratios);
      axes.forEach((a) => (dims[a] = Math.round((d[a] ?? 0) * s)));
    } else axes.forEach((a, i) => (dims[a] = sizes?.[i] ?? d[a] ?? 0));
  } else {
    axes.forEach((a, i) => (dims[a] = Math.floor((d[a] ?? 0) * (scales?.[i] ?? 1) + 1e-9)));
  }
  return [tensor(dims, c.dtype(0))];
};

const oneHot: ShapeRule = (c) => {
  const d = c.dims(0);
  const depth = c.needValue(1, 'OneHot depth')[0] ?? 0;
  const axis = normAxis(c.int('axis', -1), d.length + 1);
  const dims = [...d.slice(0, axis), depth, ...d.slice(axis)];
  return [tensor(dims, c.dtype(2))];
};

const depthToSpace: ShapeRule = (c) => {
  const [n = 0, ch = 0, h = 0, w = 0] = c.dims(0);
  const b = c.int('blocksize', 1);
  return c.opType === 'DepthToSpace'
    ? [tensor([n, ch / (b * b), h * b, w * b], c.dtype(0))]
    : [tensor([n, ch * b * b, h / b, w / b], c.dtype(0))];
};

const dataDependent =
  (what: string): ShapeRule =>
  () => {
    throw new ShapeUnknown(`${what} has a data-dependent shape`);
  };

const UNARY_OPS = [
  'Relu', 'LeakyRelu', 'Sigmoid', 'Tanh', 'Erf', 'Sqrt', 'Exp', 'Log', 'Neg', 'Abs', 'Clip', 'HardSigmoid',
  'HardSwish', 'Gelu', 'Softplus', 'Softsign', 'Not', 'Identity', 'Reciprocal', 'Floor', 'Ceil', 'Round', 'Sign',
  'Elu', 'Selu', 'Celu', 'Mish', 'ThresholdedRelu', 'Shrink', 'Sin', 'Cos', 'Tan', 'Asin', 'Acos', 'Atan', 'Sinh',
  'Cosh', 'Asinh', 'Acosh', 'Atanh', 'Softmax', 'LogSoftmax', 'Hardmax', 'LRN', 'CumSum', 'Trilu',
  'EyeLike', 'RandomNormalLike', 'RandomUniformLike', 'BitwiseNot', 'ReverseSequence', 'ScatterND',
  'ScatterElements', 'Scatter', 'MeanVarianceNormalization', 'LpNormalization', 'InstanceNormalization',
  'GroupNormalization',
] as const; // prettier-ignore

const BROADCAST_OPS = [
  'Add', 'Sub', 'Mul', 'Div', 'Pow', 'Mod', 'Max', 'Min', 'Sum', 'Mean', 'Equal', 'Less', 'LessOrEqual', 'Greater',
  'GreaterOrEqual', 'And', 'Or', 'Xor', 'BitShift', 'BitwiseAnd', 'BitwiseOr', 'BitwiseXor',
] as const; // prettier-ignore

export const TENSOR_RULES: Record<string, ShapeRule> = {
  ...Object.fromEntries(UNARY_OPS.map((op) => [op, unary(op)])),
  ...Object.fromEntries(BROADCAST_OPS.map((op) => [op, broadcastOp(op)])),
  PRelu: same(),
  IsNaN: same(DataType.BOOL),
  IsInf: same(DataType.BOOL),
  Dropout: (c) => [tensor(c.dims(0), c.dtype(0), c.value(0)), tensor(c.dims(0), DataType.BOOL)],
  Where: where,
  Cast: cast,
  CastLike: cast,
  Reshape: reshape,
  Flatten: flatten,
  Transpose: transpose,
  Concat: concat,
  Split: split,
  Slice: slice,
  Gather: gather,
  GatherElements: (c) => [tensor(c.dims(1), c.dtype(0))],
  GatherND: gatherND,
  Unsqueeze: unsqueeze,
  Squeeze: squeeze,
  Expand: expand,
  Shape: shape,
  Size: size,
  ConstantOfShape: constantOfShape,
  Constant: constant,
  Range: range,
  ReduceMean: reduce('ReduceMean'),
  ReduceSum: reduce('ReduceSum'),
  ReduceMax: reduce('ReduceMax'),
  ReduceMin: reduce('ReduceMin'),
  ReduceProd: reduce('ReduceProd'),
  ReduceL1: reduce('ReduceL1'),
  ReduceL2: reduce('ReduceL2'),
  ReduceLogSum: reduce('ReduceLogSum'),
  ReduceLogSumExp: reduce('ReduceLogSumExp'),
  ReduceSumSquare: reduce('ReduceSumSquare'),
  ArgMax: argReduce,
  ArgMin: argReduce,
  TopK: topK,
  Pad: pad,
  Tile: tile,
  Resize: resize,
  Upsample: resize,
  OneHot: oneHot,
  DepthToSpace: depthToSpace,
  SpaceToDepth: depthToSpace,
  NonZero: dataDependent('NonZero'),
  Unique: dataDependent('Unique'),
  Compress: dataDependent('Compress'),
  NonMaxSuppression: dataDependent('NonMaxSuppression'),
};
