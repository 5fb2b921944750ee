/**
 * Small ONNX models built in the tests (no fixtures): a CNN, a transformer encoder with the
 * Shape -> Gather -> Concat -> Reshape chains exporters emit and symbolic batch/seq dims, a
 * recurrent model (LSTM, GRU, RNN), and "zoo" models exercising the other shape rules.
 */
import {
  attr,
  encodeModel,
  OnnxDataType,
  tensorMessage,
  type NodeDef,
  type TensorDef,
  type ValueInfoDef,
} from '../../../../src-main/core/onnx/model-builder.js';
import { ProtoWriter } from '../../../../src-main/core/onnx/protobuf-writer.js';

export const F = OnnxDataType.FLOAT;
export const I64 = OnnxDataType.INT64;

export const input = (name: string, dims: readonly (number | string)[], elemType: 1 | 7 = F): ValueInfoDef => ({
  name,
  elemType,
  dims,
});

/** A float initializer with deterministic small values. */
export function weight(name: string, dims: readonly number[], seed = 1): TensorDef {
  const n = dims.reduce((a, d) => a * d, 1);
  const values = Float32Array.from({ length: n }, (_, i) => (((i * 7919 + seed * 104729) % 2000) / 2000 - 0.5) * 0.2);
  return { name, dataType: F, dims, rawData: new Uint8Array(values.buffer) };
}

export function ints(name: string, values: readonly number[], dims: readonly number[] = [values.length]): TensorDef {
  return {
    name,
    dataType: I64,
    dims,
    rawData: new Uint8Array(BigInt64Array.from(values, (v) => BigInt(v)).buffer),
  };
}

export function floats(name: string, values: readonly number[], dims: readonly number[] = [values.length]): TensorDef {
  return { name, dataType: F, dims, rawData: new Uint8Array(Float32Array.from(values).buffer) };
}

export const node = (
  opType: string,
  inputs: readonly string[],
  outputs: readonly string[],
  attributes: NodeDef['attributes'] = [],
  name?: string,
): NodeDef => ({ opType, inputs, outputs, attributes, name: name ?? outputs[0] });

/** Conv(8, 3x3, pad 1) BN Relu MaxPool(2) Conv(16, 3x3, stride 2, group 2) BN Relu GAP Flatten Gemm Softmax. */
export function cnnModel(batch: number | string = 'N'): Uint8Array {
  const bn = (p: string, c: number): TensorDef[] => [
    floats(`${p}.scale`, new Array<number>(c).fill(1)),
    floats(`${p}.bias`, new Array<number>(c).fill(0)),
    floats(`${p}.mean`, new Array<number>(c).fill(0)),
    floats(`${p}.var`, new Array<number>(c).fill(1)),
  ];
  return encodeModel({
    graph: {
      name: 'cnn',
      inputs: [input('x', [batch, 3, 32, 32])],
      outputs: [input('probs', [batch, 10])],
      initializers: [
        weight('c1.w', [8, 3, 3, 3]),
        weight('c1.b', [8]),
        ...bn('bn1', 8),
        weight('c2.w', [16, 4, 3, 3]),
        ...bn('bn2', 16),
        weight('fc.w', [10, 16]),
        weight('fc.b', [10]),
      ],
      nodes: [
        node(
          'Conv',
          ['x', 'c1.w', 'c1.b'],
          ['c1'],
          [attr.ints('pads', [1, 1, 1, 1]), attr.ints('kernel_shape', [3, 3])],
        ),
        node('BatchNormalization', ['c1', 'bn1.scale', 'bn1.bias', 'bn1.mean', 'bn1.var'], ['b1']),
        node('Relu', ['b1'], ['r1']),
        node('MaxPool', ['r1'], ['p1'], [attr.ints('kernel_shape', [2, 2]), attr.ints('strides', [2, 2])]),
        node(
          'Conv',
          ['p1', 'c2.w'],
          ['c2'],
          [attr.ints('pads', [1, 1, 1, 1]), attr.ints('strides', [2, 2]), attr.int('group', 2)],
        ),
        node('BatchNormalization', ['c2', 'bn2.scale', 'bn2.bias', 'bn2.mean', 'bn2.var'], ['b2']),
        node('Relu', ['b2'], ['r2']),
        node('GlobalAveragePool', ['r2'], ['gap']),
        node('Flatten', ['gap'], ['flat']),
        node('Gemm', ['flat', 'fc.w', 'fc.b'], ['logits'], [attr.int('transB', 1)]),
        node('Softmax', ['logits'], ['probs'], [attr.int('axis', 1)]),
      ],
    },
  });
}

