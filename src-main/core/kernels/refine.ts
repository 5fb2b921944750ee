/**
 * Neighbouring shapes of a kernel, for adaptive refinement where a measured curve bends. Pure.
 */
import { makeKernel } from './cost.js';
import type { KernelSpec } from './types.js';

/**
 * Dims scaled together as one axis of refinement, per op. Structural dims (R, S, stride,
 * groups, headDim, act, parts, scale) stay fixed, except that a depthwise conv (groups = C)
 * keeps groups = C.
 */
const AXES: Record<KernelSpec['op'], readonly (readonly string[])[]> = {
  MatMul: [['B'], ['M'], ['N'], ['K']],
  Gemm: [['M'], ['N'], ['K']],
  Conv: [['N'], ['H', 'W'], ['C'], ['K']],
  Add: [['n']],
  Mul: [['n']],
  Relu: [['n']],
  Gelu: [['n']],
  Sigmoid: [['n']],
  ReduceSum: [['rows'], ['cols']],
  ReduceMean: [['rows'], ['cols']],
  Softmax: [['rows'], ['cols']],
  LayerNormalization: [['rows'], ['cols']],
  SkipLayerNormalization: [['rows'], ['cols']],
  Attention: [['batch'], ['heads'], ['seq']],
  Transpose: [['rows'], ['cols']],
  Cast: [['n']],
  CopyH2D: [['n']],
  CopyD2H: [['n']],
  MaxPool: [['N'], ['H', 'W'], ['C']],
  AveragePool: [['N'], ['H', 'W'], ['C']],
  GlobalAveragePool: [['N'], ['H', 'W'], ['C']],
  Concat: [['rows'], ['cols']],
  Resize: [['N'], ['H', 'W'], ['C']],
  Div: [['n']],
  Clip: [['n']],
  Pow: [['n']],
  Sqrt: [['n']],
  Exp: [['n']],
  Log: [['n']],
  Tanh: [['n']],
  Erf: [['n']],
  HardSigmoid: [['n']],
  HardSwish: [['n']],
  LeakyRelu: [['n']],
  Softplus: [['n']],
  ReorderInput: [['N'], ['H', 'W'], ['C']],
  ReorderOutput: [['N'], ['H', 'W'], ['C']],
  LSTM: [['seq'], ['batch'], ['input'], ['hidden']],
  GRU: [['seq'], ['batch'], ['input'], ['hidden']],
};

/** A 1-D conv (d1) has no W to scale. */
const CONV_1D_AXES: readonly (readonly string[])[] = [['N'], ['H'], ['C'], ['K']];

/** Largest power of two up to 16 that divides v: neighbours keep the original's alignment. */
function alignmentOf(v: number): number {
  let a = 1;
  while (a < 16 && v % (a * 2) === 0) a *= 2;
  return a;
}

function lcm(a: number, b: number): number {
  let [x, y] = [a, b];
  while (y !== 0) [x, y] = [y, x % y];
  return (a / x) * b;
}

function scaled(v: number, f: number, align: number): number {
  return Math.max(align, Math.round((v * f) / align) * align);
}

/**
 * For each refinement axis of `spec`, the shapes with that axis multiplied and divided by
 * `factor` (> 1), other dims unchanged: up to two neighbours per axis. Values keep the original
 * dim's alignment (multiples of up to 16), Conv C and K stay multiples of groups (a depthwise
 * conv stays depthwise), Concat cols a multiple of parts, a dim of 1 is not divided. Unique ids, the original excluded, in axis order.
 */
export function refineAround(spec: KernelSpec, factor: number): KernelSpec[] {
  if (!(factor > 1) || !Number.isFinite(factor)) throw new RangeError(`refine factor must be > 1, got ${factor}`);
  const seen = new Set<string>([spec.id]);
  const out: KernelSpec[] = [];
  const depthwise = spec.op === 'Conv' && spec.shape.groups === spec.shape.C && spec.shape.groups !== 1;
  const axes = spec.op === 'Conv' && spec.shape.d1 ? CONV_1D_AXES : AXES[spec.op];
  for (const axis of axes) {
    for (const f of [1 / factor, factor]) {
      const shape = { ...spec.shape };
      for (const name of axis) {
        const v = spec.shape[name] ?? 1;
        let align = alignmentOf(v);
        if (spec.op === 'Conv' && (name === 'C' || name === 'K') && !depthwise)
          align = lcm(align, spec.shape.groups ?? 1);
        if (spec.op === 'Concat' && name === 'cols') align = lcm(align, spec.shape.parts ?? 1);
        shape[name] = scaled(v, f, align);
      }
      if (depthwise && axis.includes('C')) {
        const c = shape.C ?? 1;
        shape.K = ((spec.shape.K ?? c) / (spec.shape.C ?? c)) * c;
        shape.groups = c;
      }
      if (depthwise && axis.includes('K')) continue; // K is tied to C
      let k: KernelSpec;
      try {
        k = makeKernel(spec.op, spec.dtype, shape);
      } catch {
        continue;
      }
      if (seen.has(k.id)) continue;
      seen.add(k.id);
      out.push(k);
    }
  }
  return out;
}
