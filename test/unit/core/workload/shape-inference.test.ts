import { describe, expect, it } from 'vitest';
import { UsageError, UserError } from '../../../../src-main/core/errors.js';
import { attr, encodeModel } from '../../../../src-main/core/onnx/model-builder.js';
import { parseOnnxModel } from '../../../../src-main/core/onnx/onnx-parser.js';
import { inferShapes, type ShapeBindings } from '../../../../src-main/core/workload/shape-inference.js';
import { compareShapes, exposeAllOutputs, oracleShapes } from '../../../helpers/onnx-shape-oracle.js';
import { ortShapes } from '../../../helpers/onnx-shape-oracle-ort.js';
import {
  cnnModel,
  D,
  FF,
  HEADS,
  input,
  ints,
  node,
  recurrentModel,
  transformerModel,
  weight,
  zooModels,
  type ZooModel,
} from './sample-models.js';
import { needOracle } from '../../../helpers/oracle.js';

const onnx = needOracle('onnx');

const infer = (bytes: Uint8Array, bind: ShapeBindings = {}): ReturnType<typeof inferShapes> =>
  inferShapes(parseOnnxModel(bytes), bind);

const cases: (ZooModel & { bind: ShapeBindings })[] = [
  { name: 'cnn', bytes: cnnModel(), inputs: { x: [2, 3, 32, 32] }, onnxOracle: true, bind: { dims: { N: 2 } } },
  {
    name: 'transformer',
    bytes: transformerModel(2),
    inputs: { x: [2, 7, D], mask: [2, 7] },
    onnxOracle: true,
    bind: { dims: { batch: 2, seq: 7 } },
  },
  {
    name: 'recurrent',
    bytes: recurrentModel(),
    inputs: { X: [5, 3, 16] },
    onnxOracle: true,
    bind: { dims: { seq: 5, batch: 3 } },
  },
  ...zooModels().map((z) => ({ ...z, bind: { inputs: z.inputs } })),
];

describe('shape inference against the official ONNX shape inference and ONNX Runtime', () => {
  for (const c of cases) {
    it.skipIf(!onnx || !c.onnxOracle)(`${c.name}: every shape onnx infers`, () => {
      const r = infer(c.bytes, c.bind);
      const { checked, mismatches } = compareShapes(oracleShapes(c.bytes, c.inputs), (n) => r.tensors.get(n)?.dims);
      expect(mismatches).toEqual([]);
      expect(checked).toBeGreaterThan(5);
      expect(r.warnings).toEqual([]);
    });

    it.skipIf(!onnx)(`${c.name}: every tensor ONNX Runtime produces`, async () => {
      const r = infer(c.bytes, c.bind);
      const types = Object.fromEntries([...r.tensors].map(([k, v]) => [k, v.dtype]));
      const run = await ortShapes(exposeAllOutputs(c.bytes, types), c.inputs);
      const { checked, mismatches } = compareShapes(run.shapes, (n) => r.tensors.get(n)?.dims);
      expect(mismatches).toEqual([]);
      expect(checked).toBe(run.shapes.size);
      expect(checked).toBeGreaterThan(5);
    });
  }
});

describe('constant folding of shape computations', () => {
  it('folds Shape -> Gather -> Unsqueeze -> Concat into the Reshape target', () => {
    const r = infer(transformerModel(1), { dims: { batch: 3, seq: 11 } });
    expect(r.tensors.get('l0.split_shape')).toMatchObject({
      dims: [4],
      value: [3, 11, HEADS, D / HEADS],
      constant: true,
    });
    expect(r.tensors.get('l0.q.heads')?.dims).toEqual([3, 11, HEADS, D / HEADS]);
    expect(r.tensors.get('l0.scores')?.dims).toEqual([3, HEADS, 11, 11]);
    expect(r.tensors.get('l0.ff1.lin')?.dims).toEqual([3, 11, FF]);
    expect(r.tensors.get('y')?.dims).toEqual([3, 11, D]);
    expect(r.tensors.get('l0.q.lin')?.constant).toBeUndefined();
    expect(r.bindings).toEqual({ batch: 3, seq: 11 });
  });

  it('folds arithmetic, Cast, Slice, Range and ConstantOfShape on small values', () => {
    const bytes = encodeModel({
      graph: {
        name: 'fold',
        inputs: [input('x', ['n', 6])],
        outputs: [input('y', ['n', 3, 2])],
        initializers: [
          ints('two', [2], []),
          ints('zero', [0]),
          ints('one', [1]),
          ints('two1', [2]),
          ints('one0', [1], []),
          ints('r0', [0], []),
          ints('r1', [5], []),
        ],
        nodes: [
          node('Shape', ['x'], ['s']),
          node('Div', ['s', 'two'], ['half']), // [n/2, 3]
          node('Slice', ['half', 'one', 'two1'], ['last']), // [3]
          node('Cast', ['last'], ['lastf'], [attr.int('to', 1)]),
          node('Slice', ['s', 'zero', 'one'], ['first']), // [n]
          node('Concat', ['first', 'last', 'two1'], ['target'], [attr.int('axis', 0)]),
          node('Reshape', ['x', 'target'], ['y']),
          node('Range', ['r0', 'r1', 'one0'], ['rng']),
          node('ConstantOfShape', ['last'], ['zeros']),
        ],
      },
    });
    const r = infer(bytes, { dims: { n: 4 } });
    expect(r.tensors.get('half')?.value).toEqual([2, 3]);
    expect(r.tensors.get('lastf')).toMatchObject({ dtype: 1, value: [3] });
    expect(r.tensors.get('target')?.value).toEqual([4, 3, 2]);
    expect(r.tensors.get('y')?.dims).toEqual([4, 3, 2]);
    expect(r.tensors.get('rng')).toMatchObject({ dims: [5], value: [0, 1, 2, 3, 4] });
    expect(r.tensors.get('zeros')).toMatchObject({ dims: [3], value: [0, 0, 0], constant: true });
  });
});