export const D = 64;
export const HEADS = 4;
export const FF = 128;

/** One post-LN encoder block, with the reshapes computed from Shape(x) the way exporters write them. */
function encoderBlock(b: string, x: string, mask: string): { nodes: NodeDef[]; inits: TensorDef[]; out: string } {
  const p = (s: string): string => `${b}.${s}`;
  const nodes: NodeDef[] = [
    node('Shape', [x], [p('shape')]),
    node('Gather', [p('shape'), 'c.zero'], [p('batch')], [attr.int('axis', 0)]),
    node('Gather', [p('shape'), 'c.one'], [p('seq')], [attr.int('axis', 0)]),
    node('Unsqueeze', [p('batch'), 'c.axes0'], [p('batch1')]),
    node('Unsqueeze', [p('seq'), 'c.axes0'], [p('seq1')]),
    node('Concat', [p('batch1'), p('seq1'), 'c.heads_dh'], [p('split_shape')], [attr.int('axis', 0)]),
    node('Concat', [p('batch1'), p('seq1'), 'c.d'], [p('merge_shape')], [attr.int('axis', 0)]),
  ];
  const inits: TensorDef[] = [];
  for (const w of ['q', 'k', 'v']) {
    inits.push(weight(p(`${w}.w`), [D, D], w.charCodeAt(0)), weight(p(`${w}.b`), [D]));
    nodes.push(
      node('MatMul', [x, p(`${w}.w`)], [p(`${w}.mm`)]),
      node('Add', [p(`${w}.mm`), p(`${w}.b`)], [p(`${w}.lin`)]),
      node('Reshape', [p(`${w}.lin`), p('split_shape')], [p(`${w}.heads`)]),
      node('Transpose', [p(`${w}.heads`)], [p(`${w}.t`)], [attr.ints('perm', w === 'k' ? [0, 2, 3, 1] : [0, 2, 1, 3])]),
    );
  }
  inits.push(
    weight(p('o.w'), [D, D], 5),
    weight(p('o.b'), [D]),
    floats(p('ln1.g'), new Array<number>(D).fill(1)),
    floats(p('ln1.b'), new Array<number>(D).fill(0)),
    weight(p('ff1.w'), [D, FF], 6),
    weight(p('ff1.b'), [FF]),
    weight(p('ff2.w'), [FF, D], 7),
    weight(p('ff2.b'), [D]),
    floats(p('ln2.g'), new Array<number>(D).fill(1)),
    floats(p('ln2.b'), new Array<number>(D).fill(0)),
  );
  nodes.push(
    node('MatMul', [p('q.t'), p('k.t')], [p('scores')]),
    node('Div', [p('scores'), 'c.sqrt_dh'], [p('scaled')]),
    node('Add', [p('scaled'), mask], [p('masked')]),
    node('Softmax', [p('masked')], [p('probs')], [attr.int('axis', -1)]),
    node('MatMul', [p('probs'), p('v.t')], [p('ctx')]),
    node('Transpose', [p('ctx')], [p('ctx.t')], [attr.ints('perm', [0, 2, 1, 3])]),
    node('Reshape', [p('ctx.t'), p('merge_shape')], [p('ctx.m')]),
    node('MatMul', [p('ctx.m'), p('o.w')], [p('o.mm')]),
    node('Add', [p('o.mm'), p('o.b')], [p('o.lin')]),
    node('Add', [p('o.lin'), x], [p('res1')]),
    node('LayerNormalization', [p('res1'), p('ln1.g'), p('ln1.b')], [p('ln1')], [attr.int('axis', -1)]),
    node('MatMul', [p('ln1'), p('ff1.w')], [p('ff1.mm')]),
    node('Add', [p('ff1.mm'), p('ff1.b')], [p('ff1.lin')]),
    // Gelu as exporters decompose it: x * 0.5 * (1 + erf(x / sqrt(2)))
    node('Div', [p('ff1.lin'), 'c.sqrt2'], [p('g.div')]),
    node('Erf', [p('g.div')], [p('g.erf')]),
    node('Add', [p('g.erf'), 'c.onef'], [p('g.add')]),
    node('Mul', [p('ff1.lin'), p('g.add')], [p('g.mul')]),
    node('Mul', [p('g.mul'), 'c.half'], [p('gelu')]),
    node('MatMul', [p('gelu'), p('ff2.w')], [p('ff2.mm')]),
    node('Add', [p('ff2.mm'), p('ff2.b')], [p('ff2.lin')]),
    node('Add', [p('ff2.lin'), p('ln1')], [p('res2')]),
    node('LayerNormalization', [p('res2'), p('ln2.g'), p('ln2.b')], [p('out')], [attr.int('axis', -1)]),
  );
  return { nodes, inits, out: p('out') };
}

