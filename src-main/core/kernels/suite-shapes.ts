/**
 * The shapes the suites measure, each with the lowest suite level that holds it: 0 quick,
 * 1 standard, 2 thorough. Chosen from real models, not random. Pure.
 *
 * Quick is hand-picked: each kernel takes at most ~40 ms on one CPU core (the largest is the
 * 1024^3 GEMM, 2.1 GFLOP, and the 16M-element Add, 192 MiB). Standard and thorough are grids;
 * suites.ts moves a grid shape that is too big for its level to the next one, or out.
 *
 * The second half is a prior of the layers real ORT-optimized CNNs and transformers execute
 * (fused conv + activation, depthwise and pointwise convs, pools, concats, upsampling, skinny
 * GEMMs), taken from the layer tables of public architectures named there. Its quick picks
 * are small: each under 300 MFLOP and 30 MB, a few ms on two threads.
 */
import { convOutSize } from './cost.js';
import type { KernelOp } from './types.js';

export type Level = 0 | 1 | 2;

export interface ShapeEntry {
  op: KernelOp;
  shape: Record<string, number>;
  level: Level;
}

const Ki = 1024;
const Mi = Ki * Ki;

/** Every combination of the axes' values, first axis slowest. */
function grid<A extends string>(axes: Record<A, readonly number[]>): Record<A, number>[] {
  let out: Record<string, number>[] = [{}];
  for (const [name, values] of Object.entries<readonly number[]>(axes)) {
    out = out.flatMap((partial) => values.map((v) => ({ ...partial, [name]: v })));
  }
  return out as Record<A, number>[];
}

/** 2^from .. 2^to, every `step`-th power. */
function pow2(from: number, to: number, step = 1): number[] {
  const out: number[] = [];
  for (let k = from; k <= to; k += step) out.push(2 ** k);
  return out;
}

function gemmShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const mm = (level: Level, B: number, m: number, n: number, k: number): void => {
    out.push({ op: 'MatMul', shape: { B, M: m, N: n, K: k }, level });
  };
  const gemm = (level: Level, m: number, n: number, k: number): void => {
    out.push({ op: 'Gemm', shape: { M: m, N: n, K: k }, level });
  };
  // quick: squares from dispatch-bound to compute-bound; BERT-base projections (128 tokens);
  // decode-time GEMVs; attention-style batched products (12 heads).
  for (const d of [64, 128, 256, 512, 1024]) mm(0, 1, d, d, d);
  mm(0, 1, 128, 768, 768);
  mm(0, 1, 128, 3072, 768);
  mm(0, 1, 128, 768, 3072);
  mm(0, 1, 1, 1024, 1024);
  mm(0, 1, 1, 4096, 4096);
  mm(0, 12, 128, 128, 64);
  mm(0, 12, 128, 64, 128);
  gemm(0, 128, 768, 768);
  gemm(0, 1, 1000, 2048); // ResNet-50 classifier
  // standard: more squares; linear layers d->d, d->4d, 4d->d over hidden sizes and token counts;
  // attention scores (seq x seq x 64) and probs x V for batch*heads 8 and 32.
  for (const d of [32, 192, 768, 2048]) mm(1, 1, d, d, d);
  for (const { d, m } of grid({ d: [256, 512, 1024, 2048, 4096], m: [1, 32, 256, 2048] })) {
    mm(1, 1, m, d, d);
    mm(1, 1, m, 4 * d, d);
    mm(1, 1, m, d, 4 * d);
  }
  for (const { b, s } of grid({ b: [8, 32], s: [128, 512, 1024] })) {
    mm(1, b, s, s, 64);
    mm(1, b, s, 64, s);
  }
  const classifierAndLinear = [
    [1000, 2048],
    [1024, 1024],
    [4096, 1024],
    [1024, 4096],
  ] as const;
  for (const m of [1, 32, 256]) for (const [n, k] of classifierAndLinear) gemm(1, m, n, k);
  // thorough: the full linear-layer grid up to 8192 hidden and 4096 tokens; sizes just off a
  // power of two (tile remainders); wider attention products; Gemm over token counts.
  const hidden = [256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 5120, 6144, 8192];
  for (const { d, m } of grid({ d: hidden, m: pow2(0, 12) })) {
    mm(2, 1, m, d, d);
    mm(2, 1, m, 4 * d, d);
    mm(2, 1, m, d, 4 * d);
  }
  for (const d of [31, 33, 63, 65, 127, 129, 255, 257, 511, 513, 1000, 1023, 1025, 2047, 2049]) mm(2, 1, d, d, d);
  for (const { b, s, h } of grid({ b: [4, 16, 64], s: [256, 2048, 4096], h: [64, 128] })) {
    mm(2, b, s, s, h);
    mm(2, b, s, h, s);
  }
  for (const { m, d } of grid({ m: pow2(0, 12), d: [512, 1024, 2048, 4096] })) gemm(2, m, d, d);
  return out;
}

/**
 * [C, H=W, K, R=S, stride, groups, act] of ResNet-50, ResNeXt, VGG, MobileNet, EfficientNet
 * layers; act (default 0) 1 = followed by a fused Relu.
 */
type ConvLayer = readonly [number, number, number, number, number, number, number?];

const CONV_QUICK: readonly ConvLayer[] = [
  [3, 224, 64, 7, 2, 1], // ResNet stem, 7x7 stride 2
  [64, 56, 64, 3, 1, 1], // ResNet 3x3 at each stage
  [128, 28, 128, 3, 1, 1],
  [256, 14, 256, 3, 1, 1],
  [512, 7, 512, 3, 1, 1],
  [64, 56, 256, 1, 1, 1], // bottleneck 1x1 expand / reduce
  [256, 56, 64, 1, 1, 1],
  [256, 14, 1024, 1, 1, 1],
  [128, 56, 128, 3, 2, 1], // downsampling 3x3
  [128, 56, 128, 3, 1, 32], // ResNeXt grouped (32 groups)
  [32, 112, 32, 3, 1, 32], // MobileNet depthwise
  [512, 14, 512, 3, 1, 512],
];

const CONV_STANDARD: readonly ConvLayer[] = [
  [16, 8, 16, 3, 1, 1], // tiny: dispatch-bound
  [64, 28, 64, 5, 1, 1],
  [512, 7, 2048, 1, 1, 1],
  [128, 28, 512, 1, 1, 1],
  [1024, 14, 256, 1, 1, 1],
  [256, 28, 256, 3, 2, 1],
  [512, 14, 512, 3, 2, 1],
  [256, 28, 256, 3, 1, 32],
  [144, 56, 144, 3, 1, 144], // MobileNetV2 depthwise
  [240, 28, 240, 5, 1, 240], // EfficientNet 5x5 depthwise
  [3, 224, 32, 3, 2, 1], // MobileNet stem
];

const CONV_THOROUGH: readonly ConvLayer[] = [
  [64, 224, 64, 3, 1, 1], // VGG
  [128, 112, 128, 3, 1, 1],
  [32, 56, 32, 3, 1, 1],
  [1024, 7, 1024, 3, 1, 1],
  [2048, 7, 512, 1, 1, 1],
  [96, 112, 96, 3, 2, 96],
  [672, 14, 672, 5, 1, 672],
  [1024, 14, 1024, 3, 1, 32],
  [16, 224, 16, 3, 1, 1],
];

