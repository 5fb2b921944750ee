import { describe, expect, it } from 'vitest';
import { UserError } from '../../../../src-main/core/errors.js';
import {
  attr,
  encodeModel,
  OnnxDataType,
  tensorMessage,
  type ModelDef,
} from '../../../../src-main/core/onnx/model-builder.js';
import { parseOnnxModel, type OnnxModel } from '../../../../src-main/core/onnx/onnx-parser.js';
import { ProtoWriter } from '../../../../src-main/core/onnx/protobuf-writer.js';
import { checkModels } from '../../../helpers/onnx-oracle.js';
import { modelAround, nestedIfs, reluNodesGraph } from '../../../helpers/hostile-onnx.js';
import {
  cnnModel,
  externalDataModel,
  floats,
  input,
  ints,
  node,
  transformerModel,
  weight,
} from '../workload/sample-models.js';
import { needOracle } from '../../../helpers/oracle.js';

const onnx = needOracle('onnx');

/** Every attribute type and tensor encoding: raw, float_data, int64 raw, fp16 raw, a Constant's tensor. */
function attributeModel(): ModelDef {
  const half = new Uint8Array(new Uint16Array([0x3c00, 0xc000, 0x3800]).buffer); // 1, -2, 0.5
  return {
    graph: {
      name: 'attrs',
      inputs: [input('x', ['batch', 3])],
      outputs: [input('y', ['batch', 3])],
      initializers: [
        { name: 'fd', dataType: OnnxDataType.FLOAT, dims: [3], floatData: [0.5, -1, 2] },
        ints('shape', [-1, 3]),
        { name: 'h', dataType: OnnxDataType.FLOAT16, dims: [3], rawData: half },
        weight('big', [100, 50]),
      ],
      nodes: [
        node('Add', ['x', 'fd'], ['a'], [], 'add'),
        node('Reshape', ['a', 'shape'], ['r'], [], 'reshape'),
        node(
          'LeakyRelu',
          ['r'],
          ['y'],
          [
            attr.float('alpha', 0.25),
            attr.int('i', -7),
            attr.ints('is', [1, -2, 2 ** 40]),
            attr.floats('fs', [1.5, -0.5]),
            attr.string('s', 'héllo'),
            attr.strings('ss', ['a', 'b']),
          ],
          'act',
        ),
        node('Constant', [], ['c'], [attr.tensor('value', ints('cv', [4, 5, 6], [3]))], 'const'),
      ],
    },
  };
}

