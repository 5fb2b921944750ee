import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { attr, encodeModel, OnnxDataType, type ModelDef } from '../../../../src-main/core/onnx/model-builder.js';
import { TOOL_VERSION } from '../../../../src-main/core/version.js';
import { checkModels } from '../../../helpers/onnx-oracle.js';
import { needOracle } from '../../../helpers/oracle.js';

const onnx = needOracle('onnx');

/** Y = (X + bias) * scale, with a symbolic batch dim, every attribute type, and both tensor encodings. */
function sampleModel(): ModelDef {
  const rawBias = new Uint8Array(new Float32Array([0.5, -1, 2]).buffer);
  return {
    includeMlOpset: true,
    graph: {
      name: 'sample',
      nodes: [
        { opType: 'Add', inputs: ['X', 'bias'], outputs: ['sum'], name: 'add' },
        { opType: 'Mul', inputs: ['sum', 'scale'], outputs: ['prod'], name: 'mul' },
        {
          opType: 'Identity',
          inputs: ['prod'],
          outputs: ['Y'],
          name: 'id',
          attributes: [],
        },
        {
          opType: 'Constant',
          inputs: [],
          outputs: ['unused_const'],
          name: 'const',
          attributes: [
            attr.tensor('value', {
              name: 'c',
              dataType: OnnxDataType.INT64,
              dims: [2],
              rawData: new Uint8Array(new BigInt64Array([5n, -6n]).buffer),
            }),
          ],
        },
        {
          opType: 'Transpose',
          inputs: ['prod'],
          outputs: ['T'],
          name: 'tr',
          attributes: [attr.ints('perm', [1, 0])],
        },
        {
          opType: 'LeakyRelu',
          inputs: ['T'],
          outputs: ['L'],
          name: 'lr',
          attributes: [attr.float('alpha', 0.25)],
        },
        {
          opType: 'Softmax',
          inputs: ['L'],
          outputs: ['S'],
          name: 'sm',
          attributes: [attr.int('axis', -1)],
        },
        {
          opType: 'Resize',
          inputs: ['S', '', 'scales'],
          outputs: ['R'],
          name: 'rs',
          attributes: [attr.string('mode', 'nearest')],
        },
      ],
      inputs: [{ name: 'X', elemType: OnnxDataType.FLOAT, dims: ['batch', 3] }],
      outputs: [
        { name: 'Y', elemType: OnnxDataType.FLOAT, dims: ['batch', 3] },
        { name: 'R', elemType: OnnxDataType.FLOAT, dims: [3, 'batch'] },
      ],
      initializers: [
        { name: 'bias', dataType: OnnxDataType.FLOAT, dims: [3], rawData: rawBias },
        { name: 'scale', dataType: OnnxDataType.FLOAT, dims: [3], floatData: [2, 3, 4] },
        { name: 'scales', dataType: OnnxDataType.FLOAT, dims: [2], floatData: [1, 1] },
      ],
      valueInfo: [{ name: 'sum', elemType: OnnxDataType.FLOAT, dims: ['batch', 3] }],
    },
  };
}

