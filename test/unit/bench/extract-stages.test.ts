import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src-main/core/errors.js';
import { extractSubmodel, graphInterface, splitModel } from '../../../bench/lib/extract-stages.js';
import { encodeModel, OnnxDataType, type ModelDef } from '../../../src-main/core/onnx/model-builder.js';
import { workloadFromOnnx } from '../../../src-main/core/workload/from-onnx.js';
import { checkModels } from '../../helpers/onnx-oracle.js';
import { needOracle } from '../../helpers/oracle.js';

const onnx = needOracle('onnx');
const f32 = (v: number[]): Uint8Array => new Uint8Array(new Float32Array(v).buffer);

/** Y = Relu((X + bias) * scale) + X, with an unused constant, a stored value_info and model metadata. */
function chain(): ModelDef {
  return {
    metadataProps: { origin: 'test' },
    graph: {
      name: 'chain',
      nodes: [
        { opType: 'Add', inputs: ['X', 'bias'], outputs: ['sum'], name: 'add' },
        { opType: 'Mul', inputs: ['sum', 'scale'], outputs: ['prod'], name: 'mul' },
        { opType: 'Relu', inputs: ['prod'], outputs: ['act'], name: 'relu' },
        { opType: 'Add', inputs: ['act', 'X'], outputs: ['Y'], name: 'skip' },
        { opType: 'Neg', inputs: ['bias'], outputs: ['unused'], name: 'neg' },
      ],
      inputs: [{ name: 'X', elemType: OnnxDataType.FLOAT, dims: ['batch', 3] }],
      outputs: [{ name: 'Y', elemType: OnnxDataType.FLOAT, dims: ['batch', 3] }],
      initializers: [
        { name: 'bias', dataType: OnnxDataType.FLOAT, dims: [3], rawData: f32([0.5, -1, 2]) },
        { name: 'scale', dataType: OnnxDataType.FLOAT, dims: [3], rawData: f32([2, -3, 4]) },
      ],
      valueInfo: [{ name: 'sum', elemType: OnnxDataType.FLOAT, dims: ['batch', 3] }],
    },
  };
}

const cpu = { executionProviders: ['cpu'], intraOpNumThreads: 1, logSeverityLevel: 3 as const };

async function run(bytes: Uint8Array, feeds: Record<string, ort.Tensor>): Promise<Record<string, ort.Tensor>> {
  const s = await ort.InferenceSession.create(bytes, cpu);
  try {
    return (await s.run(feeds)) as Record<string, ort.Tensor>;
  } finally {
    await s.release();
  }
}