/** A BERT-like encoder: x [batch, seq, 64] and an int64 mask [batch, seq], `blocks` blocks, symbolic batch/seq. */
export function transformerModel(blocks = 2): Uint8Array {
  const nodes: NodeDef[] = [
    node('Unsqueeze', ['mask', 'c.axes12'], ['mask.u']),
    node('Cast', ['mask.u'], ['mask.f'], [attr.int('to', F)]),
    node('Sub', ['c.onef', 'mask.f'], ['mask.inv']),
    node('Mul', ['mask.inv', 'c.neg'], ['mask.ext']),
  ];
  const inits: TensorDef[] = [
    ints('c.zero', [0], []),
    ints('c.one', [1], []),
    ints('c.axes0', [0]),
    ints('c.axes12', [1, 2]),
    ints('c.heads_dh', [HEADS, D / HEADS]),
    ints('c.d', [D]),
    floats('c.sqrt_dh', [Math.sqrt(D / HEADS)], []),
    floats('c.sqrt2', [Math.SQRT2], []),
    floats('c.onef', [1], []),
    floats('c.half', [0.5], []),
    floats('c.neg', [-10000], []),
  ];
  let x = 'x';
  for (let i = 0; i < blocks; i++) {
    const b = encoderBlock(`l${i}`, x, 'mask.ext');
    nodes.push(...b.nodes);
    inits.push(...b.inits);
    x = b.out;
  }
  nodes.push(node('Identity', [x], ['y']));
  return encodeModel({
    graph: {
      name: 'encoder',
      inputs: [input('x', ['batch', 'seq', D]), input('mask', ['batch', 'seq'], I64)],
      outputs: [input('y', ['batch', 'seq', D])],
      initializers: inits,
      nodes,
    },
  });
}

export const LSTM_IN = 16;
export const LSTM_HIDDEN = 32;
export const GRU_HIDDEN = 8;

