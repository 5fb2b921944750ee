import { describe, expect, it } from 'vitest';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { AnalyticalPredictor } from '../../../../src-main/core/predictor/analytical-predictor.js';
import { predictWorkload } from '../../../../src-main/core/workload/predict-workload.js';
import type { Workload, WorkloadNode } from '../../../../src-main/core/workload/types.js';
import { device, syntheticSamples } from '../../../helpers/synthetic-samples.js';
import { bareNode } from '../../../helpers/workload-node.js';

const d = device('A', 100, 20);
const predictor = new AnalyticalPredictor();
predictor.train(syntheticSamples([d], 0));

function node(name: string, op: 'MatMul' | 'Add' | 'Softmax', shape: Record<string, number>): WorkloadNode {
  const k = makeKernel(op, 'fp32', shape);
  return {
    name,
    opType: op,
    family: k.family,
    kernel: { op, shape },
    dtype: 'fp32',
    inputs: [],
    outputs: [],
    flops: k.flops,
    bytes: k.bytes,
    params: 0,
    activationBytes: 0,
  };
}

/** A layer of these nodes; its sizes, unread here, zero. */
const layer = (index: number, name: string, nodes: number[]): Workload['layers'][number] => ({
  index,
  name,
  nodes,
  flops: 0,
  bytes: 0,
  params: 0,
  outBytes: 0,
  outTensors: [],
  activationBytes: 0,
  backwardFlops: 0,
});

const workload: Workload = {
  name: 'toy',
  source: 'onnx',
  bindings: {},
  nodes: [
    node('mm', 'MatMul', { B: 1, M: 256, N: 256, K: 256 }),
    node('add', 'Add', { n: 65536 }),
    bareNode('reshape', 'Reshape'),
    bareNode('odd', 'NonMaxSuppression', { bytes: 2e6 }),
    node('sm', 'Softmax', { rows: 256, cols: 256 }),
  ],
  layers: [layer(0, 'block0', [0, 1, 2]), layer(1, 'block1', [3, 4])],
  paramBytes: 0,
  warnings: [],
};

