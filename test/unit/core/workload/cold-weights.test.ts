import { describe, expect, it } from 'vitest';
import {
  coldReadUs,
  weightsRunCold,
  withColdRead,
  type ColdWeights,
} from '../../../../src-main/core/workload/cold-weights.js';
import type { NodePrediction } from '../../../../src-main/core/workload/predict-workload.js';
import type { Workload, WorkloadNode } from '../../../../src-main/core/workload/types.js';
import { bareNode } from '../../../helpers/workload-node.js';

const MiB = 2 ** 20;
/** 32 MiB of last-level cache; weights stream at 20 GB/s (20,000 bytes a µs). */
const cold: ColdWeights = { lastLevelCacheBytes: 32 * MiB, streamGBps: () => 20 };

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
});