/** X [seq, batch, 16] -> bidirectional LSTM(32) -> [seq, batch, 64] -> GRU(8) -> RNN(4). */
export function recurrentModel(): Uint8Array {
  const dirs = 2;
  return encodeModel({
    graph: {
      name: 'rnn',
      inputs: [input('X', ['seq', 'batch', LSTM_IN])],
      outputs: [
        input('Y3', ['seq', 1, 'batch', 4]),
        input('Yh2', [1, 'batch', GRU_HIDDEN]),
        input('Yc', [2, 'batch', 32]),
      ],
      initializers: [
        weight('lstm.W', [dirs, 4 * LSTM_HIDDEN, LSTM_IN], 1),
        weight('lstm.R', [dirs, 4 * LSTM_HIDDEN, LSTM_HIDDEN], 2),
        weight('lstm.B', [dirs, 8 * LSTM_HIDDEN], 3),
        ints('shape3', [0, 0, -1]),
        weight('gru.W', [1, 3 * GRU_HIDDEN, 2 * LSTM_HIDDEN], 4),
        weight('gru.R', [1, 3 * GRU_HIDDEN, GRU_HIDDEN], 5),
        ints('c.axis1', [1]),
        weight('rnn.W', [1, 4, GRU_HIDDEN], 6),
        weight('rnn.R', [1, 4, 4], 7),
      ],
      nodes: [
        node(
          'LSTM',
          ['X', 'lstm.W', 'lstm.R', 'lstm.B'],
          ['Y', 'Yh', 'Yc'],
          [attr.int('hidden_size', LSTM_HIDDEN), attr.string('direction', 'bidirectional')],
          'lstm',
        ),
        node('Transpose', ['Y'], ['Yt'], [attr.ints('perm', [0, 2, 1, 3])]),
        node('Reshape', ['Yt', 'shape3'], ['Y2']),
        node('GRU', ['Y2', 'gru.W', 'gru.R'], ['Ygru', 'Yh2'], [attr.int('hidden_size', GRU_HIDDEN)], 'gru'),
        node('Squeeze', ['Ygru', 'c.axis1'], ['Ygs']),
        node('RNN', ['Ygs', 'rnn.W', 'rnn.R'], ['Y3', 'Yh3'], [attr.int('hidden_size', 4)], 'rnn'),
      ],
    },
  });
}

export interface ZooModel {
  name: string;
  bytes: Uint8Array;
  /** Static shapes of the graph inputs. */
  inputs: Record<string, number[]>;
  /** Whether onnx 1.12's shape inference (opsets <= 17) can check it. */
  onnxOracle: boolean;
}

const INT64_MAX = 2n ** 63n - 1n;

function bigInts(name: string, values: readonly bigint[]): TensorDef {
  return { name, dataType: I64, dims: [values.length], rawData: new Uint8Array(BigInt64Array.from(values).buffer) };
}