describe('extractSubmodel', () => {
  const bytes = encodeModel(chain());

  it('keeps only the nodes and weights between the inputs and outputs given', async () => {
    const sub = extractSubmodel(bytes, {
      inputs: ['sum', 'X'],
      outputs: ['Y'],
      valueInfo: [{ name: 'sum', elemType: OnnxDataType.FLOAT, dims: [2, 3] }],
    });
    expect(sub.nodes).toBe(3);
    expect(sub.totalNodes).toBe(5);
    expect(sub.inputs).toEqual(['sum', 'X']);
    const sum = new ort.Tensor('float32', new Float32Array([1, 1, 1, -1, -1, -1]), [2, 3]);
    const x = new ort.Tensor('float32', new Float32Array([10, 20, 30, 40, 50, 60]), [2, 3]);
    const y = (await run(sub.bytes, { sum, X: x })).Y;
    // relu(sum * [2,-3,4]) + X
    expect([...(y?.data as Float32Array)]).toEqual([12, 20, 34, 40, 53, 60]);
  });

  it('drops the inputs a submodel does not read', () => {
    const sub = extractSubmodel(bytes, {
      inputs: ['X', 'prod'],
      outputs: ['act'],
      valueInfo: ['prod', 'act'].map((name) => ({ name, elemType: OnnxDataType.FLOAT, dims: ['batch', 3] })),
    });
    expect(sub.inputs).toEqual(['prod']);
    expect(sub.nodes).toBe(1);
  });

  it.skipIf(!onnx)('writes models the official checker accepts, weights and metadata intact', () => {
    const sub = extractSubmodel(bytes, { inputs: ['X'], outputs: ['sum'] });
    const r = checkModels([{ name: 'sub', bytes: sub.bytes }]).get('sub');
    expect(r?.error).toBeNull();
    expect(r?.model?.nodes.map((n) => n.name)).toEqual(['add']);
    expect(r?.model?.initializers).toEqual([{ name: 'bias', dataType: 1, dims: [3], first: [0.5, -1, 2] }]);
    expect(r?.model?.inputs).toEqual([{ name: 'X', elemType: 1, dims: ['batch', 3] }]);
    // `sum` is typed by the model's own value_info, and is not repeated there.
    expect(r?.model?.outputs).toEqual([{ name: 'sum', elemType: 1, dims: ['batch', 3] }]);
    expect(r?.model?.graphName).toBe('chain');
  });

  it('says which tensor it cannot reach or type', () => {
    expect(() => extractSubmodel(bytes, { inputs: ['sum'], outputs: ['Y'] })).toThrow(/tensor "X" is needed/);
    expect(() => extractSubmodel(bytes, { inputs: ['prod', 'X'], outputs: ['Y'] })).toThrow(
      /declares no type for "prod"/,
    );
    expect(() => extractSubmodel(bytes, { inputs: ['X'], outputs: [] })).toThrow(UserError);
    expect(() => extractSubmodel(new Uint8Array([8, 1]), { inputs: ['X'], outputs: ['Y'] })).toThrow(/no graph/);
  });

  it('refuses a cut that would only pass a graph input on', () => {
    expect(() => splitModel(bytes, ['act', 'X'])).toThrow(/graph input\(s\) X cross the cut/);
    expect(graphInterface(bytes)).toEqual({ inputs: ['X'], outputs: ['Y'] });
  });
});

describe('splitModel on a published CNN (PaddleOCR cls, weights in Constant nodes)', () => {
  const bytes = new Uint8Array(readFileSync('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx'));
  const batch = 2;
  const w = workloadFromOnnx(bytes, { name: 'cls', inputs: { x: [batch, 3, 48, 192] } });
  const shapes = new Map(w.nodes.flatMap((n) => n.outputs.map((o) => [o.name, o.dims] as const)));

  it('gives two stages whose chained outputs equal the whole model at every third layer boundary', async () => {
    const x = new ort.Tensor(
      'float32',
      Float32Array.from({ length: batch * 3 * 48 * 192 }, (_, i) => Math.sin(i * 0.37)),
      [batch, 3, 48, 192],
    );
    const whole = (await run(bytes, { x }))['softmax_0.tmp_0'];
    expect(whole?.dims).toEqual([batch, 2]);
    const layers = w.layers.slice(0, -1).filter((_, i) => i % 3 === 1);
    expect(layers.length).toBeGreaterThan(5);
    for (const layer of layers) {
      const valueInfo = layer.outTensors.map((name) => ({
        name,
        elemType: OnnxDataType.FLOAT,
        dims: shapes.get(name) ?? [],
      }));
      const { first, second } = splitModel(bytes, layer.outTensors, valueInfo);
      expect(first.inputs).toEqual(['x']);
      expect(second.inputs).toEqual(layer.outTensors);
      expect(first.nodes + second.nodes).toBeGreaterThanOrEqual(first.totalNodes);
      const mid = await run(first.bytes, { x });
      const y = (await run(second.bytes, mid))['softmax_0.tmp_0'];
      const a = whole?.data as Float32Array;
      const b = y?.data as Float32Array;
      for (let i = 0; i < a.length; i++) expect(b[i]).toBeCloseTo(a[i] as number, 5);
    }
  });
});
