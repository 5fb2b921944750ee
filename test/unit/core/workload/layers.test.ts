import { describe, expect, it } from 'vitest';
import { attr, encodeModel, type NodeDef, type TensorDef } from '../../../../src-main/core/onnx/model-builder.js';
import { workloadFromOnnx } from '../../../../src-main/core/workload/from-onnx.js';
import { isCompute } from '../../../../src-main/core/workload/layers.js';
import type { Workload } from '../../../../src-main/core/workload/types.js';
import { cnnModel, D, input, node, transformerModel, weight } from './sample-models.js';

/** Layers cover every node once, in graph order, and add up to the workload's totals. */
function expectPartition(w: Workload): void {
  expect(w.layers.flatMap((l) => l.nodes)).toEqual(w.nodes.map((_, i) => i));
  const sum = (f: (n: Workload['nodes'][number]) => number): number => w.nodes.reduce((a, n) => a + f(n), 0);
  expect(w.layers.reduce((a, l) => a + l.flops, 0)).toBe(sum((n) => n.flops));
  expect(w.layers.reduce((a, l) => a + l.params, 0)).toBe(sum((n) => n.params));
  w.layers.forEach((l, i) => {
    expect(l.index).toBe(i);
    const nodes = l.nodes.map((k) => w.nodes[k]);
    expect(
      nodes.some((n) => n && isCompute(n)),
      `layer ${i} has a compute node`,
    ).toBe(true);
    const computeFlops = nodes.reduce((a, n) => a + (n && isCompute(n) ? n.flops : 0), 0);
    expect(l.backwardFlops).toBe(2 * computeFlops);
  });
}

/** Two ResNet basic blocks (conv-bn-relu-conv-bn + shortcut, relu) after a stem conv. */
function resnetModel(): Uint8Array {
  const nodes: NodeDef[] = [node('Conv', ['x', 'stem.w'], ['stem'], [attr.ints('pads', [1, 1, 1, 1])])];
  const inits: TensorDef[] = [weight('stem.w', [8, 3, 3, 3])];
  let x = 'stem';
  for (const b of ['b0', 'b1']) {
    const p = (s: string): string => `${b}.${s}`;
    inits.push(weight(p('w1'), [8, 8, 3, 3]), weight(p('w2'), [8, 8, 3, 3]));
    nodes.push(
      node('Conv', [x, p('w1')], [p('c1')], [attr.ints('pads', [1, 1, 1, 1])]),
      node('Relu', [p('c1')], [p('r1')]),
      node('Conv', [p('r1'), p('w2')], [p('c2')], [attr.ints('pads', [1, 1, 1, 1])]),
      node('Add', [p('c2'), x], [p('sum')]),
      node('Relu', [p('sum')], [p('out')]),
    );
    x = p('out');
  }
  return encodeModel({
    graph: {
      name: 'resnet',
      inputs: [input('x', [1, 3, 16, 16])],
      outputs: [input(x, [1, 8, 16, 16])],
      initializers: inits,
      nodes,
    },
  });
}

describe('layers', () => {
  it('CNN: a layer ends after the activation and pool that follow its conv', () => {
    const w = workloadFromOnnx(cnnModel(), { name: 'cnn', dims: { N: 2 } });
    expectPartition(w);
    expect(w.layers.map((l) => l.nodes)).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7, 8],
      [9, 10],
    ]);
    expect(w.layers.map((l) => l.name)).toEqual(['c1', 'c2', 'logits']);
    expect(w.layers.map((l) => l.outTensors)).toEqual([['p1'], ['flat'], ['probs']]);
    expect(w.layers.map((l) => l.outBytes)).toEqual([2 * 8 * 16 * 16 * 4, 2 * 16 * 4, 2 * 10 * 4]);
    expect(w.layers[0]?.activationBytes).toBe((3 * 2 * 8 * 32 * 32 + 2 * 8 * 16 * 16) * 4);
  });

  it('ResNet: never cuts inside a residual block', () => {
    const w = workloadFromOnnx(resnetModel(), { name: 'resnet' });
    expectPartition(w);
    expect(w.layers.map((l) => l.nodes.map((i) => w.nodes[i]?.name))).toEqual([
      ['stem'],
      ['b0.c1', 'b0.r1', 'b0.c2', 'b0.sum', 'b0.out'],
      ['b1.c1', 'b1.r1', 'b1.c2', 'b1.sum', 'b1.out'],
    ]);
    expect(w.layers.map((l) => l.outTensors)).toEqual([['stem'], ['b0.out'], ['b1.out']]);
  });

  it('transformer: attention and feed-forward halves of each block; the mask read by every block still crosses', () => {
    const w = workloadFromOnnx(transformerModel(3), { name: 'enc', dims: { batch: 2, seq: 7 } });
    expectPartition(w);
    expect(w.layers.map((l) => l.name)).toEqual([
      'l0.q.mm',
      'l0.ff1.mm',
      'l1.q.mm',
      'l1.ff1.mm',
      'l2.q.mm',
      'l2.ff1.mm',
    ]);
    expect(w.layers.map((l) => l.outTensors)).toEqual([
      ['mask.ext', 'l0.ln1'],
      ['mask.ext', 'l0.out'],
      ['mask.ext', 'l1.ln1'],
      ['mask.ext', 'l1.out'],
      ['l2.ln1'],
      ['y'],
    ]);
    expect(w.layers[0]?.outBytes).toBe((2 * 7 + 2 * 7 * D) * 4);
    // Every block's layers have the same compute (the first also holds the mask preprocessing).
    expect(new Set(w.layers.slice(1).map((l) => l.backwardFlops)).size).toBe(2);
  });

  it('a model without compute nodes is one layer', () => {
    const bytes = encodeModel({
      graph: {
        name: 'ew',
        inputs: [input('x', [4])],
        outputs: [input('y', [4])],
        nodes: [node('Relu', ['x'], ['r']), node('Neg', ['r'], ['y'])],
      },
    });
    const w = workloadFromOnnx(bytes, { name: 'ew' });
    expect(w.layers).toHaveLength(1);
    expect(w.layers[0]).toMatchObject({ nodes: [0, 1], outTensors: ['y'], outBytes: 16, backwardFlops: 0 });
  });
});
