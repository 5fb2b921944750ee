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
import {
  attr,
  encodeModel,
  OnnxDataType,
  type NodeDef,
  type OnnxDataTypeCode,
  type TensorDef,
  type ValueInfoDef,
} from '../onnx/model-builder.js';
import { castTarget, convOutSize } from './cost.js';
import { encodeValues, randomBytes } from './fill.js';
import type { KernelSpec } from './types.js';

export interface TensorInfo {
  name: string;
  dims: number[];
  dtype: Dtype;
}

export interface KernelModel {
  /** The serialized ModelProto. */
  model: Uint8Array;
  /** Graph inputs, fed on every run. */
  inputs: TensorInfo[];
  outputName: string;
  /** The single graph output, with its dims and dtype. */
  output: TensorInfo;
}

export interface BuildOptions {
  /** Big weights (MatMul/Gemm weight and bias, Conv filter) as graph inputs instead of initializers. */
  weightsAsInputs?: boolean;
}

export const ONNX_DTYPE: Record<Dtype, OnnxDataTypeCode> = {
  fp32: OnnxDataType.FLOAT,
  fp16: OnnxDataType.FLOAT16,
  bf16: OnnxDataType.BFLOAT16,
  int8: OnnxDataType.INT8,
  int32: OnnxDataType.INT32,
  int64: OnnxDataType.INT64,
};

/** What a kernel's graph is made of, before encoding. */
interface Parts {
  nodes: NodeDef[];
  inputs: TensorInfo[];
  output: TensorInfo;
  initializers: TensorDef[];
}

const OUT = 'Y';

