/**
 * The shapes the suites measure, each with the lowest suite level that holds it: 0 quick,
 * 1 standard, 2 thorough. Chosen from real models, not random. Pure.
 *
 * Quick is hand-picked: each kernel takes at most ~40 ms on one CPU core (the largest is the
 * 1024^3 GEMM, 2.1 GFLOP, and the 16M-element Add, 192 MiB). Standard and thorough are grids;
 * suites.ts moves a grid shape that is too big for its level to the next one, or out.
 *
 * After these come a prior of the layers real ORT-optimized CNNs and transformers execute
 * (fused conv + activation, depthwise and pointwise convs, pools, concats, upsampling, skinny
 * GEMMs): suite-prior.ts, from the layer tables of public architectures in
 * models/suite-shapes/. Its quick picks are small: each under 300 MFLOP and 30 MB, a few ms on
 * two threads.
 *
 * The tables of hand-picked rows (convs, Gemm weights, attention heads) are data:
 * models/suite-shapes/picks.json (suite-picks.ts), each row's note naming its model.
 */
import { convAdder, grid, Ki, Mi, pow2, type Level, type ShapeEntry } from './suite-entry.js';
import { pickTable } from './suite-picks.js';
import { priorShapeEntries } from './suite-prior.js';
import type { KernelOp } from './types.js';

/** Chains of distinct GEMVs the quick suite times: [d, weights] for d x d fp32 weights, 128 MiB each. */
const STREAMED_GEMVS: readonly (readonly [number, number])[] = [
  [512, 128],
  [1024, 32],
  [2048, 8],
];

/**
 * A prompt's products over weights read from memory (core/workload/cold-weights.ts): 32 rows times
 * distinct fp32 weights in a row, 128 MiB of them (past every last-level cache): 32 of 1024 x 1024
 * and 8 of 2048 x 2048; each beside the same product timed alone with its weight in cache. Their
 * difference is what of the read the product does not hide behind its arithmetic, at each weight
 * size. 2.1 GFLOP a chain; 128 rows would be 8.6, four times the quick suite's largest kernel.
 */
const COLD_PRODUCTS = {
  rows: 32,
  weights: [
    [1024, 32],
    [2048, 8],
  ],
} as const;

/**
 * What the quick suite's rows of grouped-query decode attention read from memory: 128 MiB of
 * distinct fp32 caches, K^T and V in turn (services/predict/stream-rate.ts cacheReadRates).
 */
const STREAMED_CACHE_BYTES = 128 * 2 ** 20;

/** Decode attention products the quick suite times: [KV heads, group, cached tokens, head width]. */
const DECODE_ATTENTION: readonly (readonly [number, number, number, number])[] = [
  [12, 1, 1024, 64],
  [4, 8, 2048, 64],
  [8, 4, 4096, 128],
];

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
  // a decode step's weights read once: 128 MiB of distinct 1, 4 and 16 MiB GEMVs in a row, past
  // every last-level cache (96 MiB on a Zen 4 with 3D V-Cache); a rate in bytes, so fp32 only
  for (const [d, distinct] of STREAMED_GEMVS)
    out.push({ op: 'MatMul', shape: { B: 1, M: 1, N: d, K: d, distinct }, level: 0, dtypes: ['fp32'] });
  // a prompt's products over weights from memory, and the same product with its weight in cache
  const M = COLD_PRODUCTS.rows;
  for (const [d, distinct] of COLD_PRODUCTS.weights) {
    out.push({ op: 'MatMul', shape: { B: 1, M, N: d, K: d, distinct }, level: 0, dtypes: ['fp32'] });
    out.push({ op: 'MatMul', shape: { B: 1, M, N: d, K: d }, level: 0, dtypes: ['fp32'] });
  }
  mm(0, 12, 128, 128, 64);
  mm(0, 12, 128, 64, 128);
  // a decode step's attention over its KV cache (core/workload/decode-attention.ts): per KV head,
  // the group's query rows times K^T, then the probabilities times V; GPT-2 small (12 heads,
  // no grouping) at 1,024 cached tokens, TinyLlama (4 KV heads, groups of 8, width 64) at 2,048
  // and Llama 3 8B (8 KV heads, groups of 4, width 128) at 4,096
  for (const [b, group, ctx, hd] of DECODE_ATTENTION) {
    mm(0, b, group, ctx, hd);
    mm(0, b, group, hd, ctx);
    // and, for a group of query rows (their cache packed before the product), the same two
    // products layer after layer over distinct caches, 128 MiB of them
    if (group === 1) continue;
    const distinct = 2 * Math.ceil(STREAMED_CACHE_BYTES / (2 * b * ctx * hd * 4));
    out.push({ op: 'MatMul', shape: { B: b, M: group, N: ctx, K: hd, distinct }, level: 0, dtypes: ['fp32'] });
  }
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
  for (const m of [1, 32, 256]) for (const [n, k] of pickTable('gemmStandard', 'linear').rows) gemm(1, m, n, k);
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

const CONV_QUICK = pickTable('convQuick', 'conv2d').rows;
const CONV_STANDARD = pickTable('convStandard', 'conv2d').rows;
const CONV_THOROUGH = pickTable('convThorough', 'conv2d').rows;

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
  const addQuick = (op: KernelOp, ...shapes: (readonly [rows: number, cols: number])[]): void => {
    for (const [rows, cols] of shapes) add(0, op, rows, cols);
  };
  // quick: hidden-size rows (LayerNorm, reductions), attention-score rows (Softmax), a vocabulary.
  addQuick('ReduceSum', [1, 1024], [512, 768], [2048, 4096]);
  addQuick('ReduceMean', [128, 768], [64, 65536]);
  addQuick('Softmax', [1, 1000], [12 * 128, 128], [8 * 512, 512], [8, 32000]);
  addQuick('LayerNormalization', [1, 768], [128, 768], [512, 1024], [2048, 4096]);
  addQuick('Transpose', [1024, 1024], [4096, 768]);
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
  for (const [nh, hd] of pickTable('attentionStandard', 'attentionHeads').rows) {
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

/** All shapes, families in a fixed order; a shape may appear more than once (suites.ts keeps its lowest level). */
export function allShapeEntries(): ShapeEntry[] {
  const own = [gemmShapes, convShapes, elementwiseShapes, rowShapes, attentionShapes, dataMoveShapes];
  return [...own, priorShapeEntries].flatMap((family) => family());
}
