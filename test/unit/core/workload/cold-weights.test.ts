import { describe, expect, it } from 'vitest';
import {
  coldReadUs,
  unhiddenReadShare,
  unhiddenShareAt,
  weightsRunCold,
  withColdRead,
  type ColdWeights,
} from '../../../../src-main/core/workload/cold-weights.js';
import type { NodePrediction } from '../../../../src-main/core/workload/predict-workload.js';
import type { Workload, WorkloadNode } from '../../../../src-main/core/workload/types.js';
import { bareNode } from '../../../helpers/workload-node.js';

const MiB = 2 ** 20;
/** 32 MiB of last-level cache; weights stream at 20 GB/s (20,000 bytes a µs). */
const cold: ColdWeights = { lastLevelCacheBytes: 32 * MiB, streamGBps: () => 20, unhiddenShare: () => 0 };

/** A product of `rows` rows over a [K, N] fp32 weight. */
const product = (name: string, rows: number, K: number, N: number): WorkloadNode =>
  bareNode(name, 'MatMul', { kernel: { op: 'MatMul', shape: { B: 1, M: rows, N, K } }, params: K * N });

const toy = (nodes: WorkloadNode[]): Workload => ({
  name: 'toy',
  source: 'onnx',
  bindings: {},
  nodes,
  layers: [],
  paramBytes: 0,
  warnings: [],
});

const predicted = (timeUs: number): NodePrediction => ({
  index: 0,
  name: 'n',
  opType: 'MatMul',
  family: 'gemm',
  timeUs,
  lowUs: timeUs * 0.8,
  highUs: timeUs * 1.2,
  how: 'predicted',
  warning: null,
});

describe('weights read from memory on every run', () => {
  it('only when the weights together exceed the last-level cache', () => {
    const small = product('a', 1, 1024, 1024); // 4 MiB
    const head = product('head', 1, 576, 50_000); // 110 MiB
    expect(weightsRunCold(toy([small, small]), cold)).toBe(false);
    expect(weightsRunCold(toy([small, head]), cold)).toBe(true);
  });

  it('a matrix-vector product costs at least its weights at the streaming rate', () => {
    const head = product('head', 1, 576, 50_000);
    const readUs = (576 * 50_000 * 4) / 20_000;
    expect(coldReadUs(head, 3000, cold)).toBeCloseTo(readUs - 3000, 6);
    const p = withColdRead(head, predicted(3000), cold);
    expect(p.timeUs).toBeCloseTo(readUs, 6);
    // The band moves with the time.
    expect(p.highUs - p.timeUs).toBeCloseTo(600, 6);
  });

  it('adds nothing where the profiled time is longer than the read (many rows hide it)', () => {
    const block = product('up', 32, 576, 1536);
    expect(coldReadUs(block, 600, cold)).toBe(0);
    expect(withColdRead(block, predicted(600), cold).timeUs).toBe(600);
  });

  it('leaves nodes without weights, and other ops with weights, alone', () => {
    const attention = bareNode('qk', 'MatMul', { kernel: { op: 'MatMul', shape: { B: 8, M: 1, N: 4096, K: 64 } } });
    const conv = bareNode('conv', 'Conv', { kernel: { op: 'Conv', shape: { N: 1 } }, params: 64 * MiB });
    expect(coldReadUs(attention, 1, cold)).toBe(0);
    expect(coldReadUs(conv, 1, cold)).toBe(0);
  });

  it("adds the read's unhidden share to a product of many rows, as measured", () => {
    // A BLAS that packs the weight on every call, then multiplies (PyTorch on OpenBLAS): share 1.
    const packs = { ...cold, unhiddenShare: () => 1 };
    const block = product('up', 32, 832, 2240);
    const readUs = (832 * 2240 * 4) / 20_000;
    expect(coldReadUs(block, 700, packs)).toBeCloseTo(readUs, 6);
    expect(coldReadUs(block, 700, { ...cold, unhiddenShare: () => 0.5 })).toBeCloseTo(readUs / 2, 6);
    // Batched rows count as rows.
    const batched = bareNode('b', 'MatMul', {
      kernel: { op: 'MatMul', shape: { B: 8, M: 4, N: 1024, K: 1024 } },
      params: 1024 * 1024,
    });
    expect(coldReadUs(batched, 1000, packs)).toBeCloseTo((1024 * 1024 * 4) / 20_000, 6);
  });

  it('a matrix-vector product keeps the floor alone: its time in cache is a read already', () => {
    const packs = { ...cold, unhiddenShare: () => 1 };
    const head = product('head', 1, 576, 50_000);
    const readUs = (576 * 50_000 * 4) / 20_000;
    expect(coldReadUs(head, 3000, packs)).toBeCloseTo(readUs - 3000, 6);
    expect(coldReadUs(head, readUs + 1, packs)).toBe(0);
  });
});

describe('the unhidden share of a read', () => {
  it('is the cold chain over the warm product, per read, within 0-1', () => {
    expect(unhiddenReadShare(1018, 689, 338)).toBeCloseTo(329 / 338, 6);
    expect(unhiddenReadShare(600, 700, 338)).toBe(0);
    expect(unhiddenReadShare(2000, 700, 338)).toBe(1);
    expect(unhiddenReadShare(1000, 700, 0)).toBe(0);
    expect(unhiddenReadShare(Number.NaN, 700, 338)).toBe(0);
  });

  it('reads the share measured at a few weight sizes log-linearly in bytes, the nearest outside, 0 with none', () => {
    const m = [
      { bytes: 16 * MiB, share: 0.2 },
      { bytes: 4 * MiB, share: 0.6 },
    ];
    expect(unhiddenShareAt(m, 8 * MiB)).toBeCloseTo(0.4, 6);
    expect(unhiddenShareAt(m, MiB)).toBe(0.6);
    expect(unhiddenShareAt(m, 64 * MiB)).toBe(0.2);
    expect(unhiddenShareAt([], 8 * MiB)).toBe(0);
  });
});