/** A function that adds a conv layer at a level and batch size to `out`; act 0 stays out of the shape. */
function convAdder(out: ShapeEntry[]): (level: Level, N: number, layer: ConvLayer) => void {
  return (level, N, [C, HW, K, R, stride, groups, act = 0]) => {
    const shape = { N, C, H: HW, W: HW, K, R, S: R, stride, groups, ...(act ? { act } : {}) };
    out.push({ op: 'Conv', shape, level });
  };
}

function convShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const conv = convAdder(out);
  for (const l of CONV_QUICK) conv(0, 1, l);
  for (const l of CONV_STANDARD) conv(1, 1, l);
  for (const l of CONV_QUICK) conv(1, 8, l);
  for (const l of CONV_THOROUGH) conv(2, 1, l);
  for (const n of [2, 4, 8, 32]) for (const l of [...CONV_QUICK, ...CONV_STANDARD, ...CONV_THOROUGH]) conv(2, n, l);
  return out;
}

function elementwiseShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const add = (level: Level, op: KernelOp, ns: readonly number[]): void => {
    for (const n of ns) out.push({ op, shape: { n }, level });
  };
  // quick: 1 element (pure dispatch), in-cache, L2/L3-sized, past the caches. Mul and Sigmoid
  // reach 4 Mi elements (32-48 MiB, past a 32 MiB L3) so that the measured series a node is
  // read off (core/predictor/measured-anchors.ts) brackets the sizes between 1 Mi and there.
  add(0, 'Add', [1, Ki, 64 * Ki, Mi, 16 * Mi]);
  add(0, 'Mul', [Ki, Mi, 4 * Mi]);
  add(0, 'Relu', [Ki, 256 * Ki, 4 * Mi]);
  add(0, 'Sigmoid', [Ki, Mi, 4 * Mi]);
  add(0, 'Gelu', [Ki, Mi]);
  // standard: Add at every power of 4 from 1 to 64M elements (256 MiB per fp32 tensor), the
  // others at every power of 16 plus 4M and 64M (the last cache sizes and far past them).
  add(1, 'Add', pow2(0, 26, 2));
  for (const op of ['Mul', 'Relu'] as const) add(1, op, [...pow2(0, 24, 4), 4 * Mi, 64 * Mi]);
  for (const op of ['Sigmoid', 'Gelu'] as const) add(1, op, [Ki, 64 * Ki, Mi, 16 * Mi]);
  // thorough: every power of 2, and sizes off a power of 2.
  for (const op of ['Add', 'Mul', 'Relu', 'Sigmoid', 'Gelu'] as const)
    add(2, op, [...pow2(0, 26), 1000, 100_000, 1_000_003]);
  out.push(...ownElementwiseShapes(), ...scalarOperandShapes());
  return out;
}

/**
 * Binary ops with a scalar constant operand (scalar = 1) and the scalar Div past the caches,
 * at 1 Ki (dispatch) and at public architectures' map sizes (fp32, batch 1):
 * - x + 3 and x / 6 of HardSwish written out as x * Relu6(x + 3) / 6 (MobileNetV3, Howard et al.
 *   2019, eq. 2; how exporters without a HardSwish op emit it): MobileNetV3-Large's 960x7x7 and
 *   16x112x112 at 224, its stem's 16x256x256 at 512x512, and for x + 3 the stem's 16x512x1024
 *   on LR-ASPP's 1024x2048 Cityscapes input (same paper, section 6.4: a stream past the L3);
 * - x * 0.5 of the Erf GELU over BERT-base's 128x3072 intermediate (Devlin et al. 2018), and a
 *   scalar scale of the MobileNetV3 maps above.
 * Standard adds every power of 4 from 4 Ki to 16 Mi elements for both.
 */
function scalarOperandShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const add = (level: Level, op: 'Add' | 'Mul', ns: readonly number[]): void => {
    for (const n of ns) out.push({ op, shape: { n, scalar: 1 }, level });
  };
  add(0, 'Add', [Ki, 960 * 7 * 7, 16 * 112 * 112, 16 * 256 * 256, 16 * 512 * 1024]);
  add(0, 'Mul', [Ki, 960 * 7 * 7, 128 * 3072, 16 * 256 * 256]);
  for (const op of ['Add', 'Mul'] as const) add(1, op, pow2(12, 24, 2));
  out.push({ op: 'Div', shape: { n: 16 * 256 * 256 }, level: 0 });
  return out;
}

/**
 * The elementwise ops with kernels of their own (types.ts), at 1 Ki (dispatch) and at the sizes
 * public architectures apply them to (fp32, batch 1):
 * - CNN activations (Clip as ReLU6, HardSigmoid, HardSwish and its x / 6): MobileNetV3-Large
 *   at 224 (Howard et al. 2019), its stem's 16x112x112 and a 240x14x14 expansion;
 *   LeakyRelu: YOLOv3's Darknet-53 at 416 (Redmon and Farhadi 2018), 64x208x208 and 512x26x26;
 *   Softplus (inside Mish): YOLOv4's CSPDarknet-53 at 608, 128x76x76 and 1024x19x19.
 * - Transformer ops: BERT-base at sequence 128 (Devlin et al. 2018), hidden 128x768 (the Pow and
 *   Div of a decomposed LayerNorm) and intermediate 128x3072 (Erf of the exact GELU, Tanh and
 *   Pow of GPT-2's approximate one); Exp and Div of a decomposed softmax over 12 heads' 128x128
 *   scores; Sqrt of the per-token variances (128) and of a 128x768 normalization.
 * - Log: Whisper's log-mel input, 80 mel bins x 3000 frames (Radford et al. 2022).
 * Standard adds 64 Ki and 4 Mi elements for every one of them.
 */
function ownElementwiseShapes(): ShapeEntry[] {
  const quick: [KernelOp, number[]][] = [
    ['Clip', [16 * 112 * 112, 240 * 14 * 14]],
    ['HardSigmoid', [16 * 112 * 112, 240 * 14 * 14]],
    ['HardSwish', [16 * 112 * 112, 240 * 14 * 14]],
    ['Div', [240 * 14 * 14, 128 * 768, 12 * 128 * 128]],
    ['LeakyRelu', [64 * 208 * 208, 512 * 26 * 26]],
    ['Softplus', [128 * 76 * 76, 1024 * 19 * 19]],
    ['Pow', [128 * 768, 128 * 3072]],
    ['Erf', [128 * 3072]],
    ['Tanh', [128 * 3072]],
    ['Exp', [12 * 128 * 128]],
    ['Sqrt', [128, 128 * 768]],
    ['Log', [80 * 3000]],
  ];
  const out: ShapeEntry[] = [];
  for (const [op, sizes] of quick) {
    for (const n of [Ki, ...sizes]) out.push({ op, shape: { n }, level: 0 });
    for (const n of [64 * Ki, 4 * Mi]) out.push({ op, shape: { n }, level: 1 });
  }
  return out;
}

function rowShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const add = (level: Level, op: KernelOp, rows: number, cols: number): void => {
    out.push({ op, shape: { rows, cols }, level });
  };
  const addGrid = (level: Level, ops: readonly KernelOp[], rows: readonly number[], cols: readonly number[]): void => {
    for (const op of ops) for (const g of grid({ rows, cols })) add(level, op, g.rows, g.cols);
  };
  // quick: hidden-size rows (LayerNorm, reductions), attention-score rows (Softmax), a vocabulary.
  add(0, 'ReduceSum', 1, 1024);
  add(0, 'ReduceSum', 512, 768);
  add(0, 'ReduceSum', 2048, 4096);
  add(0, 'ReduceMean', 128, 768);
  add(0, 'ReduceMean', 64, 65536);
  add(0, 'Softmax', 1, 1000);
  add(0, 'Softmax', 12 * 128, 128);
  add(0, 'Softmax', 8 * 512, 512);
  add(0, 'Softmax', 8, 32000);
  add(0, 'LayerNormalization', 1, 768);
  add(0, 'LayerNormalization', 128, 768);
  add(0, 'LayerNormalization', 512, 1024);
  add(0, 'LayerNormalization', 2048, 4096);
  add(0, 'Transpose', 1024, 1024);
  add(0, 'Transpose', 4096, 768);
  // standard
  addGrid(1, ['ReduceSum', 'ReduceMean'], [1, 256, 4096], [64, 768, 4096]);
  addGrid(1, ['Softmax'], [1, 256, 4096], [128, 512, 1024, 4096, 32000]);
  addGrid(1, ['LayerNormalization'], [1, 256, 4096], [256, 768, 1024, 4096, 8192]);
  addGrid(1, ['Transpose'], [64, 768, 8192], [64, 768, 8192]);
  // thorough
  addGrid(2, ['ReduceSum', 'ReduceMean'], pow2(0, 15, 3), pow2(4, 16, 2));
  addGrid(2, ['Softmax'], pow2(0, 16, 2), [...pow2(6, 12), 32000, 50257]);
  addGrid(2, ['LayerNormalization'], pow2(0, 14, 2), [256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 5120, 8192]);
  addGrid(2, ['Transpose'], pow2(4, 14, 2), pow2(4, 14, 2));
  return out;
}

function attentionShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const add = (level: Level, batch: number, heads: number, seq: number, headDim: number): void => {
    out.push({ op: 'Attention', shape: { batch, heads, seq, headDim }, level });
  };
  add(0, 1, 12, 128, 64); // BERT-base
  add(0, 1, 8, 256, 128);
  add(0, 1, 12, 512, 64);
  add(0, 1, 4, 1024, 64);
  // standard: BERT-base-like (12 x 64) and LLaMA-7B-like (32 x 128) heads, sequences 128..4096.
  for (const [nh, hd] of [
    [12, 64],
    [32, 128],
  ] as const) {
    for (const { b, s } of grid({ b: [1, 4], s: pow2(7, 12) })) add(1, b, nh, s, hd);
  }
  // Long context with few heads (one tensor-parallel shard), so standard reaches seq 4096.
  add(1, 1, 4, 4096, 64);
  for (const { b, s, nh, hd } of grid({ b: [1, 2, 8, 32], s: pow2(7, 12), nh: [8, 16, 32, 64], hd: [64, 128] })) {
    add(2, b, nh, s, hd);
  }
  return out;
}

function dataMoveShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const add = (level: Level, ops: readonly KernelOp[], ns: readonly number[]): void => {
    for (const op of ops) for (const n of ns) out.push({ op, shape: { n }, level });
  };
  add(0, ['Cast'], [Ki, Mi, 16 * Mi]);
  add(0, ['CopyH2D', 'CopyD2H'], [Ki, Mi, 16 * Mi]);
  add(1, ['Cast'], [...pow2(8, 24, 4), 64 * Mi]);
  add(1, ['CopyH2D', 'CopyD2H'], [1, ...pow2(8, 26, 2)]);
  add(2, ['Cast', 'CopyH2D', 'CopyD2H'], pow2(0, 27));
  return out;
}

// ---- A prior of real layers ----
//
// Layer shapes from the papers' and reference implementations' tables, at ImageNet's 224x224
// input unless noted (never from the models held out for evaluation):
//   ResNet-18/50 (He et al. 2016): 7x7/2 stem, 3x3/2 max pool, basic and bottleneck blocks at
//     56/28/14/7, 1x1/2 downsampling, global average pool.
//   VGG-16 (Simonyan & Zisserman 2015): 3x3 convs, 2x2/2 max pools.
//   MobileNetV2 (Sandler et al. 2018, table 2), MobileNetV3-Large (Howard et al. 2019, table 1),
//     EfficientNet-B0 (Tan & Le 2019, table 1): inverted residuals (1x1 expansion, 3x3 or 5x5
//     depthwise, linear 1x1 projection), EfficientNet's squeeze-excite (global pool, 1x1 convs
//     on 1x1 maps with 4..48 channels); SSDLite's 320x320 input for the stems.
//   ShuffleNetV2 1.0x (Ma et al. 2018): 58/116/232-channel branches, 2-way channel concats.
//   DenseNet-121 transitions (2x2/2 average pools); Inception-v3 3x3/1 branch pools at 35/17/8.
//   U-Net (Ronneberger et al. 2015; 'same' padding, 256x256 input, 64..1024 channels, nearest
//     2x upsampling, 2-way skip concats); FPN over ResNet-50 at 320x320 (256-channel neck,
//     2x nearest top-down); YOLOv5s at 640x640 (SPPF 5x5/1 max pools and their 4-way concat,
//     2x upsampling, 255-channel 1x1 head); ESPCN's sub-pixel head (3 x 2^2 = 12 channels).
//   Transformer widths: BERT-base and ViT-B/16 768 (12 heads, 197 tokens), ViT-S/16 384,
//     GPT-2 small/medium 768/1024 (fused QKV 3d, MLP 4d), Whisper-tiny 384 (6 heads, MLP 1536,
//     1500 encoder frames, decoder up to 448 tokens); rotary rotate_half concats (GPT-NeoX).
// Activations: Relu, Relu6, SiLU and HardSwish after a conv are priced as act 1 (ORT fuses
// them into the conv); projections, FPN convs and heads are linear (act 0).

/** [in channels, expanded channels, out channels, kernel, stride, input size] of an inverted residual. */
type IRBlock = readonly [number, number, number, number, number, number];

/** [expansion t, out channels c, repeats n, first stride s, kernel k]: a MobileNetV2/EfficientNet stage row. */
type StageRow = readonly [number, number, number, number, number];

/** The blocks of stage rows from an input of `cin` channels at `hw` x `hw`. */
function irBlocks(cin: number, hw: number, rows: readonly StageRow[]): IRBlock[] {
  const out: IRBlock[] = [];
  let [c, size] = [cin, hw];
  for (const [t, cout, n, s, k] of rows) {
    for (let i = 0; i < n; i++) {
      const stride = i === 0 ? s : 1;
      out.push([c, c * t, cout, k, stride, size]);
      [c, size] = [cout, convOutSize(size, k, stride)];
    }
  }
  return out;
}

/** A block's convs: 1x1 expansion (when it expands) and depthwise with act, linear 1x1 projection. */
function irConvs([cin, exp, cout, k, s, hw]: IRBlock): ConvLayer[] {
  const expand: ConvLayer[] = exp === cin ? [] : [[cin, hw, exp, 1, 1, 1, 1]];
  return [...expand, [exp, hw, exp, k, s, exp, 1], [exp, convOutSize(hw, k, s), cout, 1, 1, 1, 0]];
}

/** Squeeze-excite of a block (EfficientNet): 1x1 convs on the pooled 1x1 map, exp -> cin/4 (act) -> exp. */
function seConvs([cin, exp]: IRBlock): ConvLayer[] {
  const squeezed = Math.max(1, Math.floor(cin / 4));
  return [
    [exp, 1, squeezed, 1, 1, 1, 1],
    [squeezed, 1, exp, 1, 1, 1, 0],
  ];
}

const MOBILENET_V2 = irBlocks(32, 112, [
  [1, 16, 1, 1, 3],
  [6, 24, 2, 2, 3],
  [6, 32, 3, 2, 3],
  [6, 64, 4, 2, 3],
  [6, 96, 3, 1, 3],
  [6, 160, 3, 2, 3],
  [6, 320, 1, 1, 3],
]);

