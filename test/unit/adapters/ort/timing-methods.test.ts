import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';
import { KernelRunner } from '../../../../src-main/adapters/ort/kernel-runner.js';
import { buildKernelModel, kernelChainable } from '../../../../src-main/core/kernels/build.js';
import { chainParts, isChainable } from '../../../../src-main/core/kernels/chain.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { parseOnnxModel } from '../../../../src-main/core/onnx/onnx-parser.js';
import { wholeReadingsMedianUs } from '../../../../src-main/core/profiler/trace-cost.js';
import {
  BINDING_ELEMENTS,
  CHAIN_LENGTHS,
  CHAIN_ROUNDS,
  chainModel,
  fitBinding,
  fitOverhead,
  fitWake,
  traceRunNodeCost,
  withoutTraceCost,
} from '../../../../src-main/core/profiler/overhead.js';
import { tempDir } from '../../../helpers/cli.js';
import { tensorFor } from '../../../helpers/onnx-oracle-ort.js';

const rule = { warmupRuns: 2, minRepetitions: 7, maxRepetitions: 60, targetCi: 0.05, budgetMs: 150 };
const cls = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');

describe('the per-run and per-node overhead (pure)', () => {
  it('builds a chain of exactly n Relu nodes from X to Y', () => {
    const m = parseOnnxModel(chainModel(7));
    expect(m.graph.nodes.map((n) => n.opType)).toEqual(Array(7).fill('Relu'));
    expect(m.graph.nodes[0]?.inputs).toEqual(['X']);
    expect(m.graph.nodes[6]?.outputs).toEqual(['Y']);
    expect(() => chainModel(0)).toThrow(RangeError);
  });

  it('fits T(N) = run + node * N and keeps the ORT trace cost beside it', () => {
    const fit = fitOverhead(
      [1, 16, 64, 256].map((n) => ({ nodes: n, medianUs: 12 + 0.25 * n })),
      4,
    );
    expect(fit?.runUs).toBeCloseTo(12, 6);
    expect(fit?.nodeUs).toBeCloseTo(0.25, 6);
    expect(fit?.profilerNodeUs).toBe(4);
    expect(fitOverhead([{ nodes: 1, medianUs: 3 }])).toBeNull();
  });

  it('takes the ORT trace cost off a trace time, never below a tenth of it', () => {
    expect(withoutTraceCost(50, 2, 4)).toBe(42);
    expect(withoutTraceCost(5, 2, 4)).toBe(0.5);
    expect(withoutTraceCost(50, 2, null)).toBe(50);
  });
});

describe('chained kernels (pure graph, real ONNX Runtime numerics)', () => {
  it('chains shape-preserving kernels and refuses the others', () => {
    expect(kernelChainable(makeKernel('Add', 'fp32', { n: 1000 }))).toBe(true);
    expect(kernelChainable(makeKernel('LayerNormalization', 'fp32', { rows: 8, cols: 64 }))).toBe(true);
    expect(kernelChainable(makeKernel('MatMul', 'fp32', { B: 1, M: 8, N: 16, K: 32 }))).toBe(false);
    expect(kernelChainable(makeKernel('MatMul', 'fp32', { B: 1, M: 8, N: 32, K: 32 }))).toBe(true);
    const parts = {
      nodes: [{ opType: 'ReduceSum', inputs: ['X'], outputs: ['Y'] }],
      inputs: [{ name: 'X', dims: [4, 8], dtype: 'fp32' as const }],
      output: { name: 'Y', dims: [4, 1], dtype: 'fp32' as const },
      initializers: [],
    };
    expect(isChainable(parts)).toBe(false);
    expect(() => chainParts(parts, 3)).toThrow(/cannot be chained/);
  });

  it('computes the kernel applied k times: Add(x, b) chained 5 times is x + 5b', async () => {
    const spec = makeKernel('Add', 'fp32', { n: 64 });
    const built = buildKernelModel(spec, { chain: 5 });
    expect(parseOnnxModel(built.model).graph.nodes).toHaveLength(5);
    const s = await ort.InferenceSession.create(built.model);
    const feeds = Object.fromEntries(built.inputs.map((i, k) => [i.name, tensorFor(i, undefined, 3 + k)]));
    const out = (await s.run(feeds))[built.outputName]?.data as Float32Array;
    const [x, b] = built.inputs.map((i) => feeds[i.name]?.data as Float32Array);
    for (let i = 0; i < 64; i++) expect(out[i]).toBeCloseTo((x?.[i] ?? 0) + 5 * (b?.[i] ?? 0), 4);
    await s.release();
  });

  it.each(['LSTM', 'GRU'] as const)(
    'chains a %s through its state: 3 copies are 3 steps of the model fed its own h',
    async (op) => {
      const spec = makeKernel(op, 'fp32', { seq: 2, batch: 3, input: 5, hidden: 4 });
      const one = buildKernelModel(spec);
      const three = buildKernelModel(spec, { chain: 3 });
      expect(one.inputs.map((i) => [i.name, i.dims])).toEqual([
        ['H0', [1, 3, 4]],
        ['X', [2, 3, 5]],
      ]);
      expect(parseOnnxModel(three.model).graph.nodes.map((n) => n.opType)).toEqual([op, op, op]);
      const feeds = Object.fromEntries(one.inputs.map((i, k) => [i.name, tensorFor(i, undefined, 3 + k)]));
      const s1 = await ort.InferenceSession.create(one.model);
      let h = feeds['H0'] as ort.Tensor;
      for (let step = 0; step < 3; step++) h = (await s1.run({ ...feeds, H0: h }))[one.outputName] as ort.Tensor;
      const s3 = await ort.InferenceSession.create(three.model);
      const chained = (await s3.run(feeds))[three.outputName]?.data as Float32Array;
      expect(chained).toHaveLength(12);
      (h.data as Float32Array).forEach((v, i) => expect(chained[i]).toBeCloseTo(v, 5));
      expect(new Set(chained).size).toBeGreaterThan(1);
      await Promise.all([s1.release(), s3.release()]);
    },
  );
});

