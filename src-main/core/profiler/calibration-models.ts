/**
 * Calibration models: a few small whole ONNX models run end to end at the end of every device
 * profile. Their measured / predicted time per op family corrects the micro-kernel predictor
 * for what a node pays inside a real graph (core/workload/calibration.ts). Pure.
 *
 * Each model follows a public architecture, written in plain opset-17 ops the way exporters
 * emit them (fp32, static shapes, batch 1), so ONNX Runtime fuses them as it fuses real models:
 *
 * - `resnet-blocks`: the ResNet-18 stem and basic blocks (He et al. 2015, torchvision
 *   resnet18): conv 7x7/2 + BN + ReLU, max pool 3x3/2, two basic blocks at 32 channels and a
 *   downsampling basic block to 64 channels with a 1x1/2 projection shortcut, then global
 *   average pool and a fully connected classifier (100 classes).
 * - `mobilenet-blocks`: the MobileNetV2 stem and inverted residual blocks (Sandler et al.
 *   2018): 1x1 expand x6, depthwise 3x3, linear 1x1 project, ReLU6 as Clip(0, 6), residual
 *   where shapes allow; channels 16 -> 24 -> 24 -> 40 (not multiples of 16). The last block is
 *   the MobileNetV3 form (Howard et al. 2019): HardSwish activations and a squeeze-excite
 *   (global average pool, 1x1 reduce + ReLU, 1x1 expand + HardSigmoid, Mul).
 * - `encoder-layer`: one BERT / ViT post-LN encoder layer (Devlin et al. 2018), hidden 256,
 *   4 heads, sequence 64, as torch.onnx exports it: MatMul + Add projections, Reshape /
 *   Transpose to heads, scaled dot-product attention with Softmax, LayerNormalization, and
 *   the exact GELU decomposed as x * 0.5 * (1 + Erf(x / sqrt 2)).
 * - `fpn-neck`: a small U-Net / FPN encoder-decoder (Ronneberger et al. 2015, Lin et al.
 *   2017): two strided 3x3 convs down, then nearest Resize x2 + Concat with the skip + conv,
 *   twice, ending in a 3x3 conv + Sigmoid (a dense-prediction head).
 *
 * They copy none of the models accuracy is evaluated on. Each stays under 300 MFLOP and a
 * few milliseconds on one CPU core, with well under 1 MB of weights. Weights are deterministic
 * (fill.ts randomBytes, He-scaled so activations stay of order one): the bytes of every model
 * are the same on every build.
 */
import { randomBytes } from '../kernels/fill.js';
import { attr, encodeModel, OnnxDataType } from '../onnx/model-builder.js';
import type { AttributeDef, NodeDef, TensorDef } from '../onnx/model-builder.js';

export interface CalibrationModel {
  name: string;
  model: Uint8Array;
  inputs: { name: string; dims: number[]; dtype: 'fp32' }[];
}

/** The calibration models, in a stable order with stable names. */
export function calibrationModels(): CalibrationModel[] {
  return [resnetBlocks(), mobilenetBlocks(), encoderLayer(), fpnNeck()];
}

const F = OnnxDataType.FLOAT;
const I64 = OnnxDataType.INT64;

/** Builds one graph: nodes, initializers with per-tensor seeds, unique names. */
export class GraphBuilder {
  readonly nodes: NodeDef[] = [];
  readonly inits: TensorDef[] = [];
  private seed = 1;

  /** Adds a node named after its output; returns the output. */
  op(opType: string, inputs: readonly string[], output: string, attributes: readonly AttributeDef[] = []): string {
    this.nodes.push({ opType, inputs, outputs: [output], name: output, attributes });
    return output;
  }

  /** fp32 values uniform in [center - spread, center + spread), deterministic. */
  random(name: string, dims: readonly number[], spread: number, center = 0): string {
    const count = dims.reduce((a, d) => a * d, 1);
    const raw = randomBytes('fp32', count, this.seed++);
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    for (let i = 0; i < count; i++) view.setFloat32(i * 4, center + spread * view.getFloat32(i * 4, true), true);
    this.inits.push({ name, dataType: F, dims, rawData: raw });
    return name;
  }

  /** He-uniform weights for `fanIn` inputs per output. */
  weight(name: string, dims: readonly number[], fanIn: number): string {
    return this.random(name, dims, Math.sqrt(6 / fanIn));
  }

  floats(name: string, values: readonly number[], dims: readonly number[] = [values.length]): string {
    const raw = new Uint8Array(values.length * 4);
    const view = new DataView(raw.buffer);
    values.forEach((v, i) => view.setFloat32(i * 4, v, true));
    this.inits.push({ name, dataType: F, dims, rawData: raw });
    return name;
  }