describe('ONNX model builder', () => {
  it.skipIf(!onnx)('is read back field by field by the official parser and passes the checker', () => {
    const bytes = encodeModel(sampleModel());
    const r = checkModels([{ name: 'sample', bytes }]).get('sample');
    expect(r?.error).toBeNull();
    const m = r?.model;
    expect(m?.irVersion).toBe(8);
    expect(m?.producerName).toBe('pipedejavu');
    expect(m?.producerVersion).toBe(TOOL_VERSION);
    expect(m?.opsets).toEqual([
      { domain: '', version: 17 },
      { domain: 'ai.onnx.ml', version: 3 },
    ]);
    expect(m?.graphName).toBe('sample');
    expect(m?.nodes.map((n) => n.opType)).toEqual([
      'Add',
      'Mul',
      'Identity',
      'Constant',
      'Transpose',
      'LeakyRelu',
      'Softmax',
      'Resize',
    ]);
    expect(m?.nodes[0]).toMatchObject({ name: 'add', domain: '', inputs: ['X', 'bias'], outputs: ['sum'] });
    expect(m?.nodes[3]?.attributes).toEqual({ value: 'tensor' });
    expect(m?.nodes[4]?.attributes).toEqual({ perm: [1, 0] });
    expect(m?.nodes[5]?.attributes).toEqual({ alpha: 0.25 });
    expect(m?.nodes[6]?.attributes).toEqual({ axis: -1 });
    expect(m?.nodes[7]?.attributes).toEqual({ mode: 'nearest' });
    expect(m?.nodes[7]?.inputs).toEqual(['S', '', 'scales']);
    expect(m?.inputs).toEqual([{ name: 'X', elemType: 1, dims: ['batch', 3] }]);
    expect(m?.outputs[1]).toEqual({ name: 'R', elemType: 1, dims: [3, 'batch'] });
    expect(m?.initializers).toEqual([
      { name: 'bias', dataType: 1, dims: [3], first: [0.5, -1, 2] },
      { name: 'scale', dataType: 1, dims: [3], first: [2, 3, 4] },
      { name: 'scales', dataType: 1, dims: [2], first: [1, 1] },
    ]);
  });

  it.skipIf(!onnx)('writes FLOATS attributes and INT64 attribute tensors the parser decodes', () => {
    const bytes = encodeModel({
      graph: {
        name: 'g',
        nodes: [
          {
            opType: 'ConstantOfShape',
            inputs: ['shape'],
            outputs: ['Y'],
            attributes: [
              attr.tensor('value', { name: 'v', dataType: OnnxDataType.FLOAT, dims: [1], floatData: [1.5] }),
            ],
          },
        ],
        inputs: [{ name: 'shape', elemType: OnnxDataType.INT64, dims: [2] }],
        outputs: [{ name: 'Y', elemType: OnnxDataType.FLOAT, dims: ['a', 'b'] }],
      },
    });
    expect(checkModels([{ name: 'g', bytes }]).get('g')?.error).toBeNull();
    const floats = encodeModel({
      graph: {
        name: 'f',
        nodes: [{ opType: 'Upsample', inputs: ['X'], outputs: ['Y'], attributes: [attr.floats('scales', [1, 2])] }],
        inputs: [{ name: 'X', elemType: OnnxDataType.FLOAT, dims: [1, 2] }],
        outputs: [{ name: 'Y', elemType: OnnxDataType.FLOAT, dims: [1, 4] }],
      },
      opsetImports: [{ domain: '', version: 8 }],
      irVersion: 3,
    });
    const r = checkModels([{ name: 'f', bytes: floats }]).get('f');
    expect(r?.error).toBeNull();
    expect(r?.model?.nodes[0]?.attributes).toEqual({ scales: [1, 2] });
    expect(r?.model?.irVersion).toBe(3);
  });

  it('runs in ONNX Runtime with the expected result', async () => {
    const session = await ort.InferenceSession.create(encodeModel(sampleModel()), {
      executionProviders: ['cpu'],
      logSeverityLevel: 3,
    });
    const x = new ort.Tensor('float32', new Float32Array([1, 2, 3, 4, 5, 6]), [2, 3]);
    const out = await session.run({ X: x });
    expect(Array.from(out.Y?.data as Float32Array)).toEqual([3, 3, 20, 9, 12, 32]);
    expect(out.R?.dims).toEqual([3, 2]);
    await session.release();
  });

  it('rejects float_data for a non-FLOAT tensor and a wrong value count', () => {
    const graph = (t: { dataType: 1 | 10; floatData: number[] }): ModelDef => ({
      graph: {
        name: 'g',
        nodes: [],
        inputs: [],
        outputs: [],
        initializers: [{ name: 't', dims: [2], ...t }],
      },
    });
    expect(() => encodeModel(graph({ dataType: OnnxDataType.FLOAT16, floatData: [1, 2] }))).toThrow(/FLOAT/);
    expect(() => encodeModel(graph({ dataType: OnnxDataType.FLOAT, floatData: [1] }))).toThrow(/1 values for 2/);
  });
});