describe('binding inputs', () => {
  const dynamic = (dims: (number | string)[]): Uint8Array =>
    encodeModel({
      graph: {
        name: 'dyn',
        inputs: [input('x', dims)],
        outputs: [input('y', dims)],
        nodes: [node('Relu', ['x'], ['y'])],
      },
    });

  it('binds symbolic dims by name and whole inputs by shape', () => {
    expect(infer(dynamic(['batch', 3, 'h', 'w']), { dims: { batch: 1, h: 64, w: 48 } }).tensors.get('y')?.dims).toEqual(
      [1, 3, 64, 48],
    );
    const r = infer(dynamic(['batch', 3, 'h', 'w']), { inputs: { x: [2, 3, 8, 8] } });
    expect(r.tensors.get('y')?.dims).toEqual([2, 3, 8, 8]);
    expect(r.bindings).toEqual({ batch: 2, h: 8, w: 8 });
  });

  it('names every unbound symbolic dim at once, with the flags that bind them', () => {
    expect(() => infer(dynamic(['batch', 3, 'height', 'width']), { dims: { batch: 1 } })).toThrow(UserError);
    expect(() => infer(dynamic(['batch', 3, 'height', 'width']), { dims: { batch: 1 } })).toThrow(
      'input "x" (dims Nx3xNxN) has 2 unbound symbolic dims: bind them with --dim height=VALUE --dim width=VALUE, or give the whole input with --input x=Nx3xNxN (N replaced by sizes)',
    );
    expect(() => infer(dynamic(['batch', 3, 'height', 8]), { dims: { batch: 1 } })).toThrow(
      'input "x" (dims Nx3xNx8) has 1 unbound symbolic dim: bind it with --dim height=VALUE, or give the whole input with --input x=Nx3xNx8 (N replaced by sizes)',
    );
  });

  it('names the unbound dims of several inputs in one error, each dim once', () => {
    const twoInputs = encodeModel({
      graph: {
        name: 'ids-and-mask',
        inputs: [input('ids', ['batch', 'seq']), input('mask', ['batch', 'seq'])],
        outputs: [input('y', ['batch', 'seq'])],
        nodes: [node('Add', ['ids', 'mask'], ['y'])],
      },
    });
    expect(() => infer(twoInputs, {})).toThrow(
      "the model's inputs (ids: NxN, mask: NxN) have 2 unbound symbolic dims: bind them with --dim batch=VALUE --dim seq=VALUE, or give whole inputs with --input ids=NxN --input mask=NxN (N replaced by sizes)",
    );
    expect(infer(twoInputs, { dims: { batch: 2, seq: 7 } }).tensors.get('y')?.dims).toEqual([2, 7]);
  });

  it('asks for the whole shape of an input with an unnamed dynamic dim', () => {
    const bytes = dynamic([1, 3, 'h', 'w']);
    // An exporter's unnamed dim: neither dim_value nor dim_param. Rewrite 'h' as such by hand.
    const model = parseOnnxModel(bytes);
    const x = model.graph.inputs[0];
    if (x?.dims) x.dims[2] = null;
    expect(() => inferShapes(model, { dims: { w: 5 } })).toThrow(
      'input "x" has an unnamed dynamic dim at axis 2: give its whole shape with --input x=1x3xNxN (N replaced by sizes)',
    );
    expect(inferShapes(model, { inputs: { x: [1, 3, 4, 5] } }).tensors.get('y')?.dims).toEqual([1, 3, 4, 5]);
  });

  it('rejects bindings that do not fit the model', () => {
    const bytes = dynamic(['batch', 3]);
    expect(() => infer(bytes, { inputs: { nope: [1, 3] } })).toThrow(/no input named "nope" \(its inputs: x\)/);
    expect(() => infer(bytes, { inputs: { x: [1, 3, 4] } })).toThrow(/has 3 dims; the model's input has 2/);
    expect(() => infer(bytes, { inputs: { x: [1, 4] } })).toThrow(/axis 1 of the model's input is fixed at 3/);
    expect(() => infer(bytes, { dims: { batch: 0 } })).toThrow(UsageError);
    expect(() => infer(bytes, { dims: { batch: 2 }, inputs: { x: [1, 3] } })).toThrow(
      /dim "batch" is bound to 2 but --input x makes it 1/,
    );
  });

  it('warns about a --dim the model does not have', () => {
    const r = infer(dynamic(['batch', 3]), { dims: { batch: 1, seq: 128 } });
    expect(r.warnings).toEqual(["--dim seq: the model's inputs have no such dim (its dims: batch)"]);
  });
});

describe('unknown shapes', () => {
  it('warns once at a data-dependent op and leaves what follows unknown', () => {
    const bytes = encodeModel({
      graph: {
        name: 'nz',
        inputs: [input('x', [4, 5])],
        outputs: [input('y', [2, 'k'])],
        nodes: [
          node('NonZero', ['x'], ['nz']),
          node('Transpose', ['nz'], ['t']),
          node('Relu', ['x'], ['r']),
          node('Cast', ['t'], ['y'], [attr.int('to', 1)]),
        ],
      },
    });
    const r = infer(bytes);
    expect(r.warnings).toEqual([
      'NonZero node "nz": NonZero has a data-dependent shape; its outputs\' shapes are unknown',
    ]);
    expect(r.tensors.get('t')?.dims).toBeNull();
    expect(r.tensors.get('r')?.dims).toEqual([4, 5]);
    expect(r.unknownNodes.size).toBe(3);
  });

  it('takes a static shape the file records for an op it cannot infer', () => {
    const bytes = encodeModel({
      opsetImports: [
        { domain: '', version: 17 },
        { domain: 'custom', version: 1 },
      ],
      graph: {
        name: 'vi',
        inputs: [input('x', ['b', 8])],
        outputs: [input('y', ['b', 4])],
        valueInfo: [input('m', ['b', 4])],
        initializers: [weight('w', [4, 4])],
        nodes: [{ ...node('Magic', ['x'], ['m']), domain: 'custom' }, node('MatMul', ['m', 'w'], ['y'])],
      },
    });
    const r = infer(bytes, { dims: { b: 3 } });
    expect(r.tensors.get('m')?.dims).toEqual([3, 4]);
    expect(r.tensors.get('y')?.dims).toEqual([3, 4]);
    expect(r.warnings).toEqual(["no shape rule for custom.Magic (1 node): their outputs' shapes are unknown"]);
  });

  it('reports shapes that do not broadcast instead of guessing', () => {
    const bytes = encodeModel({
      graph: {
        name: 'bad',
        inputs: [input('a', [2, 3]), input('b', [4, 3])],
        outputs: [input('c', [2, 3])],
        nodes: [node('Add', ['a', 'b'], ['c'], [], 'add')],
      },
    });
    const r = infer(bytes);
    expect(r.warnings[0]).toMatch(/^Add node "add": shapes \[2,3\] and \[4,3\] do not broadcast/);
    expect(r.tensors.get('c')?.dims).toEqual([2, 3]); // from the graph output's declared shape
  });
});

describe('recurrent layouts', () => {
  it('puts batch first with layout 1', () => {
    const bytes = encodeModel({
      graph: {
        name: 'gru1',
        inputs: [input('X', [3, 5, 16])],
        outputs: [input('Y', [3, 5, 2, 8])],
        initializers: [weight('W', [2, 24, 16]), weight('R', [2, 24, 8])],
        nodes: [
          node(
            'GRU',
            ['X', 'W', 'R'],
            ['Y', 'Yh'],
            [attr.int('hidden_size', 8), attr.int('layout', 1), attr.string('direction', 'bidirectional')],
          ),
        ],
      },
    });
    const r = infer(bytes);
    expect(r.tensors.get('Y')?.dims).toEqual([3, 5, 2, 8]);
    expect(r.tensors.get('Yh')?.dims).toEqual([3, 2, 8]);
  });
});