const EFFICIENTNET_B0 = irBlocks(32, 112, [
  [1, 16, 1, 1, 3],
  [6, 24, 2, 2, 3],
  [6, 40, 2, 2, 5],
  [6, 80, 3, 2, 3],
  [6, 112, 3, 1, 5],
  [6, 192, 4, 2, 5],
  [6, 320, 1, 1, 3],
]);

/** MobileNetV3-Large's bneck rows (expansions are per row, not a multiple). */
const MOBILENET_V3: readonly IRBlock[] = [
  [16, 16, 16, 3, 1, 112],
  [16, 64, 24, 3, 2, 112],
  [24, 72, 24, 3, 1, 56],
  [24, 72, 40, 5, 2, 56],
  [40, 120, 40, 5, 1, 28],
  [40, 240, 80, 3, 2, 28],
  [80, 200, 80, 3, 1, 14],
  [80, 184, 80, 3, 1, 14],
  [80, 480, 112, 3, 1, 14],
  [112, 672, 112, 3, 1, 14],
  [112, 672, 160, 5, 2, 14],
  [160, 960, 160, 5, 1, 7],
];

/** ResNet-18: stem, per stage the 3x3 convs, the strided 3x3 and 1x1 downsampling into it. */
function resnet18(): ConvLayer[] {
  const out: ConvLayer[] = [[3, 224, 64, 7, 2, 1, 1]];
  for (const [c, hw] of [
    [64, 56],
    [128, 28],
    [256, 14],
    [512, 7],
  ] as const) {
    out.push([c, hw, c, 3, 1, 1, 1]);
    if (c > 64) out.push([c / 2, 2 * hw, c, 3, 2, 1, 1], [c / 2, 2 * hw, c, 1, 2, 1, 0]);
  }
  return out;
}

/** ResNet-50 (v1.5, stride on the 3x3): bottlenecks of width w, 4w out, at each stage. */
function resnet50(): ConvLayer[] {
  const out: ConvLayer[] = [];
  for (const [w, hw, cin, s] of [
    [64, 56, 64, 1],
    [128, 28, 256, 2],
    [256, 14, 512, 2],
    [512, 7, 1024, 2],
  ] as const) {
    const hwIn = hw * s;
    out.push([cin, hwIn, w, 1, 1, 1, 1], [w, hwIn, w, 3, s, 1, 1], [w, hw, 4 * w, 1, 1, 1, 0]);
    out.push([cin, hwIn, 4 * w, 1, s, 1, 0], [4 * w, hw, w, 1, 1, 1, 1], [w, hw, w, 3, 1, 1, 1]);
  }
  return out;
}

const SHUFFLENET_V2: readonly ConvLayer[] = [
  [24, 56, 24, 3, 2, 24, 0],
  [24, 56, 58, 1, 1, 1, 1],
  [58, 28, 58, 1, 1, 1, 1],
  [58, 28, 58, 3, 1, 58, 0],
  [116, 28, 116, 3, 2, 116, 0],
  [116, 14, 116, 1, 1, 1, 1],
  [116, 14, 116, 3, 1, 116, 0],
  [232, 7, 232, 1, 1, 1, 1],
  [232, 7, 232, 3, 1, 232, 0],
  [464, 7, 1024, 1, 1, 1, 1],
];

const VGG16: readonly ConvLayer[] = [
  [3, 224, 64, 3, 1, 1, 1],
  [64, 224, 64, 3, 1, 1, 1],
  [64, 112, 128, 3, 1, 1, 1],
  [128, 112, 128, 3, 1, 1, 1],
  [128, 56, 256, 3, 1, 1, 1],
  [256, 56, 256, 3, 1, 1, 1],
  [256, 28, 512, 3, 1, 1, 1],
  [512, 28, 512, 3, 1, 1, 1],
  [512, 14, 512, 3, 1, 1, 1],
];

/** FPN over ResNet-50 at 320x320 (C2..C5 at 80/40/20/10): 1x1 laterals, 3x3 outputs, 256 channels. */
function fpn(): ConvLayer[] {
  const levels = [
    [256, 80],
    [512, 40],
    [1024, 20],
    [2048, 10],
  ] as const;
  return levels.flatMap(([c, hw]): ConvLayer[] => [
    [c, hw, 256, 1, 1, 1, 0],
    [256, hw, 256, 3, 1, 1, 0],
  ]);
}

/** U-Net decoder at 256x256: after each skip concat, two 3x3 convs; a 1x1 to 2 classes. */
const UNET_DECODER: readonly ConvLayer[] = [
  [1024, 32, 512, 3, 1, 1, 1],
  [512, 32, 512, 3, 1, 1, 1],
  [512, 64, 256, 3, 1, 1, 1],
  [256, 64, 256, 3, 1, 1, 1],
  [256, 128, 128, 3, 1, 1, 1],
  [128, 128, 128, 3, 1, 1, 1],
  [128, 256, 64, 3, 1, 1, 1],
  [64, 256, 64, 3, 1, 1, 1],
  [64, 256, 2, 1, 1, 1, 0],
];

/**
 * Quick: fused conv + Relu at 3x3/1, 3x3/2, 1x1 and depthwise 3x3 and 5x5; channel counts
 * that are multiples of 16 and counts that are not (12, 24, 40, 58, 72, 116, 120, 144, 255);
 * 3-channel stems on 224 and 320 maps; a few linear convs.
 */
const CONV_PRIOR_QUICK: readonly ConvLayer[] = [
  [3, 224, 64, 7, 2, 1, 1], // ResNet stem
  [64, 56, 64, 3, 1, 1, 1], // ResNet-18 3x3
  [128, 56, 128, 3, 2, 1, 1], // ResNet-50 strided 3x3
  [256, 14, 256, 3, 1, 1, 1],
  [256, 56, 64, 1, 1, 1, 1], // ResNet-50 1x1 reduce
  [3, 224, 32, 3, 2, 1, 1], // MobileNetV2 / EfficientNet stem
  [3, 224, 16, 3, 2, 1, 1], // MobileNetV3 stem
  [3, 320, 16, 3, 2, 1, 1], // the same at SSDLite's 320
  [16, 160, 16, 3, 1, 16, 1], // MobileNetV3's first depthwise at 320
  [32, 112, 32, 3, 1, 32, 1], // MobileNetV2 depthwise 3x3
  [96, 112, 96, 3, 2, 96, 1],
  [144, 56, 144, 3, 1, 144, 1],
  [960, 7, 960, 3, 1, 960, 1],
  [72, 56, 72, 5, 2, 72, 1], // MobileNetV3 depthwise 5x5
  [120, 28, 120, 5, 1, 120, 1],
  [144, 56, 144, 5, 2, 144, 1], // EfficientNet-B0 depthwise 5x5
  [672, 14, 672, 5, 2, 672, 1],
  [16, 112, 96, 1, 1, 1, 1], // 1x1 expansions
  [24, 56, 144, 1, 1, 1, 1],
  [24, 56, 72, 1, 1, 1, 1],
  [40, 28, 120, 1, 1, 1, 1],
  [320, 7, 1280, 1, 1, 1, 1], // MobileNetV2 / EfficientNet last 1x1
  [144, 56, 24, 1, 1, 1, 0], // linear projection
  [58, 28, 58, 1, 1, 1, 1], // ShuffleNetV2
  [116, 14, 116, 3, 1, 116, 0],
  [32, 128, 12, 3, 1, 1, 0], // ESPCN sub-pixel head
  [256, 40, 255, 1, 1, 1, 0], // YOLOv5s head
];