describe('ONNX parser', () => {
  it('reads model metadata, nodes, attributes and value infos', () => {
    const m = parseOnnxModel(encodeModel({ ...attributeModel(), producerName: 'me', producerVersion: '9' }));
    expect(m).toMatchObject({ irVersion: 8, opset: 17, producerName: 'me', producerVersion: '9', externalFiles: [] });
    expect(m.opsets).toEqual([{ domain: '', version: 17 }]);
    expect(m.graph.name).toBe('attrs');
    expect(m.graph.inputs).toEqual([{ name: 'x', elemType: 1, dims: ['batch', 3], isTensor: true }]);
    const act = m.graph.nodes.find((n) => n.name === 'act');
    expect(act?.opType).toBe('LeakyRelu');
    expect(act?.domain).toBe('');
    expect(Object.fromEntries(act?.attributes ?? [])).toEqual({
      alpha: { type: 'FLOAT', value: 0.25 },
      i: { type: 'INT', value: -7 },
      is: { type: 'INTS', value: [1, -2, 2 ** 40] },
      fs: { type: 'FLOATS', value: [1.5, -0.5] },
      s: { type: 'STRING', value: 'héllo' },
      ss: { type: 'STRINGS', value: ['a', 'b'] },
    });
    const c = m.graph.nodes.find((n) => n.opType === 'Constant')?.attributes.get('value');
    expect(c).toMatchObject({ type: 'TENSOR', value: { dims: [3], dataType: 7, values: [4, 5, 6] } });
  });

  it('decodes small tensors, keeps only the size of large ones', () => {
    const m = parseOnnxModel(encodeModel(attributeModel()));
    const t = new Map(m.graph.initializers.map((i) => [i.name, i]));
    expect(t.get('fd')).toMatchObject({ dims: [3], elements: 3, byteLength: 12, values: [0.5, -1, 2], external: null });
    expect(t.get('shape')).toMatchObject({ dataType: 7, byteLength: 16, values: [-1, 3] });
    expect(t.get('h')).toMatchObject({ dataType: 10, byteLength: 6, values: [1, -2, 0.5] });
    expect(t.get('big')).toMatchObject({ dims: [100, 50], elements: 5000, byteLength: 20000, values: null });
  });

  it.skipIf(!onnx)('reads what the official parser reads', () => {
    const models = { cnn: cnnModel(), encoder: transformerModel(1) };
    const official = checkModels(Object.entries(models).map(([name, bytes]) => ({ name, bytes })));
    for (const [name, bytes] of Object.entries(models)) {
      const ref = official.get(name)?.model;
      expect(ref, name).toBeDefined();
      const m = parseOnnxModel(bytes);
      const sorted = (ns: OnnxModel['graph']['nodes']): string[] => ns.map((n) => n.outputs.join(',')).sort();
      expect(sorted(m.graph.nodes)).toEqual((ref?.nodes ?? []).map((n) => n.outputs.join(',')).sort());
      for (const n of ref?.nodes ?? []) {
        const mine = m.graph.nodes.find((x) => x.outputs.join() === n.outputs.join());
        expect(mine?.inputs).toEqual(n.inputs);
        expect(mine?.opType).toBe(n.opType);
        expect([...(mine?.attributes.keys() ?? [])].sort()).toEqual(Object.keys(n.attributes).sort());
      }
      expect(m.graph.inputs.map((i) => [i.name, i.elemType, i.dims])).toEqual(
        ref?.inputs.map((i) => [i.name, i.elemType, i.dims]),
      );
      expect(m.graph.initializers.map((i) => [i.name, i.dataType, i.dims])).toEqual(
        ref?.initializers.map((i) => [i.name, i.dataType, i.dims]),
      );
      for (const init of ref?.initializers ?? []) {
        const mine = m.graph.initializers.find((i) => i.name === init.name);
        if (mine?.values) expect(mine.values.slice(0, 4)).toEqual(init.first.map((v) => expect.closeTo(v, 5)));
      }
    }
  });

  it('records external data without reading it', () => {
    const m = parseOnnxModel(externalDataModel('weights.bin'));
    expect(m.externalFiles).toEqual(['weights.bin']);
    expect(m.graph.initializers[0]).toMatchObject({
      name: 'W',
      dims: [4, 3],
      byteLength: 48,
      values: null,
      external: { location: 'weights.bin', offset: 0, length: 48 },
    });
  });

  it('sorts nodes topologically, keeping the file order where it can', () => {
    const bytes = encodeModel({
      graph: {
        name: 'unsorted',
        inputs: [input('x', [2])],
        outputs: [input('z', [2])],
        nodes: [
          node('Relu', ['y'], ['z']),
          node('Neg', ['x'], ['w']),
          node('Abs', ['x'], ['y']),
          node('Sigmoid', ['w'], ['v']),
        ],
      },
    });
    expect(parseOnnxModel(bytes).graph.nodes.map((n) => n.opType)).toEqual(['Neg', 'Abs', 'Relu', 'Sigmoid']);
  });

  it('reports a cycle, naming a node on it', () => {
    const bytes = encodeModel({
      graph: {
        name: 'cycle',
        inputs: [input('x', [2])],
        outputs: [input('z', [2])],
        nodes: [
          node('Relu', ['x'], ['z']),
          node('Add', ['x', 'b'], ['a'], [], 'first'),
          node('Neg', ['a'], ['b'], [], 'second'),
          node('Abs', ['b'], ['c'], [], 'after'),
        ],
      },
    });
    expect(() => parseOnnxModel(bytes)).toThrow(UserError);
    expect(() => parseOnnxModel(bytes)).toThrow(/has a cycle \(node "(first|second)".*and 2 other/);
  });

  it('rejects a tensor produced by two nodes', () => {
    const bytes = encodeModel({
      graph: {
        name: 'dup',
        inputs: [input('x', [2])],
        outputs: [input('y', [2])],
        nodes: [node('Relu', ['x'], ['y'], [], 'one'), node('Neg', ['x'], ['y'], [], 'two')],
      },
    });
    expect(() => parseOnnxModel(bytes)).toThrow(/"y" is produced by two nodes/);
  });
});

describe('ONNX parser on bad input', () => {
  const fail = (bytes: Uint8Array): string => {
    try {
      parseOnnxModel(bytes);
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      const msg = (e as Error).message;
      expect(msg.split('\n')).toHaveLength(1);
      return msg;
    }
    throw new Error('parsed');
  };

  it('rejects empty input, garbage and text', () => {
    expect(fail(new Uint8Array())).toBe('not an ONNX model: the file is empty');
    let seed = 12345;
    const garbage = Uint8Array.from({ length: 4096 }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed >> 16;
    });
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...garbage.subarray(0, 200)]);
    expect(fail(garbage)).toMatch(/^not an ONNX model/);
    expect(fail(png)).toMatch(/^not an ONNX model/);
    const json = new TextEncoder().encode('{"model": "resnet", "layers": [1, 2, 3]}\n');
    expect(fail(json)).toBe('not an ONNX model: it is a JSON text file');
    expect(fail(new TextEncoder().encode('hello world, this is text'))).toBe('not an ONNX model: it is a text file');
  });

  it('rejects protobuf that is not a model', () => {
    expect(fail(new ProtoWriter().string(1, 'not a model').finish())).toMatch(/^not an ONNX model/);
    expect(fail(new ProtoWriter().varint(1, 8).finish())).toBe('not an ONNX model: it has no graph');
  });

  it('reports a truncated model as truncated', () => {
    const bytes = cnnModel();
    for (const keep of [0.1, 0.5, 0.9, 0.99]) {
      expect(fail(bytes.subarray(0, Math.floor(bytes.length * keep)))).toMatch(/^the ONNX file is truncated/);
    }
  });

  it('rejects unsupported opsets and IR versions', () => {
    const model = (opset: number, ir = 8): Uint8Array =>
      encodeModel({
        irVersion: ir,
        opsetImports: [{ domain: '', version: opset }],
        graph: {
          name: 'g',
          inputs: [input('x', [1])],
          outputs: [input('y', [1])],
          nodes: [node('Relu', ['x'], ['y'])],
        },
      });
    expect(fail(model(6))).toMatch(/^unsupported ONNX opset 6 \(this tool reads opsets 7 to 23\)/);
    expect(fail(model(24))).toMatch(/^unsupported ONNX opset 24/);
    expect(fail(model(17, 99))).toMatch(/^unsupported ONNX IR version 99/);
    expect(parseOnnxModel(model(7, 3)).opset).toBe(7);
    expect(parseOnnxModel(model(23, 11)).opset).toBe(23);
  });

  it('accepts a model of custom-domain ops that imports no default opset', () => {
    const bytes = encodeModel({
      opsetImports: [{ domain: 'my.ops', version: 1 }],
      graph: {
        name: 'g',
        inputs: [input('x', [1])],
        outputs: [input('y', [1])],
        initializers: [floats('k', [1])],
        nodes: [{ ...node('Magic', ['x', 'k'], ['y']), domain: 'my.ops' }],
      },
    });
    const m = parseOnnxModel(bytes);
    expect(m.opset).toBe(0);
    expect(m.graph.nodes[0]?.domain).toBe('my.ops');
  });
});

