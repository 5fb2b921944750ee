import { describe, expect, it } from 'vitest';
import { parseOnnxModel } from '../../../../src-main/core/onnx/onnx-parser.js';
import {
  bindingUs,
  deviceRunUs,
  fitBinding,
  fitOverhead,
  fitParallelOp,
  fitWake,
  parallelChainModel,
  traceRunNodeCost,
  tracedLabelUs,
} from '../../../../src-main/core/profiler/overhead.js';

describe('per-run and per-node overhead', () => {
  it("takes the pool's wake-up as the parallel chain's intercept at the thread count less at one thread", () => {
    const line = (a: number, b: number): { nodes: number; medianUs: number }[] =>
      [1, 4, 16].map((nodes) => ({ nodes, medianUs: a + b * nodes }));
    expect(fitWake(line(13, 3.5), line(10.5, 5))).toBeCloseTo(2.5, 9);
    // Faster at more threads (the copies split too): never negative.
    expect(fitWake(line(10, 3.5), line(10.8, 5))).toBe(0);
    expect(fitWake(line(13, 3.5).slice(0, 1), line(10, 5))).toBeNull();
  });

  it("takes one parallel op's cost as the chain's time per MatMul at N threads less an ideal split of its 1-thread time", () => {
    const line = (a: number, b: number): { nodes: number; medianUs: number }[] =>
      [1, 4, 16].map((nodes) => ({ nodes, medianUs: a + b * nodes }));
    // 64^3 is split 2 ways at 2 threads: 3.5 - 5 / 2 = 1 µs per op.
    expect(fitParallelOp(line(13, 3.5), line(10.5, 5), 2)).toBeCloseTo(1, 9);
    // At 8 threads MLAS gives a 64^3 GEMM 5 of them: 1.5 - 5 / 5.
    expect(fitParallelOp(line(13, 1.5), line(10.5, 5), 8)).toBeCloseTo(0.5, 9);
    // A perfect split (or better) costs nothing; too few points determine nothing.
    expect(fitParallelOp(line(13, 2), line(10.5, 5), 2)).toBe(0);
    expect(fitParallelOp(line(13, 3.5).slice(0, 1), line(10, 5), 2)).toBeNull();
  });

  it('builds a chain of n square MatMuls sharing one weight', () => {
    const m = parseOnnxModel(parallelChainModel(3, 8));
    expect(m.graph.nodes.map((n) => n.opType)).toEqual(['MatMul', 'MatMul', 'MatMul']);
    expect(m.graph.nodes.every((n) => n.inputs[1] === 'W')).toBe(true);
    expect(() => parallelChainModel(0)).toThrow(RangeError);
  });

  it('fits T(N) = runUs + nodeUs * N over the chain lengths', () => {
    const o = fitOverhead([
      { nodes: 1, medianUs: 10.5 },
      { nodes: 16, medianUs: 18 },
      { nodes: 256, medianUs: 138 },
    ]);
    expect(o?.runUs).toBeCloseTo(10, 6);
    expect(o?.nodeUs).toBeCloseTo(0.5, 6);
  });

  it('keeps the line when one chain length was timed through a disturbance', () => {
    // A profile of this machine: the 64-node chain read 52.2 µs where the others put it near 23.
    const o = fitOverhead([
      { nodes: 1, medianUs: 8.85 },
      { nodes: 16, medianUs: 12.37 },
      { nodes: 64, medianUs: 52.2 },
      { nodes: 256, medianUs: 65.9 },
    ]);
    expect(o?.runUs).toBeGreaterThan(8);
    expect(o?.runUs).toBeLessThan(9.5);
    expect(o?.nodeUs).toBeCloseTo(0.23, 2);
  });

  it('says what the ORT trace adds to model_run per node beyond the untraced per-node cost', () => {
    const traced = [
      { nodes: 1, modelRunUs: 12 },
      { nodes: 256, modelRunUs: 12 + 255 * 8.3 },
    ];
    expect(traceRunNodeCost(traced, 0.3)).toBeCloseTo(8, 6);
    expect(traceRunNodeCost(traced.slice(0, 1), 0.3)).toBeNull();
  });
});