describe('whole-model prediction', () => {
  it('sums node predictions per layer and in total, with family shares adding to 1', () => {
    const p = predictWorkload(workload, predictor, d, 'inference');
    const direct = predictor.predict([
      { ...makeKernel('MatMul', 'fp32', { B: 1, M: 256, N: 256, K: 256 }), device: d },
    ])[0]!.timeUs;
    expect(p.nodes[0]?.timeUs).toBeCloseTo(direct, 9);
    expect(p.layers[0]!.timeUs + p.layers[1]!.timeUs).toBeCloseTo(p.totalUs, 9);
    expect(Object.values(p.familyShare).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    expect(p.lowUs).toBeLessThanOrEqual(p.totalUs);
    expect(p.highUs).toBeGreaterThanOrEqual(p.totalUs);
  });

  it('costs shape-only nodes nothing and flags nodes without a family with a fallback estimate', () => {
    const p = predictWorkload(workload, predictor, d, 'inference');
    expect(p.nodes[2]).toMatchObject({ how: 'free', timeUs: 0 });
    expect(p.nodes[3]).toMatchObject({ how: 'fallback' });
    expect(p.nodes[3]!.timeUs).toBeCloseTo(2e6 / 20e3 + 5, 6);
    expect(p.warnings.join(' ')).toMatch(/estimated without a profile .*NonMaxSuppression/);
    expect(p.familyShare.other).toBeGreaterThan(0);
  });

  it('predicts the nodes ORT runs on one thread (nearest Resize, inference BatchNorm) on the 1-thread CPU, with its calibration', () => {
    const resize = makeKernel('Resize', 'fp32', { N: 1, C: 32, H: 40, W: 40, scale: 4 });
    const at = (
      name: string,
      opType: string,
      op: string,
      k: ReturnType<typeof makeKernel>,
      flops = k.flops,
    ): WorkloadNode => ({
      ...bareNode(name, opType),
      family: k.family,
      kernel: { op, shape: k.shape },
      flops,
      bytes: k.bytes,
    });
    const bnKernel = makeKernel('Mul', 'fp32', { n: 65536, scalar: 1 });
    const w: Workload = {
      ...workload,
      nodes: [
        at('nearest', 'Resize', 'Resize', resize),
        at('linear', 'Resize', 'Resize', resize, 4 * 32 * 160 * 160),
        at('bn', 'BatchNormalization', 'Mul', bnKernel),
        node('add', 'Add', { n: 1 << 20 }),
      ],
      layers: [{ ...workload.layers[0]!, nodes: [0, 1, 2, 3] }],
    };
    const one = device('A/1t', 25, 10, 1);
    const p = predictWorkload(w, predictor, d, 'inference', {
      familyScale: { datamove: 0.5 },
      oneThread: { device: one, familyScale: { datamove: 2 } },
    });
    const on = (k: ReturnType<typeof makeKernel>, dev: typeof d, flops = k.flops): number =>
      predictor.predict([{ ...k, flops, device: dev }])[0]!.timeUs;
    expect(p.nodes[0]!.timeUs).toBeCloseTo(2 * on(resize, one), 6);
    expect(p.nodes[1]!.timeUs).toBeCloseTo(0.5 * on(resize, d, 4 * 32 * 160 * 160), 6);
    expect(p.nodes[2]!.timeUs).toBeCloseTo(on(bnKernel, one), 6);
    expect(p.nodes[3]!.timeUs).toBeCloseTo(on(makeKernel('Add', 'fp32', { n: 1 << 20 }), d), 6);
    // Without a 1-thread profile every node stays on the device.
    const alone = predictWorkload(w, predictor, d, 'inference');
    expect(alone.nodes[0]!.timeUs).toBeCloseTo(on(resize, d), 6);
  });

  it("predicts the nodes ORT's cost model does not split on the 1-thread CPU, and a split node no faster than an ideal split plus one parallel op", () => {
    // At 4 threads: an Add of 36,864 elements costs 87,552 of Eigen's cycles (< 210,000: not
    // split); a MatMul of 8 x 64 x 64 is 32,768 multiply-adds (< 65,536: one MLAS thread); one
    // of 256^3 is split 4 ways.
    const w: Workload = {
      ...workload,
      nodes: [
        node('add', 'Add', { n: 36864 }),
        node('small', 'MatMul', { B: 1, M: 8, N: 64, K: 64 }),
        node('big', 'MatMul', { B: 1, M: 256, N: 256, K: 256 }),
      ],
      layers: [{ ...workload.layers[0]!, nodes: [0, 1, 2] }],
    };
    const one = device('A/1t', 25, 10, 1);
    const on = (n: WorkloadNode, dev: typeof d): number =>
      predictor.predict([{ ...makeKernel(n.kernel!.op as 'Add', 'fp32', n.kernel!.shape), device: dev }])[0]!.timeUs;
    const overhead = { runUs: 0, nodeUs: 0, parallelOpUs: 40 };
    const p = predictWorkload(w, predictor, d, 'inference', { overhead, oneThread: { device: one } });
    expect(p.nodes[0]!.timeUs).toBeCloseTo(on(w.nodes[0]!, one), 6);
    expect(p.nodes[1]!.timeUs).toBeCloseTo(on(w.nodes[1]!, one), 6);
    const big = w.nodes[2]!;
    expect(on(big, one) / 4 + 40).toBeGreaterThan(on(big, d));
    expect(p.nodes[2]!.timeUs).toBeCloseTo(on(big, one) / 4 + 40, 6);
    expect(p.nodes[2]!.highUs).toBeGreaterThan(p.nodes[2]!.timeUs);
    // A cheap parallel op leaves the device's own prediction standing.
    const cheap = predictWorkload(w, predictor, d, 'inference', {
      overhead: { ...overhead, parallelOpUs: 0 },
      oneThread: { device: one },
    });
    expect(cheap.nodes[2]!.timeUs).toBeCloseTo(on(big, d), 6);
  });

  it("adds the pool's wake-up once per run when a node can run in parallel, never for one-thread or free nodes alone", () => {
    const overhead = { runUs: 10, nodeUs: 0, wakeUs: 4 };
    const p = predictWorkload(workload, predictor, d, 'inference', { overhead });
    const without = predictWorkload(workload, predictor, d, 'inference', { overhead: { ...overhead, wakeUs: null } });
    expect(p.totalUs - without.totalUs).toBeCloseTo(4, 9);
    expect(p.runOverheadUs).toBeCloseTo(14, 9);
    const resize = makeKernel('Resize', 'fp32', { N: 1, C: 8, H: 10, W: 10, scale: 2 });
    const serialOnly: Workload = {
      ...workload,
      nodes: [
        {
          ...bareNode('nearest', 'Resize'),
          family: resize.family,
          kernel: { op: 'Resize', shape: resize.shape },
          flops: resize.flops,
          bytes: resize.bytes,
        },
        bareNode('reshape', 'Reshape'),
      ],
      layers: [{ ...workload.layers[0]!, nodes: [0, 1] }],
    };
    expect(predictWorkload(serialOnly, predictor, d, 'inference', { overhead }).runOverheadUs).toBeCloseTo(10, 9);
  });

  it('counts forward and backward (3x) for training', () => {
    const inf = predictWorkload(workload, predictor, d, 'inference');
    const train = predictWorkload(workload, predictor, d, 'training');
    expect(train.totalUs).toBeCloseTo(3 * inf.totalUs, 6);
  });
});