  ints(name: string, values: readonly number[]): string {
    const raw = new Uint8Array(values.length * 8);
    const view = new DataView(raw.buffer);
    values.forEach((v, i) => view.setBigInt64(i * 8, BigInt(v), true));
    this.inits.push({ name, dataType: I64, dims: [values.length], rawData: raw });
    return name;
  }

  /** Conv with square kernel `k`, "same" padding floor(k/2); bias unless followed by BN. */
  conv(
    p: string,
    x: string,
    cin: number,
    cout: number,
    k: number,
    opts: { stride?: number; group?: number; bias?: boolean } = {},
  ): string {
    const group = opts.group ?? 1;
    const stride = opts.stride ?? 1;
    const pad = Math.floor(k / 2);
    const w = this.weight(`${p}.weight`, [cout, cin / group, k, k], (cin / group) * k * k);
    const inputs = opts.bias ? [x, w, this.random(`${p}.bias`, [cout], 0.05)] : [x, w];
    return this.op('Conv', inputs, `${p}.out`, [
      attr.ints('dilations', [1, 1]),
      attr.int('group', group),
      attr.ints('kernel_shape', [k, k]),
      attr.ints('pads', [pad, pad, pad, pad]),
      attr.ints('strides', [stride, stride]),
    ]);
  }

  /** Inference-mode BatchNormalization with realistic running statistics. */
  bn(p: string, x: string, c: number): string {
    const inputs = [
      x,
      this.random(`${p}.weight`, [c], 0.2, 1),
      this.random(`${p}.bias`, [c], 0.1),
      this.random(`${p}.running_mean`, [c], 0.1),
      this.random(`${p}.running_var`, [c], 0.3, 1),
    ];
    return this.op('BatchNormalization', inputs, `${p}.out`, [
      attr.float('epsilon', 1e-5),
      attr.float('momentum', 0.9),
    ]);
  }

  relu(p: string, x: string): string {
    return this.op('Relu', [x], `${p}.relu`);
  }

  model(
    name: string,
    input: { name: string; dims: number[] },
    output: { name: string; dims: number[] },
  ): CalibrationModel {
    const model = encodeModel({
      graph: {
        name,
        nodes: this.nodes,
        inputs: [{ name: input.name, elemType: F, dims: input.dims }],
        outputs: [{ name: output.name, elemType: F, dims: output.dims }],
        initializers: this.inits,
      },
      docString: `pipeDejavu calibration model ${name}`,
    });
    return { name, model, inputs: [{ name: input.name, dims: input.dims, dtype: 'fp32' }] };
  }
}

/** ResNet-18 stem and basic blocks on [1, 3, 96, 96]: ~80 MFLOP. */
function resnetBlocks(): CalibrationModel {
  const g = new GraphBuilder();
  const convBn = (p: string, x: string, cin: number, cout: number, k: number, stride = 1): string =>
    g.bn(`${p}.bn`, g.conv(`${p}.conv`, x, cin, cout, k, { stride }), cout);
  const basicBlock = (p: string, x: string, cin: number, cout: number, stride: number): string => {
    const a = g.relu(`${p}.1`, convBn(`${p}.1`, x, cin, cout, 3, stride));
    const b = convBn(`${p}.2`, a, cout, cout, 3);
    const shortcut = stride === 1 && cin === cout ? x : convBn(`${p}.downsample`, x, cin, cout, 1, stride);
    return g.relu(p, g.op('Add', [b, shortcut], `${p}.add`));
  };

  let x = g.relu('stem', convBn('stem', 'input', 3, 32, 7, 2)); // [1, 32, 48, 48]
  x = g.op('MaxPool', [x], 'stem.maxpool', [
    attr.int('ceil_mode', 0),
    attr.ints('kernel_shape', [3, 3]),
    attr.ints('pads', [1, 1, 1, 1]),
    attr.ints('strides', [2, 2]),
  ]); // [1, 32, 24, 24]
  x = basicBlock('layer1.0', x, 32, 32, 1);
  x = basicBlock('layer1.1', x, 32, 32, 1);
  x = basicBlock('layer2.0', x, 32, 64, 2); // [1, 64, 12, 12]
  x = g.op('GlobalAveragePool', [x], 'avgpool');
  x = g.op('Flatten', [x], 'flatten', [attr.int('axis', 1)]);
  g.op('Gemm', [x, g.weight('fc.weight', [100, 64], 64), g.random('fc.bias', [100], 0.05)], 'logits', [
    attr.float('alpha', 1),
    attr.float('beta', 1),
    attr.int('transB', 1),
  ]);
  return g.model('resnet-blocks', { name: 'input', dims: [1, 3, 96, 96] }, { name: 'logits', dims: [1, 100] });
}

