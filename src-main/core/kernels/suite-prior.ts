/**
 * The second half of the suites' shapes (suite-shapes.ts): a prior of the layers real
 * ORT-optimized CNNs, transformers, speech and audio models execute (fused conv + activation,
 * depthwise and pointwise convs, pools, concats, upsampling, skinny GEMMs, recurrent cells, 1-D and
 * transposed convs). The networks' layer tables are data (models/suite-shapes/, network-shapes.ts,
 * each file citing its sources), and so are the suites' own tables of picks and the lists of the
 * networks' tables they read in order (picks.json, suite-picks.ts); this file is the recipe: which
 * tables each suite level measures, at which batch, and the single picks around them. Never from
 * the models held out for evaluation. Pure.
 *
 * The single picks come from the same networks and from transformer widths: BERT-base and
 * ViT-B/16 768 (12 heads, 197 tokens), ViT-S/16 384, GPT-2 small/medium 768/1024 (fused QKV 3d,
 * MLP 4d), Whisper-tiny 384 (6 heads, MLP 1536, 1500 encoder frames, decoder up to 448 tokens);
 * rotary rotate_half concats (GPT-NeoX); SSDLite's 320x320 input for the stems; ESPCN's sub-pixel
 * head (3 x 2^2 = 12 channels); YOLOv5s at 640x640 (SPPF and its 4-way concat, 2x upsampling,
 * 255-channel 1x1 head). Activations: Relu, Relu6, SiLU and HardSwish after a conv are priced as
 * act 1 (ORT fuses them into the conv); projections, FPN convs and heads are linear (act 0).
 */
import { convOutSize } from './cost.js';
import { networkTable, type NetworkName, type TableName, type TableRow } from './network-shapes.js';
import { convAdder, grid, Ki, Mi, pow2, type ConvLayer, type Level, type ShapeEntry } from './suite-entry.js';
import { pickTable, tableList } from './suite-picks.js';
import type { KernelOp } from './types.js';

type IRBlock = TableRow['invertedResidualBlocks'];