/** Most shape rules at opset 17, on x [2, 4, 9, 10]. */
function zoo17(): ZooModel {
  const n = node;
  const nodes: NodeDef[] = [
    n('ConvTranspose', ['x', 'ct.w'], ['ct1'], [attr.ints('strides', [2, 2]), attr.ints('pads', [1, 1, 1, 1]), attr.ints('output_padding', [1, 1])]),
    n('ConvTranspose', ['x', 'ct2.w'], ['ct2'], [attr.ints('strides', [2, 2]), attr.int('group', 2)]),
    n('ConvTranspose', ['x', 'ct.w'], ['ct3'], [attr.ints('strides', [2, 2]), attr.ints('output_shape', [19, 21]), attr.string('auto_pad', 'SAME_UPPER')]),
    n('AveragePool', ['x'], ['ap'], [attr.ints('kernel_shape', [3, 3]), attr.ints('strides', [2, 2]), attr.ints('pads', [1, 1, 1, 1]), attr.int('ceil_mode', 1)]),
    n('MaxPool', ['x'], ['mp1', 'mp1.idx'], [attr.ints('kernel_shape', [3, 3]), attr.ints('strides', [2, 2]), attr.string('auto_pad', 'SAME_UPPER')]),
    n('MaxPool', ['x'], ['mp2'], [attr.ints('kernel_shape', [2, 2]), attr.ints('dilations', [2, 2])]),
    n('Conv', ['x', 'cv.w'], ['cv'], [attr.string('auto_pad', 'VALID'), attr.ints('dilations', [2, 2]), attr.ints('strides', [2, 1])]),
    n('Conv', ['x', 'cv.w'], ['cvs'], [attr.string('auto_pad', 'SAME_UPPER'), attr.ints('strides', [2, 3])]),
    n('GlobalMaxPool', ['x'], ['gmp']),
    n('Resize', ['x', '', 'rs.scales'], ['rs1'], [attr.string('mode', 'linear')]),
    n('Resize', ['x', '', '', 'rs.sizes'], ['rs2']),
    n('Pad', ['x', 'pad.pads'], ['pad']),
    n('Slice', ['x', 'sl.starts', 'sl.ends', 'sl.axes'], ['sl1']),
    n('Slice', ['x', 'sl2.starts', 'sl2.ends', 'sl2.axes', 'sl2.steps'], ['sl2']),
    n('Split', ['x', 'sp.split'], ['sp.a', 'sp.b'], [attr.int('axis', 3)]),
    n('Concat', ['sp.b', 'sp.a'], ['cat'], [attr.int('axis', -1)]),
    n('Tile', ['x', 'tile.reps'], ['tile']),
    n('Expand', ['ex.in', 'ex.shape'], ['ex']),
    n('Gather', ['x', 'ga.idx'], ['ga'], [attr.int('axis', 1)]),
    n('Equal', ['x', 'zero'], ['eq']),
    n('Where', ['eq', 'x', 'onef'], ['wh']),
    n('ReduceMean', ['x'], ['rm'], [attr.ints('axes', [2, 3]), attr.int('keepdims', 0)]),
    n('ReduceSum', ['x', 'rsum.axes'], ['rsum']),
    n('ReduceMax', ['x'], ['rmax']),
    n('ArgMax', ['x'], ['am'], [attr.int('axis', 2), attr.int('keepdims', 0)]),
    n('TopK', ['x', 'topk.k'], ['tk.v', 'tk.i']),
    n('Range', ['r.start', 'r.limit', 'r.delta'], ['range']),
    n('Shape', ['x'], ['shp']),
    n('Slice', ['shp', 'sh.s', 'sh.e'], ['shp01']),
    n('ConstantOfShape', ['shp01'], ['cos'], [attr.tensor('value', floats('v', [0.5], [1]))]),
    n('Einsum', ['x', 'es.w'], ['es1'], [attr.string('equation', 'bchw,ck->bkhw')]),
    n('Einsum', ['x'], ['es2'], [attr.string('equation', '...ij->...ji')]),
    n('Flatten', ['x'], ['fl1'], [attr.int('axis', 2)]),
    n('Flatten', ['x'], ['fl2'], [attr.int('axis', -1)]),
    n('InstanceNormalization', ['x', 'in.s', 'in.b'], ['inorm']),
    n('LayerNormalization', ['x', 'ln.s', 'ln.b'], ['lnorm'], [attr.int('axis', 2)]),
    n('Clip', ['x', 'clip.min', 'clip.max'], ['clip']),
    n('LeakyRelu', ['clip'], ['lrelu']),
    n('HardSigmoid', ['lrelu'], ['hsig']),
    n('HardSwish', ['hsig'], ['hswish']),
    n('Softplus', ['hswish'], ['splus']),
    n('DepthToSpace', ['x'], ['d2s'], [attr.int('blocksize', 2)]),
    n('Max', ['x', 'mx.b', 'zero'], ['mx']),
    n('Cast', ['x'], ['cast'], [attr.int('to', I64)]),
    n('Squeeze', ['rsum', 'sq.axes'], ['sq']),
    n('Unsqueeze', ['sq', 'usq.axes'], ['usq']),
    n('MatMul', ['x', 'mm.v10'], ['mm1']),
    n('MatMul', ['mm.v9', 'x'], ['mm2']),
    n('MatMul', ['mm.a', 'mm.b'], ['mm3']),
    n('Gemm', ['gemm.a', 'gemm.b'], ['gemm'], [attr.int('transA', 1), attr.int('transB', 1)]),
    n('OneHot', ['oh.idx', 'oh.depth', 'oh.values'], ['oh']),
    n('GatherElements', ['x', 'ge.idx'], ['ge'], [attr.int('axis', 3)]),
    n('GatherND', ['x', 'gnd.idx'], ['gnd']),
    n('Shape', ['x'], ['shp15'], [attr.int('start', 1), attr.int('end', -1)]),
    n('Concat', ['shp15', 'minus1'], ['shp15m'], [attr.int('axis', 0)]),
    n('Reshape', ['x', 'shp15m'], ['rs15']),
    n('Size', ['x'], ['size']),
    n('CumSum', ['x', 'cs.axis'], ['cumsum']),
    n('Transpose', ['x'], ['tr']),
    n('Softmax', ['x'], ['sm'], [attr.int('axis', 1)]),
    n('Reshape', ['x', 'rz.shape'], ['rz'], [attr.int('allowzero', 0)]),
  ]; // prettier-ignore
  const inits: TensorDef[] = [
    weight('ct.w', [4, 3, 3, 3]),
    weight('ct2.w', [4, 2, 2, 2]),
    weight('cv.w', [6, 4, 3, 3]),
    floats('rs.scales', [1, 1, 2, 1.5]),
    ints('rs.sizes', [2, 4, 5, 7]),
    ints('pad.pads', [0, 0, 1, 2, 0, 0, 3, 4]),
    bigInts('sl.starts', [-3n]),
    bigInts('sl.ends', [INT64_MAX]),
    ints('sl.axes', [3]),
    ints('sl2.starts', [-1, 1]),
    ints('sl2.ends', [-1000, 100]),
    ints('sl2.axes', [2, -1]),
    ints('sl2.steps', [-2, 3]),
    ints('sp.split', [3, 7]),
    ints('tile.reps', [1, 2, 1, 1]),
    weight('ex.in', [4, 1, 1]),
    ints('ex.shape', [2, 1, 1, 5]),
    ints('ga.idx', [0, 2, 1, 3], [2, 2]),
    floats('zero', [0], []),
    floats('onef', [1], []),
    ints('rsum.axes', [1]),
    ints('topk.k', [3]),
    ints('r.start', [0], []),
    ints('r.limit', [10], []),
    ints('r.delta', [3], []),
    ints('sh.s', [0]),
    ints('sh.e', [2]),
    weight('es.w', [4, 5]),
    floats('in.s', [1, 1, 1, 1]),
    floats('in.b', [0, 0, 0, 0]),
    weight('ln.s', [9, 10]),
    weight('ln.b', [9, 10]),
    floats('clip.min', [-0.2], []),
    floats('clip.max', [0.3], []),
    weight('mx.b', [10]),
    ints('sq.axes', [1]),
    ints('usq.axes', [0, -1]),
    weight('mm.v10', [10]),
    weight('mm.v9', [9]),
    weight('mm.a', [3, 1, 2, 5]),
    weight('mm.b', [4, 5, 6]),
    weight('gemm.a', [5, 3]),
    weight('gemm.b', [7, 5]),
    ints('oh.idx', [0, 1, 2, 3, 0, 1], [2, 3]),
    ints('oh.depth', [4], []),
    floats('oh.values', [0, 1]),
    ints('ge.idx', new Array<number>(2 * 4 * 9 * 3).fill(1), [2, 4, 9, 3]),
    ints('gnd.idx', [0, 1, 1, 2], [2, 2]),
    ints('cs.axis', [2], []),
    ints('rz.shape', [0, -1, 5]),
    ints('minus1', [-1]),
  ];
  return {
    name: 'zoo17',
    inputs: { x: [2, 4, 9, 10] },
    onnxOracle: true,
    bytes: encodeModel({
      graph: {
        name: 'zoo17',
        inputs: [input('x', [2, 4, 9, 10])],
        outputs: [input('ct1', [2, 3, 18, 20])],
        initializers: inits,
        nodes,
      },
    }),
  };
}