describe('the Node binding, measured apart', () => {
  // Device time of each one-node model = model_run - 5 (the profiler's part); binding = wall - device.
  const samples = [
    { bytes: 128, wallUs: 9 + 128 * 0.00004 + 1, modelRunUs: 1 + 5 },
    { bytes: 131_072, wallUs: 9 + 131_072 * 0.00004 + 3, modelRunUs: 3 + 5 },
    { bytes: 2_097_152, wallUs: 9 + 2_097_152 * 0.00004 + 20, modelRunUs: 20 + 5 },
  ];

  it('fits a per-call and a per-byte cost from models whose inputs and outputs grow', () => {
    const b = fitBinding(samples, 5, 12);
    expect(b?.nsPerByte).toBeCloseTo(0.04, 6);
    expect(b?.perCallUs).toBeCloseTo(9, 3);
    expect(b?.points.map((p) => p.bytes)).toEqual([128, 131_072, 2_097_152]);
  });

  it('is moved little by one disturbed size (a collector pause), and needs two sizes', () => {
    const disturbed = samples.map((s, i) => (i === 1 ? { ...s, wallUs: s.wallUs + 150 } : s));
    expect(fitBinding(disturbed, 5, 12)?.nsPerByte).toBeCloseTo(0.04, 2);
    expect(fitBinding(samples.slice(0, 1), 5, 12)).toBeNull();
  });

  it('is not moved by a slow largest size (Node’s collector in its slow phase): two profiles keep one slope', () => {
    // The 2 MiB call 30x slower, as in one of two back-to-back profiles: the median of the three
    // pairs' slopes would follow it (two of them end there).
    const slow = samples.map((s, i) => (i === 2 ? { ...s, wallUs: s.wallUs * 30 } : s));
    expect(fitBinding(slow, 5, 12)?.nsPerByte).toBeCloseTo(0.04, 2);
    const firstSlow = samples.map((s, i) => (i === 0 ? { ...s, wallUs: s.wallUs + 200 } : s));
    expect(fitBinding(firstSlow, 5, 12)?.nsPerByte).toBeCloseTo(0.04, 2);
  });

  it('keeps the per-call cost inside the per-run cost it is part of, and never negative', () => {
    expect(fitBinding(samples, 5, 4)?.perCallUs).toBe(4);
    const slower = samples.map((s) => ({ ...s, modelRunUs: s.modelRunUs + 50 }));
    expect(fitBinding(slower, 5, 12)?.perCallUs).toBe(0);
  });

  it('leaves the device its own per-run cost and prices a call by its bytes', () => {
    const binding = { perCallUs: 9, nsPerByte: 0.04, points: [] };
    expect(deviceRunUs({ runUs: 12, binding })).toBe(3);
    expect(deviceRunUs({ runUs: 12 })).toBe(12);
    expect(deviceRunUs({ runUs: 5, binding })).toBe(0);
    expect(bindingUs(binding, 1_000_000)).toBeCloseTo(49, 6);
    expect(bindingUs(null, 1_000_000)).toBe(0);
  });
});

describe('tracedLabelUs: a label from trace times', () => {
  it('takes the profiler cost off each node and adds the executor cost of each', () => {
    const overhead = { nodeUs: 0.2, profilerNodeUs: 1.5 };
    expect(tracedLabelUs(10, 1, overhead)).toBeCloseTo(10 - 1.5 + 0.2, 12);
    expect(tracedLabelUs(10, 3, overhead)).toBeCloseTo(10 - 4.5 + 0.6, 12);
    // Never below a tenth of the trace time before the executor cost; without an overhead, the trace time.
    expect(tracedLabelUs(2, 3, overhead)).toBeCloseTo(0.2 + 0.6, 12);
    expect(tracedLabelUs(7, 2, null)).toBe(7);
  });
});
