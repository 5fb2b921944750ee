/**
 * ResNet workloads (bottleneck ResNets such as ResNet-50) from their hyper-parameters: one layer
 * for the stem, one per bottleneck block, one for the head. Pure.
 *
 * Stem: conv 7x7/2 -> BN -> ReLU -> max pool 3x3/2.
 * Bottleneck: conv 1x1 -> BN -> ReLU -> conv 3x3 (stride) -> BN -> ReLU -> conv 1x1 (x4) -> BN,
 *   plus, in a stage's first block, a 1x1 (stride) conv -> BN shortcut; then Add and ReLU.
 * Head: global average pool -> fully connected -> (training) softmax cross-entropy.
 *
 * BatchNorm: in inference it is folded into the preceding convolution (as ONNX exports and
 * inference runtimes do), leaving the convolution a bias of K values instead of BN's 2K (gamma,
 * beta); in training it is its own node, priced with the LayerNormalization kernel
 * {rows: N*H*W, cols: C} (same element count; its scale and bias are BN's gamma and beta).
 * Pooling is priced with ReduceMean {rows: outputs, cols: window}: exact for the global average
 * pool; for the 3x3 max pool the FLOPs (9 comparisons per output) match and the bytes count each
 * window's inputs, not the overlapping input once.
 * Conv FLOPs follow cost.ts (2 per multiply-add, "same" padding floor(R/2): exactly ResNet's
 * padding 3 / 1 / 0 for 7x7 / 3x3 / 1x1).
 */
import type { Dtype } from '../domain/measurement.js';
import { convOutSize } from '../kernels/cost.js';
import type { TensorShape } from '../workload/types.js';
import { elements, type WorkloadBuilder } from './builder.js';
import type { ResNetEntry } from './schema.js';
import { loss } from './transformer.js';

export interface ResNetBuild {
  batch: number;
  image: number;
  dtype: Dtype;
  mode: 'inference' | 'training';
}

export function buildResNet(g: WorkloadBuilder, e: ResNetEntry, p: ResNetBuild, warnings: string[]): void {
  const r = new ResNetGraph(g, p.batch, p.mode === 'training');
  let x = r.stem(e, p.image);
  e.blocks.forEach((count, stage) => {
    for (let i = 0; i < count; i++) x = r.bottleneck(e, stage, i, x);
  });
  r.head(e, x);
  if (p.mode !== 'training') {
    warnings.push(
      `${e.name}: BatchNorm is folded into the convolutions (inference), each keeping a bias; ` +
        'training prices BatchNorm as its own nodes',
    );
  }
}

const dims = (t: TensorShape): [number, number, number, number] => {
  const [a = 1, c = 1, hh = 1, w = 1] = t.dims;
  return [a, c, hh, w];
};

/** The layers of a ResNet on a builder, for a batch of n, with BatchNorm as nodes when training. */
class ResNetGraph {
  constructor(
    private readonly g: WorkloadBuilder,
    private readonly n: number,
    private readonly training: boolean,
  ) {}

  /** Conv (with a bias when BatchNorm is folded, for inference), then BatchNorm when training. */
  convBn(name: string, bnName: string, x: TensorShape, k: number, r: number, stride: number): TensorShape {
    const { g, n, training } = this;
    const [, c, hh, w] = dims(x);
    const ho = convOutSize(hh, r, stride);
    const wo = convOutSize(w, r, stride);
    const conv = g.node({
      name,
      opType: 'Conv',
      op: 'Conv',
      shape: { N: n, C: c, H: hh, W: w, K: k, R: r, S: r, stride, groups: 1 },
      inputs: [x],
      out: [n, k, ho, wo],
      weights: training
        ? [['weight', [k, c, r, r]]]
        : [
            ['weight', [k, c, r, r]],
            ['bias', [k]],
          ],
    });
    if (!training) return conv;
    return g.node({
      name: bnName,
      opType: 'BatchNormalization',
      op: 'LayerNormalization',
      shape: { rows: n * ho * wo, cols: k },
      inputs: [conv],
      out: conv.dims,
      weights: [
        ['scale', [k]],
        ['bias', [k]],
      ],
    });
  }

  relu(name: string, x: TensorShape): TensorShape {
    return this.g.node({ name, opType: 'Relu', op: 'Relu', shape: { n: elements(x.dims) }, inputs: [x], out: x.dims });
  }

  stem(e: ResNetEntry, image: number): TensorShape {
    const { g, n } = this;
    g.beginLayer('stem');
    let x = g.tensor('pixel_values', [n, e.channels, image, image]);
    x = this.relu('stem.relu', this.convBn('stem.conv1', 'stem.bn1', x, e.stemChannels, e.stemKernel, e.stemStride));
    const [, c, hh, w] = dims(x);
    const ho = convOutSize(hh, e.poolKernel, e.poolStride);
    const wo = convOutSize(w, e.poolKernel, e.poolStride);
    x = g.node({
      name: 'stem.maxpool',
      opType: 'MaxPool',
      op: 'ReduceMean',
      shape: { rows: n * c * ho * wo, cols: e.poolKernel * e.poolKernel },
      inputs: [x],
      out: [n, c, ho, wo],
    });
    g.endLayer([x]);
    return x;
  }

  /** Block i of a stage: 1x1, 3x3, 1x1 convolutions, a shortcut (projected when the shape changes), add, ReLU. */
  bottleneck(e: ResNetEntry, stage: number, i: number, x: TensorShape): TensorShape {
    const width = e.widths[stage] as number;
    const outC = width * e.expansion;
    const pre = `layer${stage + 1}.${i}`;
    const stride = stage > 0 && i === 0 ? 2 : 1;
    this.g.beginLayer(pre);
    const s1 = e.strideOn === '1x1' ? stride : 1;
    const s3 = e.strideOn === '3x3' ? stride : 1;
    let y = this.relu(`${pre}.relu1`, this.convBn(`${pre}.conv1`, `${pre}.bn1`, x, width, 1, s1));
    y = this.relu(`${pre}.relu2`, this.convBn(`${pre}.conv2`, `${pre}.bn2`, y, width, 3, s3));
    y = this.convBn(`${pre}.conv3`, `${pre}.bn3`, y, outC, 1, 1);
    const inC = dims(x)[1];
    const shortcut =
      i === 0 && (stride !== 1 || inC !== outC)
        ? this.convBn(`${pre}.downsample.0`, `${pre}.downsample.1`, x, outC, 1, stride)
        : x;
    const sum = this.g.node({
      name: `${pre}.add`,
      opType: 'Add',
      op: 'Add',
      shape: { n: elements(y.dims) },
      inputs: [y, shortcut],
      out: y.dims,
    });
    const out = this.relu(`${pre}.relu3`, sum);
    this.g.endLayer([out]);
    return out;
  }

  head(e: ResNetEntry, x: TensorShape): void {
    const { g, n } = this;
    g.beginLayer('head');
    const [, c, hh, w] = dims(x);
    x = g.node({
      name: 'head.avgpool',
      opType: 'GlobalAveragePool',
      op: 'ReduceMean',
      shape: { rows: n * c, cols: hh * w },
      inputs: [x],
      out: [n, c],
    });
    x = g.node({
      name: 'head.fc',
      opType: 'Gemm',
      op: 'Gemm',
      shape: { M: n, N: e.classes, K: c },
      inputs: [x],
      out: [n, e.classes],
      weights: [
        ['weight', [c, e.classes]],
        ['bias', [e.classes]],
      ],
    });
    if (this.training) x = loss(g, x, n, e.classes);
    g.endLayer([x]);
  }
}