/** Older forms: attribute axes/splits/pads, Upsample, Slice attributes, TopK's k attribute (opset 9 and 11). */
function zooOld(opset: 9 | 11): ZooModel {
  const n = node;
  const nodes: NodeDef[] =
    opset === 9
      ? [
          n('Slice', ['x'], ['sl'], [attr.ints('starts', [1, -4]), attr.ints('ends', [100, -1]), attr.ints('axes', [2, 3])]),
          n('Upsample', ['x', 'up.scales'], ['up']),
          n('Pad', ['x'], ['pad'], [attr.ints('pads', [0, 1, 0, 2, 0, 1, 0, 2])]),
          n('TopK', ['x'], ['tk.v', 'tk.i'], [attr.int('k', 2), attr.int('axis', 1)]),
          n('Split', ['x'], ['sp.a', 'sp.b'], [attr.int('axis', 3)]),
          n('Unsqueeze', ['x'], ['usq'], [attr.ints('axes', [0, 5])]),
          n('Squeeze', ['usq'], ['sq'], [attr.ints('axes', [0])]),
          n('ReduceSum', ['x'], ['rsum'], [attr.ints('axes', [1]), attr.int('keepdims', 0)]),
          n('Softmax', ['x'], ['sm'], [attr.int('axis', 2)]),
        ]
      : [
          n('Split', ['x'], ['sp.a', 'sp.b', 'sp.c'], [attr.int('axis', 3), attr.ints('split', [2, 3, 5])]),
          n('GlobalAveragePool', ['x'], ['gap']),
          n('Squeeze', ['gap'], ['sq'], [attr.ints('axes', [2, 3])]),
          n('Resize', ['x', 'rs.roi', 'rs.scales'], ['rs'], [attr.string('mode', 'nearest')]),
          n('Resize', ['x', 'rs.roi', 'rs.empty', 'rs.sizes'], ['rs2']),
          n('Pad', ['x', 'pad.pads'], ['pad']),
          n('Unsqueeze', ['x'], ['usq'], [attr.ints('axes', [-1])]),
          n('ReduceMean', ['x'], ['rm'], [attr.ints('axes', [-1, 1])]),
        ]; // prettier-ignore
  const inits: TensorDef[] =
    opset === 9
      ? [floats('up.scales', [1, 1, 2, 3])]
      : [
          floats('rs.roi', []),
          floats('rs.scales', [1, 1, 0.5, 0.5]),
          floats('rs.empty', []),
          ints('rs.sizes', [2, 4, 3, 3]),
          ints('pad.pads', [0, 0, 2, 0, 0, 0, 0, 1]),
        ];
  return {
    name: `zoo${opset}`,
    inputs: { x: [2, 4, 9, 10] },
    onnxOracle: true,
    bytes: encodeModel({
      opsetImports: [{ domain: '', version: opset }],
      irVersion: opset === 9 ? 4 : 6,
      graph: {
        name: `zoo${opset}`,
        inputs: [input('x', [2, 4, 9, 10])],
        outputs: [opset === 9 ? input('sl', [2, 4, 8, 3]) : input('sp.a', [2, 4, 9, 2])],
        initializers: inits,
        nodes,
      },
    }),
  };
}

