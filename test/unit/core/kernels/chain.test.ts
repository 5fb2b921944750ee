import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { buildKernelModel, kernelChainable } from '../../../../src-main/core/kernels/build.js';
import { CHAIN_COPIES, fanParts, viewShapes } from '../../../../src-main/core/kernels/chain.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import type { KernelSpec } from '../../../../src-main/core/kernels/types.js';
import { parseOnnxModel } from '../../../../src-main/core/onnx/onnx-parser.js';
import { tempDir } from '../../../helpers/cli.js';
import { checkModels } from '../../../helpers/onnx-oracle.js';
import { tensorFor } from '../../../helpers/onnx-oracle-ort.js';
import { needOracle } from '../../../helpers/oracle.js';

/** Kernels whose output cannot feed them again: timed on accelerators as a fan. */
const notChainable: KernelSpec[] = [
  makeKernel('MatMul', 'fp32', { B: 1, M: 8, N: 16, K: 32 }),
  makeKernel('MatMul', 'fp32', { B: 2, M: 8, N: 16, K: 12 }),
  makeKernel('Gemm', 'fp32', { M: 8, N: 24, K: 16 }),
  makeKernel('Conv', 'fp32', { N: 1, C: 4, H: 8, W: 8, K: 8, R: 3, S: 3, stride: 1, groups: 1 }),
  makeKernel('Conv', 'fp32', { N: 1, C: 4, H: 8, W: 8, K: 4, R: 3, S: 3, stride: 2, groups: 1, act: 1 }),
  makeKernel('ReduceSum', 'fp32', { rows: 8, cols: 32 }),
  makeKernel('ReduceMean', 'fp32', { rows: 8, cols: 32 }),
  makeKernel('Transpose', 'fp32', { rows: 8, cols: 16 }),
  // Square: shaped to chain, but ORT merges consecutive Transposes (inverse pairs cancel).
  makeKernel('Transpose', 'fp32', { rows: 16, cols: 16 }),
  makeKernel('Cast', 'fp32', { n: 64 }),
  makeKernel('MaxPool', 'fp32', { N: 1, C: 4, H: 8, W: 8, R: 2, stride: 2 }),
  makeKernel('AveragePool', 'fp32', { N: 1, C: 4, H: 8, W: 8, R: 3, stride: 2 }),
  makeKernel('GlobalAveragePool', 'fp32', { N: 1, C: 4, H: 8, W: 8 }),
  makeKernel('Concat', 'fp32', { rows: 4, cols: 32, parts: 2 }),
  makeKernel('Resize', 'fp32', { N: 1, C: 2, H: 4, W: 4, scale: 2 }),
];

const feedsFor = (inputs: { name: string; dims: number[]; dtype: 'fp32' }[]): Record<string, ort.Tensor> =>
  Object.fromEntries(inputs.map((i, k) => [i.name, tensorFor(i, undefined, 3 + k)]));

/** Op types of the nodes ONNX Runtime ran, from its profile trace. */
async function ranOps(model: Uint8Array, feeds: Record<string, ort.Tensor>): Promise<{ ops: string[]; y: ort.Tensor }> {
  const prefix = path.join(tempDir(), 'fan');
  const s = await ort.InferenceSession.create(model, {
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    intraOpNumThreads: 1,
    enableProfiling: true,
    profileFilePrefix: prefix,
  });
  const out = await s.run(feeds);
  s.endProfiling();
  await s.release();
  const dir = path.dirname(prefix);
  const file = readdirSync(dir).find((f) => f.startsWith('fan_') && f.endsWith('.json'));
  const events = JSON.parse(readFileSync(path.join(dir, file ?? ''), 'utf8')) as {
    cat: string;
    name: string;
    args?: { op_name?: string };
  }[];
  const ops = events
    .filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time'))
    .map((e) => e.args?.op_name ?? '');
  return { ops, y: out.Y as ort.Tensor };
}