/**
 * Standard: every conv of MobileNetV2/V3-Large, ResNet-18 and ShuffleNetV2, EfficientNet-B0's
 * squeeze-excite; thorough adds EfficientNet-B0's blocks, ResNet-50, VGG-16, FPN, the U-Net
 * decoder, and all of them at batch 4.
 */
function priorConvShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const conv = convAdder(out);
  for (const l of CONV_PRIOR_QUICK) conv(0, 1, l);
  const stems: ConvLayer[] = [
    [3, 224, 32, 3, 2, 1, 1],
    [320, 7, 1280, 1, 1, 1, 1],
    [160, 7, 960, 1, 1, 1, 1],
  ];
  const standard = [
    ...stems,
    ...MOBILENET_V2.flatMap(irConvs),
    ...MOBILENET_V3.flatMap(irConvs),
    ...EFFICIENTNET_B0.flatMap(seConvs),
    ...resnet18(),
    ...SHUFFLENET_V2,
  ];
  for (const l of standard) conv(1, 1, l);
  const rest = [...EFFICIENTNET_B0.flatMap(irConvs), ...resnet50(), ...VGG16, ...fpn(), ...UNET_DECODER];
  for (const l of rest) conv(2, 1, l);
  for (const l of [...CONV_PRIOR_QUICK, ...standard, ...rest]) conv(2, 4, l);
  return out;
}

/** Quick: skinny linear layers, M 1..512 at widths 256..1024; standard and thorough: grids over the widths. */
function priorGemmShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const mm = (level: Level, m: number, n: number, k: number): void => {
    out.push({ op: 'MatMul', shape: { B: 1, M: m, N: n, K: k }, level });
  };
  mm(0, 1, 384, 384); // Whisper-tiny decoder step
  mm(0, 4, 2304, 768); // GPT-2 fused QKV, 4 sequences decoding
  mm(0, 16, 512, 512);
  mm(0, 32, 768, 3072); // GPT-2 MLP down, 32 tokens
  mm(0, 64, 1024, 1024); // GPT-2 medium
  mm(0, 197, 768, 768); // ViT-B/16
  mm(0, 197, 1536, 384); // ViT-S/16 MLP up
  mm(0, 512, 256, 256);
  const widths = [256, 384, 512, 768, 1024];
  for (const { m, d } of grid({ m: [1, 8, 64, 197, 512], d: widths })) mm(1, m, d, d);
  for (const { m, d } of grid({ m: [1, 64, 197], d: [384, 768] })) mm(1, m, 4 * d, d);
  for (const { m, d } of grid({ m: [...pow2(0, 9), 197, 448, 1500], d: [...widths, 1280] })) {
    mm(2, m, d, d);
    mm(2, m, 3 * d, d);
    mm(2, m, 4 * d, d);
    mm(2, m, d, 4 * d);
  }
  return out;
}

/** [seq, batch, input, hidden] of one direction of a recurrent layer. */
type RecurrentLayer = readonly [number, number, number, number];

/**
 * LSTMs: Zaremba et al. 2014's Penn Treebank language models (small: 200 units over 20-step
 * windows; medium: 650 over 35), Lample et al. 2016's NER tagger (a 100-unit word LSTM over
 * 150-wide inputs, a 25-unit character LSTM over words of 8 characters), Tacotron 2's decoder
 * (1024 units over the prenet and attention context, 768), one step at a time as streaming
 * and autoregressive models run them. GRUs: RNNoise's three (24, 48 and 96 units over 24, 90
 * and 114 inputs, one 10 ms frame per step; a second of frames). Standard and thorough: grids.
 */
const LSTM_QUICK: readonly RecurrentLayer[] = [
  [1, 1, 150, 100],
  [1, 1, 200, 200],
  [1, 20, 200, 200],
  [20, 1, 200, 200],
  [1, 1, 650, 650],
  [35, 1, 650, 650],
  [8, 20, 25, 25],
  [1, 1, 768, 1024],
];
const GRU_QUICK: readonly RecurrentLayer[] = [
  [1, 1, 24, 24],
  [1, 1, 90, 48],
  [1, 1, 114, 96],
  [100, 1, 114, 96],
];

function priorRecurrentShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const add = (level: Level, op: 'LSTM' | 'GRU', [seq, batch, input, hidden]: RecurrentLayer): void => {
    out.push({ op, shape: { seq, batch, input, hidden }, level });
  };
  for (const l of LSTM_QUICK) add(0, 'LSTM', l);
  for (const l of GRU_QUICK) add(0, 'GRU', l);
  for (const { seq, batch, h } of grid({ seq: [1, 16, 64], batch: [1, 8], h: [64, 256, 512, 1024] })) {
    add(1, 'LSTM', [seq, batch, h, h]);
    add(1, 'GRU', [seq, batch, h, h]);
  }
  for (const { seq, batch, h } of grid({ seq: [1, 4, 32, 128], batch: [1, 4, 32], h: [32, 128, 384, 768, 2048] })) {
    add(2, 'LSTM', [seq, batch, h, h]);
    add(2, 'GRU', [seq, batch, h, h]);
  }
  return out;
}

/** [C, H=W, R, stride] of a pool. */
type PoolLayer = readonly [number, number, number, number];

/** VGG-16 and U-Net 2x2/2 max pools, YOLOv5s SPPF 5x5/1, ResNet's 3x3/2. */
const MAX_POOLS: readonly PoolLayer[] = [
  [64, 224, 2, 2],
  [128, 112, 2, 2],
  [256, 56, 2, 2],
  [512, 28, 2, 2],
  [512, 14, 2, 2],
  [64, 256, 2, 2],
  [128, 128, 2, 2],
  [256, 64, 2, 2],
  [512, 32, 2, 2],
  [256, 20, 5, 1],
  [64, 112, 3, 2],
];

/** DenseNet-121 transitions (2x2/2), Inception-v3 branch pools (3x3/1). */
const AVERAGE_POOLS: readonly PoolLayer[] = [
  [128, 56, 2, 2],
  [256, 28, 2, 2],
  [512, 14, 2, 2],
  [192, 35, 3, 1],
  [288, 35, 3, 1],
  [768, 17, 3, 1],
  [1280, 8, 3, 1],
];

/** Thorough's pools: CNN-like (channels, size) pairs, each window, batch 1 and 8. */
const POOL_GRID_MAPS: readonly (readonly [number, number])[] = [
  [64, 224],
  [64, 112],
  [128, 112],
  [128, 56],
  [256, 56],
  [256, 28],
  [512, 28],
  [512, 14],
  [1024, 14],
  [2048, 7],
];

/** [R, stride] of thorough's pools: VGG/U-Net, ResNet, Inception, SPPF. */
const POOL_WINDOWS: readonly (readonly [number, number])[] = [
  [2, 2],
  [3, 2],
  [3, 1],
  [5, 1],
];

function poolShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const pool = (level: Level, op: KernelOp, N: number, [C, HW, R, stride]: PoolLayer): void => {
    out.push({ op, shape: { N, C, H: HW, W: HW, R, stride }, level });
  };
  const gap = (level: Level, N: number, C: number, HW: number): void => {
    out.push({ op: 'GlobalAveragePool', shape: { N, C, H: HW, W: HW }, level });
  };
  pool(0, 'MaxPool', 1, [64, 112, 3, 2]); // ResNet
  pool(0, 'MaxPool', 1, [128, 112, 2, 2]); // VGG-16 block 2
  pool(0, 'MaxPool', 1, [256, 20, 5, 1]); // YOLOv5s SPPF
  pool(0, 'AveragePool', 1, [128, 56, 2, 2]); // DenseNet-121 transition
  pool(0, 'AveragePool', 1, [192, 35, 3, 1]); // Inception-v3
  gap(0, 1, 2048, 7); // ResNet-50
  gap(0, 1, 1280, 7); // MobileNetV2, EfficientNet-B0
  gap(0, 1, 32, 112); // EfficientNet-B0's first squeeze-excite
  for (const l of MAX_POOLS) pool(1, 'MaxPool', 1, l);
  pool(1, 'MaxPool', 8, [64, 112, 3, 2]);
  for (const l of AVERAGE_POOLS) pool(1, 'AveragePool', 1, l);
  gap(1, 1, 512, 7); // ResNet-18
  gap(1, 1, 960, 7); // MobileNetV3
  gap(1, 8, 2048, 7);
  for (const [, exp, , k, s, hw] of EFFICIENTNET_B0) gap(1, 1, exp, convOutSize(hw, k, s));
  for (const N of [1, 8]) {
    for (const [C, HW] of POOL_GRID_MAPS) {
      for (const [R, stride] of POOL_WINDOWS) {
        pool(2, 'MaxPool', N, [C, HW, R, stride]);
        pool(2, 'AveragePool', N, [C, HW, R, stride]);
      }
      gap(2, N, C, HW);
    }
  }
  return out;
}

/** Concat, Resize and Transpose at CNN and transformer sizes. */
function priorMoveShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const concat = (level: Level, rows: number, cols: number, parts: number): void => {
    out.push({ op: 'Concat', shape: { rows, cols, parts }, level });
  };
  const resize = (level: Level, N: number, C: number, HW: number, scale: number): void => {
    out.push({ op: 'Resize', shape: { N, C, H: HW, W: HW, scale }, level });
  };
  const transpose = (level: Level, rows: number, cols: number): void => {
    out.push({ op: 'Transpose', shape: { rows, cols }, level });
  };
  // Channel concats of NCHW (rows = batch, cols = C*H*W) and one last-axis concat.
  concat(0, 1, 256 * 56 * 56, 2); // U-Net skip, 128 + 128 channels
  concat(0, 1, 4 * 256 * 20 * 20, 4); // YOLOv5s SPPF
  concat(0, 12 * 128, 64, 2); // rotate_half, 12 heads x 128 tokens, head dim 64
  resize(0, 1, 256, 28, 2); // FPN top-down
  resize(0, 1, 256, 20, 2); // YOLOv5s neck
  // PSENet's fusion (Wang et al. 2019) upsamples P4 and P5 by 4 and 8 to P2's size; at a
  // 320x320 input, 256 channels. ORT's nearest Resize has a fast path at scale 2 only (about
  // 6x the time per output element at scales 4 and 8 here), so the scale is its own axis.
  resize(0, 1, 256, 20, 4);
  resize(0, 1, 256, 10, 8);
  transpose(0, 64, 56 * 56); // NCHW -> NHWC, ResNet stage 1
  transpose(0, 768, 196); // ViT-B/16 patch embedding flatten + transpose
  for (const [c, hw] of [
    [512, 32],
    [256, 64],
    [128, 128],
    [64, 256],
  ] as const) {
    concat(1, 1, 2 * c * hw * hw, 2); // U-Net skips
    resize(1, 1, 2 * c, hw / 2, 2); // U-Net upsampling
  }
  for (const [c, hw] of [
    [116, 28],
    [232, 14],
    [464, 7],
  ] as const)
    concat(1, 1, c * hw * hw, 2); // ShuffleNetV2
  concat(1, 1, 2 * 256 * 40 * 40, 2); // YOLOv5s neck
  concat(1, 1, 2 * 128 * 80 * 80, 2);
  concat(1, 8, 2 * 256 * 28 * 28, 2); // batch 8
  concat(1, 32 * 512, 128, 2); // rotate_half, head dim 128
  // The quick suite's resizes: ORT's nearest Resize runs on one thread and its time per output
  // element differs by scale (a fast path at 2) and by where the output lands (cache or DRAM);
  // four shapes left most of that to the forest's guess (a 5-fold out-of-sample error of about
  // 4x on them, 1 and 2 threads alike, in run U1's store).
  for (const hw of [10, 20, 40]) resize(0, 1, 256, hw, 2); // FPN at 320
  resize(0, 1, 256, 40, 4); // PSENet at 640
  resize(0, 1, 256, 20, 8);
  resize(0, 1, 128, 40, 2); // YOLOv5s
  resize(0, 1, 128, 28, 4);
  for (const [r, c] of [
    [64, 3136],
    [3136, 64],
    [128, 784],
    [784, 128],
    [256, 196],
    [512, 49],
    [197, 768],
    [384, 197],
  ] as const)
    transpose(1, r, c);
  for (const g of grid({ rows: [1, 8, 64, 1024], cols: [4 * Ki, 64 * Ki, Mi, 8 * Mi], parts: [2, 3, 4, 8] }))
    if (g.cols % g.parts === 0) concat(2, g.rows, g.cols, g.parts);
  for (const g of grid({ N: [1, 8], C: [16, 64, 256, 1024], HW: [7, 14, 28, 56, 112], scale: [2, 4] }))
    resize(2, g.N, g.C, g.HW, g.scale);
  return out;
}

/** LayerNormalization and Softmax at transformer sizes; Add and Mul at feature-map sizes. */
function priorRowAndElementwiseShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const rowsCols = (level: Level, op: KernelOp, rows: number, cols: number): void => {
    out.push({ op, shape: { rows, cols }, level });
  };
  const n = (level: Level, op: KernelOp, count: number): void => {
    out.push({ op, shape: { n: count }, level });
  };
  rowsCols(0, 'LayerNormalization', 197, 768); // ViT-B/16
  rowsCols(0, 'LayerNormalization', 64, 384); // Whisper-tiny decoder
  rowsCols(0, 'LayerNormalization', 1024, 1024); // GPT-2 medium
  // Post-norm residuals (Add + LayerNorm), which ORT fuses into SkipLayerNormalization.
  rowsCols(0, 'SkipLayerNormalization', 1, 768); // BERT-base, one token
  rowsCols(0, 'SkipLayerNormalization', 128, 384); // MiniLM-L12, 128 tokens
  rowsCols(0, 'SkipLayerNormalization', 197, 768); // ViT-B/16 (post-norm variants), BERT-base
  rowsCols(0, 'SkipLayerNormalization', 512, 1024); // BERT-large, 512 tokens
  rowsCols(0, 'Softmax', 6 * 64, 1500); // Whisper-tiny cross-attention, 64 decoder tokens
  rowsCols(0, 'Softmax', 4 * 256, 256);
  n(0, 'Add', 24 * 56 * 56); // MobileNetV2 residual
  n(0, 'Add', 256 * 56 * 56); // ResNet-50 residual
  n(0, 'Add', 197 * 768); // ViT-B/16 residual
  n(0, 'Mul', 96 * 112 * 112); // EfficientNet-B0 SiLU
  n(0, 'Mul', 1152 * 7 * 7);
  for (const g of grid({ rows: [64, 197, 448, 1500], cols: [384, 768, 1024] })) {
    rowsCols(1, 'LayerNormalization', g.rows, g.cols);
    rowsCols(1, 'SkipLayerNormalization', g.rows, g.cols);
  }
  for (const [heads, q, kv] of [
    [6, 1500, 1500], // Whisper-tiny encoder
    [6, 448, 1500], // Whisper-tiny cross-attention
    [12, 197, 197], // ViT-B/16
    [6, 197, 197], // ViT-S/16
    [12, 384, 384], // BERT-base at 384 tokens
  ] as const)
    rowsCols(1, 'Softmax', heads * q, kv);
  const maps = [32 * 28 * 28, 24 * 56 * 56, 1024 * 14 * 14, 512 * 28 * 28, 256 * 56 * 56, 197 * 768, 1500 * 384];
  for (const count of maps) n(1, 'Add', count);
  for (const count of [1152 * 7 * 7, 144 * 56 * 56, 96 * 112 * 112, 32 * 112 * 112]) n(1, 'Mul', count);
  const transformerRows = [64, 128, 197, 256, 448, 512, 1024, 1500];
  for (const g of grid({ rows: transformerRows, cols: [256, 384, 512, 768, 1024, 1280] })) {
    rowsCols(2, 'LayerNormalization', g.rows, g.cols);
    rowsCols(2, 'SkipLayerNormalization', g.rows, g.cols);
    rowsCols(2, 'Softmax', g.rows, g.cols);
  }
  for (const count of maps) for (const N of [4, 8]) n(2, 'Add', N * count);
  return out;
}