describe('bounded work for hostile models', () => {
  const refusal = (bytes: Uint8Array): string => {
    try {
      parseOnnxModel(bytes);
      return 'accepted';
    } catch (e) {
      return e instanceof UserError ? e.message : `not a UserError: ${String(e)}`;
    }
  };

  it('refuses more nodes than the cap in one line', () => {
    expect(refusal(modelAround(reluNodesGraph(200_001)))).toBe(
      'the graph has more than 200,000 nodes (counting subgraphs), over the cap of 200,000',
    );
    expect(parseOnnxModel(modelAround(reluNodesGraph(1000))).graph.nodes).toHaveLength(1000);
  });

  it('refuses subgraphs nested deeper than 64 levels, even 100k deep, without overflowing the stack', () => {
    expect(parseOnnxModel(modelAround(nestedIfs(64))).graph.nodes).toHaveLength(1);
    expect(refusal(modelAround(nestedIfs(65)))).toBe('subgraphs nest deeper than 64 levels');
    expect(refusal(modelAround(nestedIfs(100_000)))).toBe('subgraphs nest deeper than 64 levels');
  });

  it('refuses a tensor whose dimensions multiply past 2^36 elements, an initializer or a Constant', () => {
    const w = weight('w', [4, 4]);
    const claims = (dims: number[]): Uint8Array =>
      modelAround(new ProtoWriter().message(5, tensorMessage({ ...w, dims, rawData: new Uint8Array(0) })).finish());
    expect(refusal(claims([2 ** 20, 2 ** 20]))).toBe(
      'tensor "w" holds 1099511627776 elements (1048576 x 1048576), over the cap of 68719476736 (2^36)',
    );
    expect(refusal(claims([2 ** 18, 2 ** 18]))).toBe('accepted');
    const constant = new ProtoWriter()
      .message(
        1,
        new ProtoWriter()
          .string(2, 'c')
          .string(4, 'Constant')
          .message(
            5,
            new ProtoWriter()
              .string(1, 'value')
              .varint(20, 4)
              .message(5, tensorMessage({ ...w, dims: [2 ** 20, 2 ** 20], rawData: new Uint8Array(0) })),
          ),
      )
      .finish();
    expect(refusal(modelAround(constant))).toBe(
      'tensor "w" holds 1099511627776 elements (1048576 x 1048576), over the cap of 68719476736 (2^36)',
    );
  });

  it('refuses a tensor dimension over 2^40', () => {
    const huge = (dim: number | bigint): Uint8Array => {
      const shape = new ProtoWriter().message(1, new ProtoWriter().varint(1, dim));
      const tensorType = new ProtoWriter().varint(1, 1).message(2, shape);
      const valueInfo = new ProtoWriter().string(1, 'x').message(2, new ProtoWriter().message(1, tensorType));
      return modelAround(new ProtoWriter().message(11, valueInfo).finish());
    };
    expect(refusal(huge(2n ** 63n - 1n))).toBe(
      'tensor "x" has a dimension of 9223372036854775807, over the cap of 1099511627776 (2^40)',
    );
    expect(refusal(huge(2 ** 40))).toBe('accepted');
    const w = weight('w', [4, 4]);
    expect(
      refusal(
        modelAround(
          new ProtoWriter()
            .message(5, tensorMessage({ ...w, dims: [2 ** 41, 1], rawData: new Uint8Array(0) }))
            .finish(),
        ),
      ),
    ).toBe('tensor "w" has a dimension of 2199023255552, over the cap of 1099511627776 (2^40)');
  });
});