describe('fan form (pure)', () => {
  it('gives distinct equivalent views, the literal dims first; rank 1 goes to higher ranks past three', () => {
    const v = viewShapes([4, 8], 5);
    expect(v[0]).toEqual([4, 8]);
    expect(new Set(v.map((s) => s.join(','))).size).toBe(5);
    expect(v.every((s) => s.length === 2)).toBe(true);
    const one = viewShapes([64], 5);
    expect(one.slice(0, 3)).toEqual([[64], [-1], [0]]);
    expect(one.slice(3)).toEqual([
      [1, -1],
      [-1, 1],
    ]);
  });

  it('builds K copies that share weights, each reading the input through its own Reshape; only the last writes Y', () => {
    for (const spec of notChainable) expect(kernelChainable(spec)).toBe(false);
    const spec = makeKernel('Gemm', 'fp32', { M: 8, N: 24, K: 16 });
    const m = parseOnnxModel(buildKernelModel(spec, { chain: CHAIN_COPIES }).model);
    const ops = m.graph.nodes.map((n) => n.opType);
    expect(ops.filter((o) => o === 'Reshape')).toHaveLength(CHAIN_COPIES);
    expect(ops.filter((o) => o === 'Gemm')).toHaveLength(CHAIN_COPIES);
    expect(m.graph.nodes.filter((n) => n.outputs.includes('Y'))).toHaveLength(1);
    // W and bias once, one shape per copy.
    expect(m.graph.initializers.filter((t) => t.name === 'W' || t.name === 'bias')).toHaveLength(2);
    // A fan of one keeps its view: the single model differs from a copy of the fan by nothing.
    const single = parseOnnxModel(buildKernelModel(spec, { chain: 1 }).model);
    expect(single.graph.nodes.map((n) => n.opType)).toEqual(['Reshape', 'Gemm']);
    expect(() =>
      fanParts({ nodes: [], inputs: [], output: { name: 'Y', dims: [1], dtype: 'fp32' }, initializers: [] }, 2),
    ).toThrow(/no data input/);
  });
});

describe.skipIf(!needOracle('onnx'))('fan and chain models pass the official ONNX checker', () => {
  it('checks every non-chainable kernel as a fan of 1 and of K, and chains of K', () => {
    const models = notChainable.flatMap((spec) =>
      [1, CHAIN_COPIES].map((chain) => ({
        name: `${spec.id}x${chain}`,
        bytes: buildKernelModel(spec, { chain }).model,
      })),
    );
    models.push({
      name: 'square-matmul-chain',
      bytes: buildKernelModel(makeKernel('MatMul', 'fp32', { B: 1, M: 8, N: 16, K: 16 }), { chain: CHAIN_COPIES })
        .model,
    });
    const results = checkModels(models);
    for (const m of models)
      expect({ name: m.name, error: results.get(m.name)?.error }).toEqual({ name: m.name, error: null });
  });
});

describe('fan and chain models on the CPU EP do what they say', () => {
  it('runs all K copies of a fan (none merged away) and its output is one application of the kernel', async () => {
    for (const spec of notChainable) {
      const alone = buildKernelModel(spec);
      const fan = buildKernelModel(spec, { chain: CHAIN_COPIES });
      const feeds = feedsFor(alone.inputs as { name: string; dims: number[]; dtype: 'fp32' }[]);
      const a = await ranOps(alone.model, feeds);
      const f = await ranOps(fan.model, feeds);
      // The node the kernel is about (on CPUs with NCHWc, convs also get reorders, which the
      // unconsumed copies do not need).
      const op = spec.op;
      const count = (ops: string[]): number => ops.filter((o) => o === op).length;
      expect({ id: spec.id, copies: count(f.ops) }).toEqual({ id: spec.id, copies: CHAIN_COPIES * count(a.ops) });
      expect([...f.y.dims]).toEqual([...a.y.dims]);
      expect(Array.from(f.y.data as Float32Array)).toEqual(Array.from(a.y.data as Float32Array));
    }
  });

  it('a chain of K square MatMuls is X W^K', async () => {
    const spec = makeKernel('MatMul', 'fp32', { B: 1, M: 3, N: 4, K: 4 });
    const built = buildKernelModel(spec, { chain: 3, weightsAsInputs: true });
    expect(built.inputs.map((i) => i.name)).toEqual(['A', 'W']);
    const feeds = feedsFor(built.inputs as { name: string; dims: number[]; dtype: 'fp32' }[]);
    const { ops, y } = await ranOps(built.model, feeds);
    expect(ops.filter((o) => o === 'MatMul')).toHaveLength(3);
    let x = Array.from(feeds.A?.data as Float32Array);
    const w = Array.from(feeds.W?.data as Float32Array);
    for (let c = 0; c < 3; c++) {
      const next = new Array<number>(12).fill(0);
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 4; j++)
          for (let k = 0; k < 4; k++)
            next[i * 4 + j] = (next[i * 4 + j] ?? 0) + (x[i * 4 + k] ?? 0) * (w[k * 4 + j] ?? 0);
      x = next;
    }
    const got = Array.from(y.data as Float32Array);
    x.forEach((v, i) => expect(got[i]).toBeCloseTo(v, 4));
  });
});