describe('kernel runner: untraced timings (real ONNX Runtime)', () => {
  const runner = new KernelRunner({ runnerPath: 'dist/kernel-runner.js' });
  afterAll(() => runner.close());

  it('times chains of tiny nodes over rounds: a positive per-run cost, and the ORT trace cost per node', async () => {
    const o = await runner.runOverhead({
      ep: { name: 'cpu', threads: 1 },
      rule,
      lengths: [...CHAIN_LENGTHS],
      rounds: CHAIN_ROUNDS,
      bindingElements: [...BINDING_ELEMENTS],
    });
    expect(o.ok).toBe(true);
    if (!o.ok) return;
    expect(o.points.map((p) => p.nodes)).toEqual([...CHAIN_LENGTHS]);
    expect(o.points.every((p) => p.medianUs > 0)).toBe(true);
    // 256 nodes cost more than one: the per-node cost is real.
    expect(o.points[3]?.medianUs).toBeGreaterThan(o.points[0]?.medianUs ?? Infinity);
    expect(o.traceNodeUs).toBeGreaterThan(0);
    // The readings it came from are kept, whole µs (ORT's trace), 256 nodes x 10 runs; read again they give it.
    const readings = o.traceReadings ?? [];
    expect(readings.reduce((a, g) => a + g.count, 0)).toBe(2560);
    expect(readings.every((g) => Number.isInteger(g.us))).toBe(true);
    expect(wholeReadingsMedianUs(readings)).toBe(o.traceNodeUs);
    // The shortest and longest chains ORT-traced: model_run grows with the nodes.
    expect(o.tracedRuns?.map((p) => p.nodes)).toEqual([1, 256]);
    expect(o.tracedRuns?.[1]?.modelRunUs).toBeGreaterThan(o.tracedRuns?.[0]?.modelRunUs ?? Infinity);
    // One-node models as callers run them: 8 bytes per element in and out, the wall above model_run.
    expect(o.binding?.map((b) => b.bytes)).toEqual(BINDING_ELEMENTS.map((e) => 8 * e));
    expect(o.binding?.every((b) => b.wallUs > 0 && b.modelRunUs > 0)).toBe(true);
    const fit = fitOverhead(o.points, o.traceNodeUs);
    const perNode = traceRunNodeCost(o.tracedRuns ?? [], fit?.nodeUs ?? 0);
    const binding = fitBinding(o.binding ?? [], perNode ?? 0, fit?.runUs ?? 0);
    expect(binding?.nsPerByte).toBeGreaterThan(0);
  });

  it("times the pool's wake-up chains at 2 threads and at one, on real sessions", async () => {
    const o = await runner.runOverhead({
      ep: { name: 'cpu', threads: 2 },
      rule,
      lengths: [1, 16],
      wakeLengths: [1, 4],
    });
    expect(o.ok).toBe(true);
    if (!o.ok) return;
    expect(o.wake?.atThreads.map((p) => p.nodes)).toEqual([1, 4]);
    expect(o.wake?.atOneThread.map((p) => p.nodes)).toEqual([1, 4]);
    expect([...(o.wake?.atThreads ?? []), ...(o.wake?.atOneThread ?? [])].every((p) => p.medianUs > 0)).toBe(true);
    expect(fitWake(o.wake?.atThreads ?? [], o.wake?.atOneThread ?? [])).toBeGreaterThanOrEqual(0);
  });

  it('times a kernel alone and chained, alternating, with the ORT trace off', async () => {
    const spec = makeKernel('Add', 'fp32', { n: 1 << 16 });
    const o = await runner.run({ spec, ep: { name: 'cpu', threads: 1 }, rule, chain: 5 });
    expect(o.ok).toBe(true);
    if (!o.ok) return;
    expect(o.chained?.copies).toBe(5);
    expect(o.chained?.singleUs.length).toBe(o.chained?.chainUs.length);
    expect(o.providers).toEqual([]);
    const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;
    expect(median(o.chained?.chainUs ?? [])).toBeGreaterThan(median(o.chained?.singleUs ?? []));
  });

  it('at 2 threads times a kernel alone, then its chain, each session alone: paired samples', async () => {
    const spec = makeKernel('Add', 'fp32', { n: 1 << 16 });
    const o = await runner.run({ spec, ep: { name: 'cpu', threads: 2 }, rule, chain: 5 });
    expect(o.ok).toBe(true);
    if (!o.ok) return;
    expect(o.chained?.copies).toBe(5);
    expect(o.chained?.singleUs.length).toBeGreaterThan(0);
    expect(o.chained?.singleUs.length).toBe(o.chained?.chainUs.length);
    expect(o.kernelUs).toHaveLength(o.chained?.chainUs.length ?? -1);
    expect([...(o.chained?.singleUs ?? []), ...(o.chained?.chainUs ?? [])].every((v) => v > 0)).toBe(true);
  });

  it('measures a model end to end with the ORT trace off, then attributes in a traced pass', async () => {
    const o = await runner.runModel({
      modelPath: cls,
      inputs: [{ name: 'x', dims: [1, 3, 48, 192], dtype: 'fp32' }],
      ep: { name: 'cpu', threads: 1 },
      rule,
      attributionRuns: 5,
    });
    expect(o.ok).toBe(true);
    if (!o.ok) return;
    expect(o.tracedWallUs).toHaveLength(5);
    expect(o.kernelUs).toHaveLength(5);
    expect(o.modelRunUs).toHaveLength(5);
    const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;
    // Hundreds of nodes: the ORT trace's cost per node shows.
    expect(median(o.tracedWallUs)).toBeGreaterThan(median(o.wallUs));
    expect(o.outputShapes).toBeTruthy();
    // Every traced node is named by its first output, an output of the graph ORT executes.
    const { written, out } = await writeExecutedCls();
    expect(written.ok).toBe(true);
    const outputs = new Set(parseOnnxModel(new Uint8Array(readFileSync(out))).graph.nodes.map((n) => n.outputs[0]));
    const traced = Object.keys(o.byNodeUs);
    expect(traced.length).toBeGreaterThan(100);
    for (const name of traced) expect(outputs.has(o.nodeOutputs?.[name])).toBe(true);
  });

  /** PaddleOCR cls's executed graph at 1 thread, written to a new folder (weights in w.bin). */
  async function writeExecutedCls(): Promise<{
    written: Awaited<ReturnType<KernelRunner['optimize']>>;
    dir: string;
    out: string;
  }> {
    const dir = tempDir();
    const out = path.join(dir, 'cls.executed.onnx');
    const written = await runner.optimize({
      modelPath: cls,
      ep: { name: 'cpu', threads: 1 },
      outPath: out,
      weightsFile: 'w.bin',
    });
    return { written, dir, out };
  }

  it('writes the graph ONNX Runtime executes, with the weights in a side file', async () => {
    const { written: o, dir, out } = await writeExecutedCls();
    expect(o.ok).toBe(true);
    const m = parseOnnxModel(new Uint8Array(readFileSync(out)));
    expect(m.graph.nodes.length).toBeGreaterThan(0);
    // Batch norms are folded into the convs: the executed graph has none.
    expect(m.graph.nodes.some((n) => n.opType === 'BatchNormalization')).toBe(false);
    expect(existsSync(path.join(dir, 'w.bin'))).toBe(true);
  });

  it('says why a model cannot be optimized', async () => {
    const dir = tempDir();
    const bad = path.join(dir, 'bad.onnx');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(bad, 'not a model');
    const o = await runner.optimize({
      modelPath: bad,
      ep: { name: 'cpu', threads: 1 },
      outPath: path.join(dir, 'o.onnx'),
      weightsFile: 'w.bin',
    });
    expect(o.ok).toBe(false);
    if (!o.ok) expect(o.error).toMatch(/session creation failed/);
  });
});
