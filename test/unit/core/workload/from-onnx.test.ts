import { describe, expect, it } from 'vitest';
import { UserError } from '../../../../src-main/core/errors.js';
import {
  attr,
  encodeModel,
  OnnxDataType,
  type NodeDef,
  type TensorDef,
} from '../../../../src-main/core/onnx/model-builder.js';
import { workloadFromOnnx } from '../../../../src-main/core/workload/from-onnx.js';
import { cnnModel, floats, I64, input, node, transformerModel, weight } from './sample-models.js';

describe('workloadFromOnnx', () => {
  it('imports a CNN: bindings, nodes with shapes and costs, parameters, layers', () => {
    const w = workloadFromOnnx(cnnModel(), { name: 'cnn', dims: { N: 2 } });
    expect(w).toMatchObject({ name: 'cnn', source: 'onnx', bindings: { N: 2 }, warnings: [] });
    expect(w.nodes.map((n) => n.opType)).toEqual([
      'Conv',
      'BatchNormalization',
      'Relu',
      'MaxPool',
      'Conv',
      'BatchNormalization',
      'Relu',
      'GlobalAveragePool',
      'Flatten',
      'Gemm',
      'Softmax',
    ]);
    expect(w.nodes[0]?.inputs).toEqual([
      { name: 'x', dims: [2, 3, 32, 32], dtype: 'fp32' },
      { name: 'c1.w', dims: [8, 3, 3, 3], dtype: 'fp32' },
      { name: 'c1.b', dims: [8], dtype: 'fp32' },
    ]);
    expect(w.nodes[0]?.outputs).toEqual([{ name: 'c1', dims: [2, 8, 32, 32], dtype: 'fp32' }]);
    const params = 8 * 27 + 8 + 4 * 8 + 16 * 4 * 9 + 4 * 16 + 160 + 10;
    expect(w.nodes.reduce((a, n) => a + n.params, 0)).toBe(params);
    expect(w.paramBytes).toBe(params * 4);
    expect(w.layers).toHaveLength(3);
  });

  it('keeps input dtypes, and gives nameless or duplicate nodes unique names', () => {
    const bytes = encodeModel({
      graph: {
        name: 'names',
        inputs: [input('ids', ['b', 4], I64)],
        outputs: [input('y', ['b', 4])],
        nodes: [
          { opType: 'Cast', inputs: ['ids'], outputs: ['f'], attributes: [attr.int('to', 1)] },
          node('Relu', ['f'], ['r'], [], 'same'),
          node('Neg', ['r'], ['y'], [], 'same'),
        ],
      },
    });
    const w = workloadFromOnnx(bytes, { name: 'n', inputs: { ids: [3, 4] } });
    expect(w.nodes.map((n) => n.name)).toEqual(['Cast_0', 'same', 'same_2']);
    expect(w.nodes[0]).toMatchObject({ dtype: 'int64', inputs: [{ dtype: 'int64', dims: [3, 4] }] });
    expect(w.bindings).toEqual({ b: 3 });
  });

  it('gives a weight to the node that computes with it, through casts folded at load time', () => {
    const half = new Uint8Array(64 * 32 * 2);
    const bytes = encodeModel({
      graph: {
        name: 'fp16w',
        inputs: [input('x', [4, 64])],
        outputs: [input('y', [4, 32])],
        initializers: [{ name: 'w16', dataType: OnnxDataType.FLOAT16, dims: [64, 32], rawData: half }],
        nodes: [
          node('Cast', ['w16'], ['w32'], [attr.int('to', 1)]),
          node('Constant', [], ['k'], [attr.tensor('value', floats('kv', [1, 2, 3, 4], [4, 1]))]),
          node('MatMul', ['x', 'w32'], ['mm']),
          node('Mul', ['mm', 'k'], ['y']),
        ],
      },
    });
    const w = workloadFromOnnx(bytes, { name: 'w' });
    expect(w.nodes.map((n) => [n.name, n.params, n.bytes > 0])).toEqual([
      ['w32', 0, false],
      ['k', 0, false],
      ['mm', 64 * 32, true],
      ['y', 4, true],
    ]);
    expect(w.paramBytes).toBe(64 * 32 * 2 + 16);
  });

  it('flags ops no family fits, with a byte estimate, and leaves shape-only ops free', () => {
    const bytes = encodeModel({
      opsetImports: [
        { domain: '', version: 17 },
        { domain: 'my.ops', version: 1 },
      ],
      graph: {
        name: 'custom',
        inputs: [input('x', [2, 8])],
        outputs: [input('y', [2, 8])],
        valueInfo: [input('m', [2, 8])],
        nodes: [
          { ...node('Magic', ['x'], ['m']), domain: 'my.ops' },
          node('Flatten', ['m'], ['f']),
          node('Squeeze', ['f'], ['y']),
        ],
      },
    });
    const w = workloadFromOnnx(bytes, { name: 'c' });
    expect(w.nodes.map((n) => [n.name, n.family, n.kernel, n.bytes])).toEqual([
      ['m', null, null, 2 * 64],
      ['f', null, null, 0],
      ['y', null, null, 0],
    ]);
    expect(w.warnings).toEqual([
      "no shape rule for my.ops.Magic (1 node): their outputs' shapes are unknown",
      '1 node (Magic): no predictor family; estimated from bytes moved',
    ]);
  });

  it('reports unknown shapes as empty dims and a fallback', () => {
    const bytes = encodeModel({
      graph: {
        name: 'nz',
        inputs: [input('x', [3, 3])],
        outputs: [input('y', ['k', 2], I64)],
        nodes: [node('NonZero', ['x'], ['nz']), node('Transpose', ['nz'], ['y'])],
      },
    });
    const w = workloadFromOnnx(bytes, { name: 'nz' });
    expect(w.nodes[1]).toMatchObject({ family: null, bytes: 1, outputs: [{ name: 'y', dims: [], dtype: 'int64' }] });
    expect(w.warnings).toEqual([
      'NonZero node "nz": NonZero has a data-dependent shape; its outputs\' shapes are unknown',
      '2 nodes (NonZero, Transpose): shapes unknown; estimated from bytes moved',
    ]);
  });

  it('imports a transformer with symbolic dims', () => {
    const w = workloadFromOnnx(transformerModel(2), { name: 'enc', dims: { batch: 1, seq: 128 } });
    const gemmFlops = w.nodes.filter((n) => n.family === 'gemm').reduce((a, n) => a + n.flops, 0);
    // Per block: 4 D x D projections and the two FF GEMMs over 128 tokens, plus QK^T and AV.
    const perBlock = 2 * 128 * (4 * 64 * 64 + 2 * 64 * 128) + 2 * 2 * 128 * 128 * 64;
    expect(gemmFlops).toBe(2 * perBlock);
    expect(w.bindings).toEqual({ batch: 1, seq: 128 });
  });

  it('imports a 100 MB model (weights are never copied: only their sizes are kept)', () => {
    const layers = 24;
    const nodes: NodeDef[] = [];
    const inits: TensorDef[] = [];
    let x = 'x';
    for (let i = 0; i < layers; i++) {
      // 1024 x 1024 fp32 = 4 MiB per layer; zero bytes cost nothing to generate.
      inits.push({ name: `w${i}`, dataType: OnnxDataType.FLOAT, dims: [1024, 1024], rawData: new Uint8Array(4 << 20) });
      inits.push(weight(`b${i}`, [1024]));
      nodes.push(node('MatMul', [x, `w${i}`], [`m${i}`]), node('Add', [`m${i}`, `b${i}`], [`a${i}`]));
      nodes.push(node('Relu', [`a${i}`], [`r${i}`]));
      x = `r${i}`;
    }
    const bytes = encodeModel({
      graph: {
        name: 'big',
        inputs: [input('x', ['batch', 1024])],
        outputs: [input(x, ['batch', 1024])],
        initializers: inits,
        nodes,
      },
    });
    expect(bytes.length).toBeGreaterThan(100e6);
    const w = workloadFromOnnx(bytes, { name: 'big', dims: { batch: 8 } });
    expect(w.paramBytes).toBe(layers * (4 << 20) + layers * 4096);
    expect(w.layers).toHaveLength(layers);
    expect(w.nodes[0]).toMatchObject({ kernel: { op: 'MatMul', shape: { B: 1, M: 8, N: 1024, K: 1024 } } });
  });
});

describe('costs that cannot be counted', () => {
  it('refuses in one line a node whose FLOPs are past 2^53 (MatMul of 2^40-wide inputs), never "0.00 GFLOP"', () => {
    const side = 2 ** 40;
    const bytes = encodeModel({
      graph: {
        name: 'huge',
        inputs: [input('a', [side, side]), input('b', [side, side])],
        outputs: [input('y', [side, side])],
        nodes: [node('MatMul', ['a', 'b'], ['y'], [], 'mm')],
      },
    });
    expect(() => workloadFromOnnx(bytes, { name: 'huge' })).toThrow(
      /^node "mm" \(MatMul\) costs [\d.e+]+ FLOPs and [\d.e+]+ bytes, past 9007199254740991 \(2\^53 - 1\); the model's dimensions are too large to cost$/,
    );
    expect(() => workloadFromOnnx(bytes, { name: 'huge' })).toThrow(UserError);
  });
});