/** MobileNetV2 inverted residuals (the last one MobileNetV3's, HardSwish + SE) on [1, 3, 112, 112]: ~50 MFLOP. */
function mobilenetBlocks(): CalibrationModel {
  const g = new GraphBuilder();
  const zero = g.floats('relu6.min', [0], []);
  const six = g.floats('relu6.max', [6], []);
  const act = (p: string, x: string, hardswish: boolean): string =>
    hardswish ? g.op('HardSwish', [x], `${p}.hardswish`) : g.op('Clip', [x, zero, six], `${p}.relu6`);
  const convBnAct = (
    p: string,
    x: string,
    cin: number,
    cout: number,
    k: number,
    opts: { stride?: number; group?: number; act: 'relu6' | 'hardswish' | null },
  ): string => {
    const y = g.bn(`${p}.bn`, g.conv(`${p}.conv`, x, cin, cout, k, opts), cout);
    return opts.act === null ? y : act(p, y, opts.act === 'hardswish');
  };
  const squeezeExcite = (p: string, x: string, c: number, squeeze: number): string => {
    const s = g.op('GlobalAveragePool', [x], `${p}.avgpool`);
    const r = g.relu(`${p}.fc1`, g.conv(`${p}.fc1`, s, c, squeeze, 1, { bias: true }));
    const e = g.conv(`${p}.fc2`, r, squeeze, c, 1, { bias: true });
    const gate = g.op('HardSigmoid', [e], `${p}.hardsigmoid`, [attr.float('alpha', 1 / 6), attr.float('beta', 0.5)]);
    return g.op('Mul', [gate, x], `${p}.scale`);
  };
  const invertedResidual = (
    p: string,
    x: string,
    cin: number,
    cout: number,
    stride: number,
    v3: { se: number } | null,
  ): string => {
    const hidden = cin * 6;
    const a: 'relu6' | 'hardswish' = v3 ? 'hardswish' : 'relu6';
    let y = convBnAct(`${p}.expand`, x, cin, hidden, 1, { act: a });
    y = convBnAct(`${p}.depthwise`, y, hidden, hidden, 3, { stride, group: hidden, act: a });
    if (v3) y = squeezeExcite(`${p}.se`, y, hidden, v3.se);
    y = convBnAct(`${p}.project`, y, hidden, cout, 1, { act: null });
    return stride === 1 && cin === cout ? g.op('Add', [x, y], `${p}.add`) : y;
  };

  let x = convBnAct('stem', 'input', 3, 16, 3, { stride: 2, act: 'relu6' }); // [1, 16, 56, 56]
  x = invertedResidual('features.1', x, 16, 24, 2, null); // [1, 24, 28, 28]
  x = invertedResidual('features.2', x, 24, 24, 1, null);
  // MobileNetV3's squeeze width: make_divisible(144 / 4, 8) = 40.
  x = invertedResidual('features.3', x, 24, 40, 1, { se: 40 }); // [1, 40, 28, 28]
  g.op('Identity', [x], 'features');
  return g.model(
    'mobilenet-blocks',
    { name: 'input', dims: [1, 3, 112, 112] },
    { name: 'features', dims: [1, 40, 28, 28] },
  );
}

const SEQ = 64;
const HIDDEN = 256;
const HEADS = 4;
const HEAD_DIM = HIDDEN / HEADS;
const FFN = 1024;