/** The blocks of a MobileNetV2/EfficientNet stage table, from its input channels and map size. */
function irBlocks(network: 'mobilenet-v2' | 'efficientnet-b0'): IRBlock[] {
  const stages = networkTable(network, 'stages', 'invertedResidualStages');
  const out: IRBlock[] = [];
  let [c, size] = [stages.input.channels, stages.input.size];
  for (const [t, cout, n, s, k] of stages.rows) {
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

/** A network's 2-D conv table. */
function convs<N extends NetworkName>(network: N, table: TableName<N>): readonly ConvLayer[] {
  return networkTable(network, table, 'conv2d').rows;
}

/** Quick's convs (picks.json's priorConvQuick): fused conv + Relu and a few linear convs. */
const CONV_PRIOR_QUICK = pickTable('priorConvQuick', 'conv2d').rows;

/**
 * Standard: every conv of MobileNetV2/V3-Large, ResNet-18 and ShuffleNetV2, EfficientNet-B0's
 * squeeze-excite; thorough adds EfficientNet-B0's blocks, ResNet-50, VGG-16, FPN, the U-Net
 * decoder, and all of them at batch 4.
 */
function priorConvShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const conv = convAdder(out);
  for (const l of CONV_PRIOR_QUICK) conv(0, 1, l);
  const stems = [
    ...convs('mobilenet-v2', 'stem'),
    ...convs('mobilenet-v2', 'lastConv'),
    ...convs('mobilenet-v3-large', 'lastConv'),
  ];
  const standard = [
    ...stems,
    ...irBlocks('mobilenet-v2').flatMap(irConvs),
    ...networkTable('mobilenet-v3-large', 'blocks', 'invertedResidualBlocks').rows.flatMap(irConvs),
    ...irBlocks('efficientnet-b0').flatMap(seConvs),
    ...convs('resnet-18', 'convs'),
    ...convs('shufflenet-v2', 'convs'),
  ];
  for (const l of standard) conv(1, 1, l);
  const rest = [
    ...irBlocks('efficientnet-b0').flatMap(irConvs),
    ...convs('resnet-50', 'convs'),
    ...convs('vgg-16', 'convs'),
    ...convs('fpn', 'convs'),
    ...convs('u-net', 'decoderConvs'),
  ];
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

/**
 * Quick's LSTMs and GRUs: published networks' layers (picks.json's recurrentQuick lists them), one
 * step at a time as streaming and autoregressive models run them. Standard and thorough: grids.
 */
const RECURRENT_QUICK = tableList('recurrentQuick', 'recurrent');

function priorRecurrentShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const add = (level: Level, op: 'LSTM' | 'GRU', [seq, batch, input, hidden]: TableRow['recurrent']): void => {
    out.push({ op, shape: { seq, batch, input, hidden }, level });
  };
  for (const table of RECURRENT_QUICK) for (const l of table.rows) add(0, table.cell, l);
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

/** The rows of several tables, in order. */
const tableRows = <R>(tables: readonly { rows: readonly R[] }[]): R[] => tables.flatMap((t) => t.rows);

/** VGG-16 and U-Net 2x2/2 max pools, YOLOv5s SPPF 5x5/1, ResNet's 3x3/2. */
const MAX_POOLS = tableList('maxPools', 'pool');

/** DenseNet-121 transitions (2x2/2), Inception-v3 branch pools (3x3/1). */
const AVERAGE_POOLS = tableList('averagePools', 'pool');

/** Thorough's pools: CNN-like (channels, size) pairs, each window (VGG/U-Net, ResNet, Inception, SPPF), batch 1 and 8. */
const [POOL_GRID_MAPS, POOL_WINDOWS] = [
  pickTable('poolGridMaps', 'maps').rows,
  pickTable('poolGridWindows', 'poolWindow').rows,
];

function poolShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const pool = (level: Level, op: KernelOp, N: number, [C, HW, R, stride]: TableRow['pool']): void => {
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
  for (const t of MAX_POOLS) for (const l of t.rows) pool(1, t.op, 1, l);
  pool(1, 'MaxPool', 8, [64, 112, 3, 2]);
  for (const t of AVERAGE_POOLS) for (const l of t.rows) pool(1, t.op, 1, l);
  gap(1, 1, 512, 7); // ResNet-18
  gap(1, 1, 960, 7); // MobileNetV3
  gap(1, 8, 2048, 7);
  for (const [, exp, , k, s, hw] of irBlocks('efficientnet-b0')) gap(1, 1, exp, convOutSize(hw, k, s));
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
  for (const [c, hw] of networkTable('u-net', 'skips', 'maps').rows) {
    concat(1, 1, 2 * c * hw * hw, 2); // U-Net skips
    resize(1, 1, 2 * c, hw / 2, 2); // U-Net upsampling
  }
  for (const [c, hw] of networkTable('shufflenet-v2', 'concats', 'maps').rows) concat(1, 1, c * hw * hw, 2);
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
  for (const [r, c] of pickTable('priorTransposes', 'matrix').rows) transpose(1, r, c);
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
  // Attention scores of Whisper-tiny, ViT-B/16 and ViT-S/16, BERT-base at 384 tokens.
  for (const [heads, q, kv] of pickTable('priorSoftmax', 'attentionScores').rows) rowsCols(1, 'Softmax', heads * q, kv);
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

/** The small-input prior: its convs (stem, blocks, squeeze-excite, last 1x1), pools, elementwise, reorders. */
function smallInputShapes(): ShapeEntry[] {
  const net = 'mobilenet-v3-small';
  const maps = (table: 'globalPools' | 'residualAdds' | 'products' | 'hardSwish' | 'sigmoid' | 'reorders') =>
    networkTable(net, table, 'maps').rows;
  const out: ShapeEntry[] = [];
  const conv = convAdder(out);
  const layers: ConvLayer[] = [...convs(net, 'stem')];
  for (const block of networkTable(net, 'blocks', 'invertedResidualBlocks').rows) {
    layers.push(...irConvs(block));
    const exp = block[1];
    const squeezed = Math.max(8, Math.round(exp / 4 / 8) * 8);
    if (block[6]) layers.push([exp, 1, squeezed, 1, 1, 1, 1], [squeezed, 1, exp, 1, 1, 1, 0]);
  }
  layers.push(...convs(net, 'lastConv'));
  for (const l of layers) conv(0, 1, l);
  for (const [C, HW] of maps('globalPools'))
    out.push({ op: 'GlobalAveragePool', shape: { N: 1, C, H: HW, W: HW }, level: 0 });
  // Residual adds and HardSwish / squeeze-excite products at the maps' sizes.
  for (const [C, HW] of maps('residualAdds')) out.push({ op: 'Add', shape: { n: C * HW * HW }, level: 0 });
  for (const [C, HW] of maps('products')) out.push({ op: 'Mul', shape: { n: C * HW * HW }, level: 0 });
  // HardSwish written out (x * Relu6(x + 3) / 6): its scalar add, clip and divide on the
  // stem's and the HardSwish blocks' expanded maps.
  for (const [C, HW] of maps('hardSwish')) {
    const n = C * HW * HW;
    out.push({ op: 'Add', shape: { n, scalar: 1 }, level: 0 });
    out.push({ op: 'Clip', shape: { n }, level: 0 }, { op: 'Div', shape: { n }, level: 0 });
  }
  for (const [C, HW] of maps('sigmoid')) out.push({ op: 'Sigmoid', shape: { n: C * HW * HW }, level: 0 });
  // Layout changes of the maps (NCHW as rows C*H by cols W), what ORT's NCHWc reorders move.
  for (const [C, HW] of maps('reorders')) out.push({ op: 'Transpose', shape: { rows: C * HW, cols: HW }, level: 0 });
  return out;
}

// Speech and audio models run 1-D convs, which ORT keeps in NCHW (im2col + SGEMM) and whose
// cost over a few positions (a streaming chunk) is far above their FLOPs: these networks' convs
// (wav2vec 2.0's feature encoder, DCCRN's conv STFT, Conv-TasNet, Conformer-M's conv module,
// TC-ResNet8, Whisper-tiny's stem), each at the level its table gives, and quick's and
// standard's again at batch 4 in thorough.
const CONV1D = tableList('conv1d', 'conv1d');

/** The rows of `tables` a level adds (their last column), in order. */
const atLevel = <R extends readonly number[]>(tables: readonly { rows: readonly R[] }[], level: Level): R[] =>
  tableRows(tables).filter((row) => row[row.length - 1] === level);

function conv1dShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const add = (level: Level, N: number, [C, L, K, R, stride, groups, act, valid]: TableRow['conv1d']): void => {
    const options = { d1: 1, ...(act ? { act } : {}), ...(valid ? { valid } : {}) };
    out.push({ op: 'Conv', shape: { N, C, H: L, W: 1, K, R, S: 1, stride, groups, ...options }, level });
  };
  const [quick, standard] = [atLevel(CONV1D, 0), atLevel(CONV1D, 1)];
  for (const l of quick) add(0, 1, l);
  for (const l of standard) add(1, 1, l);
  for (const l of atLevel(CONV1D, 2)) add(2, 1, l);
  for (const l of [...quick, ...standard]) add(2, 4, l);
  return out;
}

// Decoders, generators and heads upsample with ConvTranspose, which ORT's CPU EP runs as a
// GEMM and a col2im scatter over the output (never NCHWc): the transposed convs of these
// networks' tables at the level each row gives, in this order, and quick's and standard's
// again at batch 4 in thorough.
const CONVT_QUICK = atLevel(tableList('convTransposeQuick', 'convTranspose'), 0);
const CONVT_STANDARD = atLevel(tableList('convTransposeStandard', 'convTranspose'), 1);

function convTransposeShapes(): ShapeEntry[] {
  const out: ShapeEntry[] = [];
  const add = (level: Level, N: number, [C, H, W, K, R, stride]: TableRow['convTranspose']): void => {
    const [w, s, d1] = W === 0 ? [1, 1, { d1: 1 }] : [W, R, {}];
    out.push({ op: 'Conv', shape: { N, C, H, W: w, K, R, S: s, stride, groups: 1, transpose: 1, ...d1 }, level });
  };
  for (const l of CONVT_QUICK) add(0, 1, l);
  for (const l of CONVT_STANDARD) add(1, 1, l);
  for (const l of [...CONVT_QUICK, ...CONVT_STANDARD]) add(2, 4, l);
  // Mask R-CNN's mask head on eight RoIs.
  for (const l of networkTable('mask-rcnn', 'maskHead', 'convTranspose').rows) add(1, 8, l);
  return out;
}

/** The prior's shapes, families in a fixed order (after suite-shapes.ts's own). */
export function priorShapeEntries(): ShapeEntry[] {
  return [
    priorGemmShapes,
    priorRecurrentShapes,
    priorConvShapes,
    poolShapes,
    priorMoveShapes,
    priorRowAndElementwiseShapes,
    smallInputShapes,
    conv1dShapes,
    convTransposeShapes,
  ].flatMap((family) => family());
}