// ---- A prior of small-input networks (quick) ----
//
// Edge models run at low resolution, where every node is a few microseconds and a second
// thread buys little or nothing: the regime the 224x224 prior above never reaches. These are
// MobileNetV3-Small's layers (Howard et al. 2019, table 2: bneck rows, squeeze-excite reducing
// to a quarter of the expansion, HardSwish as Mul) at a 128x128 input (maps 64/32/16/8/4), the
// resolution of the low-power edge benchmarks. Not one of the evaluated models.

/** MobileNetV3-Small's bneck rows at a 128x128 input, and whether each has squeeze-excite. */
const MOBILENET_V3_SMALL_128: readonly (readonly [IRBlock, boolean])[] = [
  [[16, 16, 16, 3, 2, 64], true],
  [[16, 72, 24, 3, 2, 32], false],
  [[24, 88, 24, 3, 1, 16], false],
  [[24, 96, 40, 5, 2, 16], true],
  [[40, 240, 40, 5, 1, 8], true],
  [[40, 120, 48, 5, 1, 8], true],
  [[48, 144, 48, 5, 1, 8], true],
  [[48, 288, 96, 5, 2, 8], true],
  [[96, 576, 96, 5, 1, 4], true],
];

/** The small-input prior: its convs (stem, blocks, squeeze-excite, last 1x1), pools, elementwise, reorders. */
function smallInputShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const conv = convAdder(out);
  const layers: ConvLayer[] = [[3, 128, 16, 3, 2, 1, 1]];
  for (const [block, se] of MOBILENET_V3_SMALL_128) {
    layers.push(...irConvs(block));
    const exp = block[1];
    const squeezed = Math.max(8, Math.round(exp / 4 / 8) * 8);
    if (se) layers.push([exp, 1, squeezed, 1, 1, 1, 1], [squeezed, 1, exp, 1, 1, 1, 0]);
  }
  layers.push([96, 4, 576, 1, 1, 1, 1]);
  for (const l of layers) conv(0, 1, l);
  for (const [C, HW] of [
    [16, 32],
    [96, 8],
    [288, 4],
    [576, 4],
  ] as const)
    out.push({ op: 'GlobalAveragePool', shape: { N: 1, C, H: HW, W: HW }, level: 0 });
  // Residual adds and HardSwish / squeeze-excite products at the maps' sizes.
  for (const n of [24 * 16 * 16, 40 * 8 * 8, 96 * 4 * 4]) out.push({ op: 'Add', shape: { n }, level: 0 });
  for (const n of [16 * 32 * 32, 88 * 16 * 16, 240 * 8 * 8, 576 * 4 * 4])
    out.push({ op: 'Mul', shape: { n }, level: 0 });
  // HardSwish written out (x * Relu6(x + 3) / 6): its scalar add, clip and divide on the
  // stem's and the HardSwish blocks' expanded maps.
  for (const n of [16 * 64 * 64, 96 * 16 * 16, 240 * 8 * 8, 576 * 4 * 4]) {
    out.push({ op: 'Add', shape: { n, scalar: 1 }, level: 0 });
    out.push({ op: 'Clip', shape: { n }, level: 0 }, { op: 'Div', shape: { n }, level: 0 });
  }
  out.push({ op: 'Sigmoid', shape: { n: 96 * 16 * 16 }, level: 0 });
  // Layout changes of the maps (NCHW as rows C*H by cols W), what ORT's NCHWc reorders move.
  for (const [C, HW] of [
    [16, 64],
    [72, 32],
    [96, 16],
    [240, 8],
    [576, 4],
  ] as const)
    out.push({ op: 'Transpose', shape: { rows: C * HW, cols: HW }, level: 0 });
  return out;
}

/**
 * [C, L, K, R, stride, groups, act, valid] of a 1-D conv over L positions; act 1 = a fused
 * Relu, valid 1 = unpadded (else floor(R/2) on each side).
 */
type Conv1dLayer = readonly [number, number, number, number, number, number, number, number];

// Speech and audio models run 1-D convs, which ORT keeps in NCHW (im2col + SGEMM) and whose
// cost over a few positions (a streaming chunk) is far above their FLOPs. From the papers'
// configurations:
//   wav2vec 2.0 / HuBERT feature encoder (Baevski et al. 2020): 512 channels, kernels
//     10,3,3,3,3,2,2, strides 5,2,2,2,2,2,2, unpadded, GELU (not fused): on a 0.1 s chunk
//     (1600 samples at 16 kHz: 319, 159, 79, 39, 19, 9, 4 positions) and on 1 s.
//   DCCRN's conv STFT (Hu et al. 2020): window 400, hop 100, 512-point FFT as 514 real and
//     imaginary filters, unpadded: on 1 s, and streamed one and four frames at a time.
//   Conv-TasNet (Luo & Mesgarani 2019), N=512, L=16, B=128, H=512: encoder (stride 8, Relu)
//     on 0.5 s at 8 kHz, bottleneck and TCN 1x1 convs, depthwise 3-tap conv (undilated here).
//   Conformer-M's conv module (Gulati et al. 2020), d=256, depthwise kernel 31 (ESPnet's):
//     pointwise 256 -> 512 and depthwise on 100 frames, depthwise on a 16-frame chunk.
//   TC-ResNet8 (Choi et al. 2019): 40 MFCCs over 98 frames, 9-tap convs, channels 16-48.
//   Whisper-tiny's stem (Radford et al. 2022): 80 mels -> 384, 3 taps, over 30 s (3000 frames).
const CONV1D_QUICK: readonly Conv1dLayer[] = [
  [1, 1600, 512, 10, 5, 1, 0, 1], // wav2vec2, 0.1 s chunk
  [512, 319, 512, 3, 2, 1, 0, 1],
  [512, 39, 512, 3, 2, 1, 0, 1],
  [512, 9, 512, 2, 2, 1, 0, 1],
  [1, 16000, 514, 400, 100, 1, 0, 1], // DCCRN conv STFT, 1 s
  [1, 400, 514, 400, 100, 1, 0, 1], // one frame
  [1, 700, 514, 400, 100, 1, 0, 1], // four frames
  [1, 4000, 512, 16, 8, 1, 1, 1], // Conv-TasNet encoder
  [512, 499, 128, 1, 1, 1, 0, 0],
  [512, 499, 512, 3, 1, 512, 0, 0],
  [256, 100, 512, 1, 1, 1, 0, 0], // Conformer-M conv module
  [256, 100, 256, 31, 1, 256, 0, 0],
  [256, 16, 256, 31, 1, 256, 0, 0],
  [40, 98, 16, 3, 1, 1, 1, 0], // TC-ResNet8
  [16, 98, 24, 9, 2, 1, 1, 0],
  [32, 25, 48, 9, 2, 1, 1, 0],
];