/** Opset 18 forms ORT knows and onnx 1.12 does not: Split num_outputs, ReduceMean axes input, Resize axes, Pad axes. */
function zoo18(): ZooModel {
  const n = node;
  const nodes: NodeDef[] = [
    n('Split', ['x'], ['sp.a', 'sp.b', 'sp.c'], [attr.int('axis', 3), attr.int('num_outputs', 3)]),
    n('ReduceMean', ['x', 'rm.axes'], ['rm'], [attr.int('keepdims', 0)]),
    n('Resize', ['x', '', 'rs.scales'], ['rs'], [attr.ints('axes', [2, 3])]),
    n('Pad', ['x', 'pad.pads', '', 'pad.axes'], ['pad']),
    n('AveragePool', ['x4'], ['ap'], [attr.ints('kernel_shape', [2, 2]), attr.ints('strides', [3, 3]), attr.ints('pads', [1, 1, 1, 1]), attr.int('ceil_mode', 1)]),
  ]; // prettier-ignore
  return {
    name: 'zoo18',
    inputs: { x: [2, 4, 9, 10], x4: [1, 1, 4, 4] },
    // Skipped against onnx: Debian's onnx 1.12 infers shapes up to opset 17 only; ORT checks it.
    onnxOracle: false,
    bytes: encodeModel({
      opsetImports: [{ domain: '', version: 18 }],
      irVersion: 8,
      graph: {
        name: 'zoo18',
        inputs: [input('x', [2, 4, 9, 10]), input('x4', [1, 1, 4, 4])],
        outputs: [input('rm', [2, 9])],
        initializers: [
          ints('rm.axes', [1, -1]),
          floats('rs.scales', [2, 0.5]),
          ints('pad.pads', [1, 2, 3, 4]),
          ints('pad.axes', [1, 3]),
        ],
        nodes,
      },
    }),
  };
}