export function buildKernelModel(spec: KernelSpec, opts: BuildOptions = {}): KernelModel {
  const parts = kernelParts(spec, opts.weightsAsInputs ?? false);
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

function valueInfo(t: TensorInfo): ValueInfoDef {
  return { name: t.name, elemType: ONNX_DTYPE[t.dtype], dims: t.dims };
}

function node(opType: string, inputs: string[], outputs: string[], attributes: NodeDef['attributes'] = []): NodeDef {
  return { opType, inputs, outputs, name: `${opType}_${outputs[0] ?? ''}`, attributes };
}

/** A weight: an initializer with deterministic contents, or a graph input. */
class Weights {
  readonly initializers: TensorDef[] = [];
  readonly inputs: TensorInfo[] = [];
  private seed = 1;
  constructor(private readonly asInputs: boolean) {}

  add(name: string, dtype: Dtype, dims: number[], values?: number[]): string {
    if (this.asInputs && values === undefined) {
      this.inputs.push({ name, dims, dtype });
      return name;
    }
    const count = dims.reduce((a, d) => a * d, 1);
    const rawData = values ? encodeValues(dtype, values) : randomBytes(dtype, count, this.seed++);
    this.initializers.push({ name, dataType: ONNX_DTYPE[dtype], dims, rawData });
    return name;
  }

  /** A scalar constant, always an initializer. */
  scalar(name: string, dtype: Dtype, value: number): string {
    this.initializers.push({ name, dataType: ONNX_DTYPE[dtype], dims: [], rawData: encodeValues(dtype, [value]) });
    return name;
  }
}

function kernelParts(spec: KernelSpec, weightsAsInputs: boolean): Parts {
  const s = (name: string): number => {
    const v = spec.shape[name];
    if (v === undefined) throw new RangeError(`${spec.id}: shape lacks ${name}`);
    return v;
  };
  const t = spec.dtype;
  const w = new Weights(weightsAsInputs);
  const inputs: TensorInfo[] = [];
  const input = (name: string, dims: number[], dtype: Dtype = t): string => {
    inputs.push({ name, dims, dtype });
    return name;
  };
  let nodes: NodeDef[];
  let output: TensorInfo;

  switch (spec.op) {
    case 'MatMul': {
      const [B, M, N, K] = [s('B'), s('M'), s('N'), s('K')];
      if (B === 1) {
        // A linear layer: activations [M,K] times a constant weight [K,N].
        const a = input('A', [M, K]);
        nodes = [node('MatMul', [a, w.add('W', t, [K, N])], [OUT])];
        output = { name: OUT, dims: [M, N], dtype: t };
      } else {
        const a = input('A', [B, M, K]);
        const b = input('B', [B, K, N]);
        nodes = [node('MatMul', [a, b], [OUT])];
        output = { name: OUT, dims: [B, M, N], dtype: t };
      }
      break;
    }
    case 'Gemm': {
      // As exporters write nn.Linear: weight [N,K] with transB = 1, bias [N].
      const [M, N, K] = [s('M'), s('N'), s('K')];
      const a = input('A', [M, K]);
      nodes = [node('Gemm', [a, w.add('W', t, [N, K]), w.add('bias', t, [N])], [OUT], [attr.int('transB', 1)])];
      output = { name: OUT, dims: [M, N], dtype: t };
      break;
    }
    case 'Conv': {
      const [N, C, H, W, K, R, S, stride, groups] = [
        s('N'),
        s('C'),
        s('H'),
        s('W'),
        s('K'),
        s('R'),
        s('S'),
        s('stride'),
        s('groups'),
      ];
      const [pr, ps] = [Math.floor(R / 2), Math.floor(S / 2)];
      const x = input('X', [N, C, H, W]);
      const filter = w.add('W', t, [K, C / groups, R, S]);
      nodes = [
        node(
          'Conv',
          [x, filter],
          [OUT],
          [
            attr.ints('kernel_shape', [R, S]),
            attr.ints('strides', [stride, stride]),
            attr.ints('pads', [pr, ps, pr, ps]),
            attr.ints('dilations', [1, 1]),
            attr.int('group', groups),
          ],
        ),
      ];
      output = { name: OUT, dims: [N, K, convOutSize(H, R, stride), convOutSize(W, S, stride)], dtype: t };
      break;
    }
    case 'Add':
    case 'Mul': {
      const n = s('n');
      nodes = [node(spec.op, [input('A', [n]), input('B', [n])], [OUT])];
      output = { name: OUT, dims: [n], dtype: t };
      break;
    }
    case 'Relu':
    case 'Sigmoid': {
      const n = s('n');
      nodes = [node(spec.op, [input('X', [n])], [OUT])];
      output = { name: OUT, dims: [n], dtype: t };
      break;
    }
    case 'Gelu': {
      // Erf form, as exporters emit it (the Gelu op needs opset 20): x * 0.5 * (1 + erf(x / sqrt 2)).
      const n = s('n');
      const x = input('X', [n]);
      nodes = [
        node('Div', [x, w.scalar('sqrt2', t, Math.SQRT2)], ['scaled']),
        node('Erf', ['scaled'], ['erf']),
        node('Add', ['erf', w.scalar('one', t, 1)], ['erf_plus_1']),
        node('Mul', [x, 'erf_plus_1'], ['x_times']),
        node('Mul', ['x_times', w.scalar('half', t, 0.5)], [OUT]),
      ];
      output = { name: OUT, dims: [n], dtype: t };
      break;
    }
    case 'ReduceSum': {
      // Opset 13+: axes is an input. Reduces the last axis, keepdims = 0.
      const [rows, cols] = [s('rows'), s('cols')];
      const axes = w.add('axes', 'int64', [1], [-1]);
      nodes = [node('ReduceSum', [input('X', [rows, cols]), axes], [OUT], [attr.int('keepdims', 0)])];
      output = { name: OUT, dims: [rows], dtype: t };
      break;
    }
    case 'ReduceMean': {
      // Opset 17: axes is still an attribute (an input from opset 18).
      const [rows, cols] = [s('rows'), s('cols')];
      const x = input('X', [rows, cols]);
      nodes = [node('ReduceMean', [x], [OUT], [attr.ints('axes', [-1]), attr.int('keepdims', 0)])];
      output = { name: OUT, dims: [rows], dtype: t };
      break;
    }
    case 'Softmax': {
      const [rows, cols] = [s('rows'), s('cols')];
      nodes = [node('Softmax', [input('X', [rows, cols])], [OUT], [attr.int('axis', -1)])];
      output = { name: OUT, dims: [rows, cols], dtype: t };
      break;
    }
    case 'LayerNormalization': {
      // Scale 1 and bias 0, as a freshly initialized layer: the output has mean 0 and variance 1.
      const [rows, cols] = [s('rows'), s('cols')];
      const x = input('X', [rows, cols]);
      const scale = w.add('scale', t, [cols], new Array<number>(cols).fill(1));
      const bias = w.add('bias', t, [cols], new Array<number>(cols).fill(0));
      nodes = [
        node('LayerNormalization', [x, scale, bias], [OUT], [attr.int('axis', -1), attr.float('epsilon', 1e-5)]),
      ];
      output = { name: OUT, dims: [rows, cols], dtype: t };
      break;
    }
    case 'Attention': {
      // softmax(Q K^T / sqrt(d)) V with heads as a batch dim. K is fed already transposed
      // ([batch,heads,headDim,seq]), so no Transpose node is timed.
      const [b, h, sq, d] = [s('batch'), s('heads'), s('seq'), s('headDim')];
      const q = input('Q', [b, h, sq, d]);
      const kt = input('KT', [b, h, d, sq]);
      const v = input('V', [b, h, sq, d]);
      nodes = [
        node('MatMul', [q, kt], ['scores']),
        node('Mul', ['scores', w.scalar('scale', t, 1 / Math.sqrt(d))], ['scaled']),
        node('Softmax', ['scaled'], ['probs'], [attr.int('axis', -1)]),
        node('MatMul', ['probs', v], [OUT]),
      ];
      output = { name: OUT, dims: [b, h, sq, d], dtype: t };
      break;
    }
    case 'Transpose': {
      const [rows, cols] = [s('rows'), s('cols')];
      nodes = [node('Transpose', [input('X', [rows, cols])], [OUT], [attr.ints('perm', [1, 0])])];
      output = { name: OUT, dims: [cols, rows], dtype: t };
      break;
    }
    case 'Cast': {
      const n = s('n');
      const to = castTarget(t);
      nodes = [node('Cast', [input('X', [n])], [OUT], [attr.int('to', ONNX_DTYPE[to])])];
      output = { name: OUT, dims: [n], dtype: to };
      break;
    }
    case 'CopyH2D':
    case 'CopyD2H': {
      // Identity: where the input and output live (host or device) is the runner's binding.
      const n = s('n');
      nodes = [node('Identity', [input('X', [n])], [OUT])];
      output = { name: OUT, dims: [n], dtype: t };
      break;
    }
  }
  return { nodes, inputs: [...inputs, ...w.inputs], output, initializers: w.initializers };
}