const CONV1D_STANDARD: readonly Conv1dLayer[] = [
  [512, 159, 512, 3, 2, 1, 0, 1], // wav2vec2, 0.1 s chunk
  [512, 79, 512, 3, 2, 1, 0, 1],
  [512, 19, 512, 3, 2, 1, 0, 1],
  [1, 16000, 512, 10, 5, 1, 0, 1], // wav2vec2, 1 s
  [128, 499, 512, 1, 1, 1, 0, 0], // Conv-TasNet
  [256, 100, 256, 1, 1, 1, 0, 0], // Conformer-M
  [256, 16, 512, 1, 1, 1, 0, 0],
  [24, 49, 24, 9, 1, 1, 1, 0], // TC-ResNet8
  [24, 49, 32, 9, 2, 1, 1, 0],
  [48, 13, 48, 9, 1, 1, 1, 0],
  [80, 3000, 384, 3, 1, 1, 0, 0], // Whisper-tiny stem
];

const CONV1D_THOROUGH: readonly Conv1dLayer[] = [
  [512, 3199, 512, 3, 2, 1, 0, 1], // wav2vec2, 1 s
  [512, 399, 512, 3, 2, 1, 0, 1],
  [512, 99, 512, 2, 2, 1, 0, 1],
  [384, 3000, 384, 3, 2, 1, 0, 0], // Whisper-tiny stem
];

function conv1dShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const add = (level: Level, N: number, [C, L, K, R, stride, groups, act, valid]: Conv1dLayer): void => {
    const options = { d1: 1, ...(act ? { act } : {}), ...(valid ? { valid } : {}) };
    out.push({ op: 'Conv', shape: { N, C, H: L, W: 1, K, R, S: 1, stride, groups, ...options }, level });
  };
  for (const l of CONV1D_QUICK) add(0, 1, l);
  for (const l of CONV1D_STANDARD) add(1, 1, l);
  for (const l of CONV1D_THOROUGH) add(2, 1, l);
  for (const l of [...CONV1D_QUICK, ...CONV1D_STANDARD]) add(2, 4, l);
  return out;
}

/** [C, H, W, K, R, stride] of a transposed conv (R x R window, pads 0) over H x W; W = 0: 1-D over H. */
type ConvTLayer = readonly [number, number, number, number, number, number];

// Decoders, generators and heads upsample with ConvTranspose, which ORT's CPU EP runs as a
// GEMM and a col2im scatter over the output (never NCHWc). From the papers' configurations:
//   U-Net (Ronneberger et al. 2015) with 16 base channels on 256 x 256: 2x2/2 up-convs; and
//     its two last up-convs on 512 x 512, whose col2im writes 2-4 M elements (the largest above
//     writes 1 M; the scatter, on one thread, then outweighs the GEMM).
//   DCGAN's 64 x 64 generator (Radford et al. 2016, ngf 64): 4x4/2 from 4 x 4 to 32 x 32.
//   FCN-8s (Long et al. 2015): 21-class 4x4/2 upsampling; the 16x16/8 one in standard.
//   Mask R-CNN's mask head (He et al. 2017): 256 -> 256, 2x2/2 on 14 x 14 per RoI.
//   HiFi-GAN V1 (Kong et al. 2020): 1-D upsampling 512 -> 256 (16/8), 256 -> 128 (16/8),
//     128 -> 64 (4/2), 64 -> 32 (4/2), streamed 8 mel frames at a time; 32 frames in standard.
//   Conv-TasNet's decoder (Luo & Mesgarani 2019): 512 -> 1, 16/8 over 499 frames.
//   SimpleBaselines pose (Xiao et al. 2018) on 256 x 192 and CenterNet-ResNet-18 (Zhou et al.
//     2019) on 512 x 512: 4x4/2 deconvolution heads (standard).
const CONVT_QUICK: readonly ConvTLayer[] = [
  [256, 16, 16, 128, 2, 2], // U-Net
  [128, 32, 32, 64, 2, 2],
  [64, 64, 64, 32, 2, 2],
  [32, 128, 128, 16, 2, 2],
  [64, 128, 128, 32, 2, 2], // U-Net on 512 x 512
  [32, 256, 256, 16, 2, 2],
  [512, 4, 4, 256, 4, 2], // DCGAN
  [256, 8, 8, 128, 4, 2],
  [128, 16, 16, 64, 4, 2],
  [64, 32, 32, 3, 4, 2],
  [21, 16, 16, 21, 4, 2], // FCN-8s
  [256, 14, 14, 256, 2, 2], // Mask R-CNN, one RoI
  [512, 8, 0, 256, 16, 8], // HiFi-GAN, streamed 8 frames at a time
  [256, 64, 0, 128, 16, 8],
  [128, 512, 0, 64, 4, 2],
  [64, 1024, 0, 32, 4, 2],
  [512, 499, 0, 1, 16, 8], // Conv-TasNet decoder
];

const CONVT_STANDARD: readonly ConvTLayer[] = [
  [512, 32, 0, 256, 16, 8], // HiFi-GAN, 32 frames
  [256, 256, 0, 128, 16, 8],
  [128, 2048, 0, 64, 4, 2],
  [21, 32, 32, 21, 16, 8], // FCN-8s
  [2048, 8, 6, 256, 4, 2], // SimpleBaselines
  [256, 16, 12, 256, 4, 2],
  [256, 32, 24, 256, 4, 2],
  [512, 16, 16, 256, 4, 2], // CenterNet
  [256, 32, 32, 128, 4, 2],
  [128, 64, 64, 64, 4, 2],
];

function convTransposeShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const add = (level: Level, N: number, [C, H, W, K, R, stride]: ConvTLayer): void => {
    const [w, s, d1] = W === 0 ? [1, 1, { d1: 1 }] : [W, R, {}];
    out.push({ op: 'Conv', shape: { N, C, H, W: w, K, R, S: s, stride, groups: 1, transpose: 1, ...d1 }, level });
  };
  for (const l of CONVT_QUICK) add(0, 1, l);
  for (const l of CONVT_STANDARD) add(1, 1, l);
  for (const l of [...CONVT_QUICK, ...CONVT_STANDARD]) add(2, 4, l);
  add(1, 8, [256, 14, 14, 256, 2, 2]); // Mask R-CNN, eight RoIs
  return out;
}

/** All shapes, families in a fixed order; a shape may appear more than once (suites.ts keeps its lowest level). */
export function allShapeEntries(): ShapeEntry[] {
  return [
    ...gemmShapes(),
    ...convShapes(),
    ...elementwiseShapes(),
    ...rowShapes(),
    ...attentionShapes(),
    ...dataMoveShapes(),
    ...priorGemmShapes(),
    ...priorRecurrentShapes(),
    ...priorConvShapes(),
    ...poolShapes(),
    ...priorMoveShapes(),
    ...priorRowAndElementwiseShapes(),
    ...smallInputShapes(),
    ...conv1dShapes(),
    ...convTransposeShapes(),
  ];
}