/** com.microsoft fusions ONNX Runtime's optimizer emits (checked against ORT only). */
function zooMs(): ZooModel {
  const ms = (op: string, ins: string[], outs: string[], attrs: NodeDef['attributes'] = []): NodeDef => ({
    ...node(op, ins, outs, attrs),
    domain: 'com.microsoft',
  });
  const nodes: NodeDef[] = [
    ms('Gelu', ['x'], ['gelu']),
    ms('FastGelu', ['x', 'b16'], ['fgelu']),
    ms('BiasGelu', ['x', 'b16'], ['bgelu']),
    ms('QuickGelu', ['x'], ['qgelu']),
    ms('SkipLayerNormalization', ['x', 'gelu', 'g16', 'b16', 'b16'], ['sln', 'sln.mean', 'sln.inv', 'sln.sum']),
    ms('FusedMatMul', ['x', 'w8x16'], ['fmm'], [attr.int('transB', 1)]),
    ms('Attention', ['x', 'qkv.w', 'qkv.b'], ['att'], [attr.int('num_heads', 2)]),
    ms('MultiHeadAttention', ['x', 'gelu', 'fgelu'], ['mha'], [attr.int('num_heads', 2)]),
    ms(
      'FusedConv',
      ['img', 'conv.w', 'conv.b'],
      ['fconv'],
      [attr.string('activation', 'Relu'), attr.ints('pads', [1, 1, 1, 1])],
    ),
  ];
  return {
    name: 'zooMs',
    inputs: { x: [2, 5, 16], img: [1, 3, 8, 8] },
    // Skipped against onnx: its shape inference does not know com.microsoft ops; ORT checks it.
    onnxOracle: false,
    bytes: encodeModel({
      opsetImports: [
        { domain: '', version: 17 },
        { domain: 'com.microsoft', version: 1 },
      ],
      graph: {
        name: 'zooMs',
        inputs: [input('x', [2, 5, 16]), input('img', [1, 3, 8, 8])],
        outputs: [input('gelu', [2, 5, 16])],
        initializers: [
          weight('b16', [16]),
          floats('g16', new Array<number>(16).fill(1)),
          weight('w8x16', [8, 16]),
          weight('qkv.w', [16, 48]),
          weight('qkv.b', [48]),
          weight('conv.w', [4, 3, 3, 3]),
          weight('conv.b', [4]),
        ],
        nodes,
      },
    }),
  };
}

export function zooModels(): ZooModel[] {
  return [zoo17(), zooOld(9), zooOld(11), zoo18(), zooMs()];
}

/**
 * Y = X @ W with W stored as external data in `location` (model-builder writes no external
 * data, so the ModelProto is written here field by field, as onnx.proto numbers them).
 */
export function externalDataModel(location: string): Uint8Array {
  const valueInfo = (name: string, dims: number[]): ProtoWriter => {
    const shape = new ProtoWriter();
    for (const d of dims) shape.message(1, new ProtoWriter().varint(1, d)); // dim { dim_value }
    const tensorType = new ProtoWriter().varint(1, F).message(2, shape); // elem_type, shape
    return new ProtoWriter().string(1, name).message(2, new ProtoWriter().message(1, tensorType));
  };
  const w = tensorMessage({ name: 'W', dataType: F, dims: [4, 3] })
    .message(13, new ProtoWriter().string(1, 'location').string(2, location)) // external_data
    .message(13, new ProtoWriter().string(1, 'offset').string(2, '0'))
    .message(13, new ProtoWriter().string(1, 'length').string(2, '48'))
    .varint(14, 1); // data_location = EXTERNAL
  const graph = new ProtoWriter()
    .message(1, new ProtoWriter().string(1, 'X').string(1, 'W').string(2, 'Y').string(3, 'mm').string(4, 'MatMul'))
    .string(2, 'external')
    .message(5, w)
    .message(11, valueInfo('X', [2, 4]))
    .message(12, valueInfo('Y', [2, 3]));
  return new ProtoWriter()
    .varint(1, 8)
    .string(2, 'test')
    .message(7, graph)
    .message(8, new ProtoWriter().string(1, '').varint(2, 17))
    .finish();
}