/** One BERT encoder layer on [1, 64, 256] (4 heads, FFN 1024): ~110 MFLOP. */
function encoderLayer(): CalibrationModel {
  const g = new GraphBuilder();
  const linear = (p: string, x: string, nIn: number, nOut: number): string => {
    const mm = g.op('MatMul', [x, g.weight(`${p}.weight`, [nIn, nOut], nIn)], `${p}.matmul`);
    return g.op('Add', [mm, g.random(`${p}.bias`, [nOut], 0.02)], `${p}.out`);
  };
  const layerNorm = (p: string, x: string): string =>
    g.op(
      'LayerNormalization',
      [x, g.random(`${p}.weight`, [HIDDEN], 0.1, 1), g.random(`${p}.bias`, [HIDDEN], 0.02)],
      `${p}.out`,
      [attr.int('axis', -1), attr.float('epsilon', 1e-12)],
    );
  const headsShape = g.ints('shape.heads', [1, SEQ, HEADS, HEAD_DIM]);
  const mergedShape = g.ints('shape.merged', [1, SEQ, HIDDEN]);
  const toHeads = (p: string, x: string, perm: number[]): string =>
    g.op('Transpose', [g.op('Reshape', [x, headsShape], `${p}.reshape`)], `${p}.transpose`, [attr.ints('perm', perm)]);

  const x = 'hidden_states';
  const q = toHeads('attention.query', linear('attention.query', x, HIDDEN, HIDDEN), [0, 2, 1, 3]);
  const k = toHeads('attention.key', linear('attention.key', x, HIDDEN, HIDDEN), [0, 2, 3, 1]);
  const v = toHeads('attention.value', linear('attention.value', x, HIDDEN, HIDDEN), [0, 2, 1, 3]);
  const scores = g.op('MatMul', [q, k], 'attention.scores'); // [1, 4, 64, 64]
  const scaled = g.op(
    'Div',
    [scores, g.floats('attention.sqrt_head_dim', [Math.sqrt(HEAD_DIM)], [])],
    'attention.scaled',
  );
  const probs = g.op('Softmax', [scaled], 'attention.probs', [attr.int('axis', -1)]);
  const context = g.op('MatMul', [probs, v], 'attention.context'); // [1, 4, 64, 64]
  const merged = g.op(
    'Reshape',
    [g.op('Transpose', [context], 'attention.context.transpose', [attr.ints('perm', [0, 2, 1, 3])]), mergedShape],
    'attention.context.reshape',
  );
  const attnOut = linear('attention.output.dense', merged, HIDDEN, HIDDEN);
  const h1 = layerNorm('attention.output.LayerNorm', g.op('Add', [attnOut, x], 'attention.output.residual'));

  const inter = linear('intermediate.dense', h1, HIDDEN, FFN);
  const erf = g.op('Erf', [g.op('Div', [inter, g.floats('gelu.sqrt2', [Math.SQRT2], [])], 'gelu.div')], 'gelu.erf');
  const onePlus = g.op('Add', [erf, g.floats('gelu.one', [1], [])], 'gelu.add');
  const gelu = g.op('Mul', [g.op('Mul', [inter, onePlus], 'gelu.mul'), g.floats('gelu.half', [0.5], [])], 'gelu.out');
  const ffnOut = linear('output.dense', gelu, FFN, HIDDEN);
  const h2 = layerNorm('output.LayerNorm', g.op('Add', [ffnOut, h1], 'output.residual'));
  g.op('Identity', [h2], 'last_hidden_state');
  return g.model(
    'encoder-layer',
    { name: 'hidden_states', dims: [1, SEQ, HIDDEN] },
    { name: 'last_hidden_state', dims: [1, SEQ, HIDDEN] },
  );
}

/**
 * A U-Net / FPN encoder-decoder on [1, 32, 64, 64]: ~230 MFLOP. The decoder's lateral 1x1
 * conv narrows to 32 channels before the last upsampling (as FPN laterals do): at 64 it
 * would cost ~315 MFLOP, over the budget.
 */
function fpnNeck(): CalibrationModel {
  const g = new GraphBuilder();
  const roi = g.floats('resize.roi', [], [0]);
  const scales = g.floats('resize.scales', [1, 1, 2, 2]);
  const upsample = (p: string, x: string): string =>
    g.op('Resize', [x, roi, scales], `${p}.resize`, [
      attr.string('coordinate_transformation_mode', 'asymmetric'),
      attr.string('mode', 'nearest'),
      attr.string('nearest_mode', 'floor'),
    ]);
  const cat = (p: string, a: string, b: string): string => g.op('Concat', [a, b], `${p}.concat`, [attr.int('axis', 1)]);

  const x = 'input';
  const s1 = g.relu('down1', g.conv('down1', x, 32, 64, 3, { stride: 2, bias: true })); // [1, 64, 32, 32]
  const s2 = g.relu('down2', g.conv('down2', s1, 64, 96, 3, { stride: 2, bias: true })); // [1, 96, 16, 16]
  const u1 = cat('up1', upsample('up1', s2), s1); // [1, 160, 32, 32]
  const l1 = g.relu('up1.lateral', g.conv('up1.lateral', u1, 160, 32, 1, { bias: true })); // [1, 32, 32, 32]
  const u2 = cat('up2', upsample('up2', l1), x); // [1, 64, 64, 64]
  const head = g.conv('head', u2, 64, 32, 3, { bias: true });
  g.op('Sigmoid', [head], 'output');
  return g.model('fpn-neck', { name: 'input', dims: [1, 32, 64, 64] }, { name: 'output', dims: [1, 32, 64, 64] });
}
