import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { parseOnnxModel } from '../../../../src-main/core/onnx/onnx-parser.js';
import { mapExecutedNodes, nchwcChannelHints } from '../../../../src-main/core/workload/executed-graph.js';
import { importOnnxModel } from '../../../../src-main/core/workload/from-onnx.js';
import {
  eigenThreads,
  MLAS_CONV_ALGORITHMS,
  mlasConvAlgorithm,
  mlasConvThreads,
  mlasGemmThreads,
  nchwcConvUnits,
  partitionSpeedup,
  splitNodeUs,
  threadsUsed,
} from '../../../../src-main/core/workload/parallel-split.js';
import type { WorkloadNode } from '../../../../src-main/core/workload/types.js';

const node = (
  opType: string,
  op: string,
  shape: Record<string, number>,
): Pick<WorkloadNode, 'opType' | 'kernel' | 'dtype'> => ({
  opType,
  kernel: { op, shape },
  dtype: 'fp32',
});

describe("ORT's per-op parallel decision", () => {
  it("splits a loop only from 210,000 of Eigen's cost units (TensorCostModel::numThreads)", () => {
    // fp32 Relu: 4 bytes in and out at 11/64 cycles each, plus 1 compute cycle = 2.375 per element.
    const relu = { bytesLoaded: 4, bytesStored: 4, computeCycles: 1 };
    expect(eigenThreads(88421, relu, 2)).toBe(1); // 209,999.9 units
    expect(eigenThreads(88422, relu, 2)).toBe(2); // 210,002.3 units
    // 1 M elements: int((2,375,000 - 100,000) / 100,000 + 0.9) = 23, capped at the pool's 4.
    expect(eigenThreads(1_000_000, relu, 4)).toBe(4);
    expect(eigenThreads(1_000_000, relu, 64)).toBe(23);
    expect(eigenThreads(1, relu, 4)).toBe(1);
  });

  it("reads each activation's and binary op's declared cost per element", () => {
    // Sigmoid declares 2 cycles: 3.375 per element, split from 62,223 elements on.
    expect(threadsUsed(node('Sigmoid', 'Sigmoid', { n: 62222 }), 2)).toBe(1);
    expect(threadsUsed(node('Sigmoid', 'Sigmoid', { n: 62223 }), 2)).toBe(2);
    // PaddleOCR-cls-sized maps (16 x 24 x 96 = 36,864) stay on one thread for Relu and Add.
    expect(threadsUsed(node('Relu', 'Relu', { n: 36864 }), 2)).toBe(1);
    expect(threadsUsed(node('Add', 'Add', { n: 36864 }), 2)).toBe(1);
    expect(threadsUsed(node('Mul', 'Mul', { n: 294912 }), 2)).toBe(2);
    // Max is priced as Add but runs another loop: not modelled.
    expect(threadsUsed(node('Max', 'Add', { n: 294912 }), 2)).toBeNull();
    expect(threadsUsed({ ...node('Relu', 'Relu', { n: 1e6 }), dtype: 'fp16' }, 2)).toBeNull();
  });

  it("splits a GEMM by MLAS's 65,536 multiply-adds per thread, in 16-column strides", () => {
    expect(mlasGemmThreads(8, 64, 64, 1, 2)).toBe(1); // 32,768
    expect(mlasGemmThreads(64, 64, 64, 1, 2)).toBe(2); // target 5, capped at 2
    expect(mlasGemmThreads(64, 64, 64, 1, 8)).toBe(5);
    // N > M: at most ceil(N / 16) strides; 1 x 32 x 4096 has target 3 but 2 strides.
    expect(mlasGemmThreads(1, 32, 4096, 1, 8)).toBe(2);
    // A batch of small GEMMs: one thread each, the batch spread over the pool.
    expect(mlasGemmThreads(16, 16, 16, 12, 4)).toBe(4);
    expect(threadsUsed(node('FusedMatMul', 'MatMul', { B: 1, M: 8, N: 64, K: 64 }), 4)).toBe(1);
  });

  it('splits a segmented plain conv by its complexity and 16-aligned output strides, an NCHWc conv always', () => {
    // 64 filters x 16 positions x 576: target 10, but a stride of 16 covers the whole output.
    expect(mlasConvThreads(64, 16, 576, 2)).toBe(1);
    expect(mlasConvThreads(8, 16, 8, 2)).toBe(1); // 1,024 multiply-adds
    expect(mlasConvThreads(24, 576, 144, 2)).toBe(2);
    // 16 filters over 16 positions: ExpandThenGemmSegmented, one stride of 16 for the whole output.
    const conv = { N: 1, C: 64, H: 4, W: 4, K: 64, R: 3, S: 3, stride: 1, groups: 1 };
    expect(mlasConvAlgorithm({ ...conv, K: 16 })).toBe('ExpandThenGemmSegmented');
    expect(threadsUsed(node('FusedConv', 'Conv', { ...conv, K: 16 }), 2)).toBe(1);
    expect(threadsUsed(node('Conv', 'Conv', { ...conv, nchwc: 1 }), 2)).toBe(2);
    expect(threadsUsed(node('Conv', 'Conv', { ...conv, H: 1, W: 1, nchwc: 1 }), 2)).toBe(1);
    expect(threadsUsed(node('Conv', 'Conv', { ...conv, C: 1, groups: 64 }), 2)).toBe(2);
    expect(threadsUsed(node('Conv', 'Conv', { ...conv, transpose: 1 }), 2)).toBeNull();
  });

  it('runs a pointwise conv, and one with more filters than output positions, as the threaded GEMM', () => {
    // Silero VAD's STFT conv: 258 filters over (576 - 256) / 128 + 1 = 3 positions, K = 256:
    // im2col, then MlasGemm of 258 x 3 x 256 (198,144 multiply-adds: target 4) split over M.
    const stft = { N: 1, C: 1, H: 576, W: 1, K: 258, R: 256, S: 1, stride: 128, groups: 1, d1: 1, valid: 1 };
    expect(mlasConvAlgorithm(stft)).toBe('ExpandThenGemm');
    expect(threadsUsed(node('Conv', 'Conv', stft), 2)).toBe(2);
    expect(threadsUsed(node('Conv', 'Conv', stft), 4)).toBe(4);
    // 128 filters over 1 position, K = 192: 24,576 multiply-adds, one thread.
    const small = { N: 1, C: 64, H: 1, W: 1, K: 128, R: 3, S: 1, stride: 1, groups: 1, d1: 1 };
    expect(mlasConvAlgorithm(small)).toBe('ExpandThenGemm');
    expect(threadsUsed(node('FusedConv', 'Conv', small), 2)).toBe(1);
    // 64 filters over 4 x 4 positions, K = 576: 589,824 multiply-adds, split over the 64 filters.
    const conv = { N: 1, C: 64, H: 4, W: 4, K: 64, R: 3, S: 3, stride: 1, groups: 1 };
    expect(threadsUsed(node('FusedConv', 'Conv', conv), 2)).toBe(2);
    // A 1x1 conv over a 1x1 map is GemmDirect: 144 x 1 x 576 (82,944: target 2) split over M,
    // where the segmented rule's stride of 16 would have covered its one position.
    const pointwise = { N: 1, C: 576, H: 1, W: 1, K: 144, R: 1, S: 1, stride: 1, groups: 1 };
    expect(mlasConvAlgorithm(pointwise)).toBe('GemmDirect');
    expect(threadsUsed(node('Conv', 'Conv', pointwise), 2)).toBe(2);
    expect(threadsUsed(node('Conv', 'Conv', { ...pointwise, K: 16, C: 16 }), 2)).toBe(1);
    expect(threadsUsed(node('Conv', 'Conv', { ...pointwise, K: 16, C: 16, N: 2 }), 2)).toBe(2);
  });

  it("counts a conv's output positions with its own padding: unpadded (valid) convs have fewer", () => {
    // 40 filters; 64 samples, a window of 32: 33 positions unpadded, 65 padded by 16.
    const c = { N: 1, C: 1, H: 64, W: 1, K: 40, R: 32, S: 1, stride: 1, groups: 1, d1: 1 };
    expect(mlasConvAlgorithm({ ...c, valid: 1 })).toBe('ExpandThenGemm');
    expect(mlasConvAlgorithm(c)).toBe('ExpandThenGemmSegmented');
    expect(MLAS_CONV_ALGORITHMS).toEqual(['GemmDirect', 'ExpandThenGemm', 'ExpandThenGemmSegmented']);
  });

  it("spreads an NCHWc conv's rows x filter sets of 4 blocks evenly over the threads (MlasPartitionWork)", () => {
    expect(partitionSpeedup(3, 2)).toBe(1.5);
    expect(partitionSpeedup(5, 4)).toBe(2.5);
    expect(partitionSpeedup(1, 4)).toBe(1);
    // 48 output channels, 3 output rows: one filter set of 4 x 16 channels, 3 units; with
    // AVX2's 8-channel blocks two sets, 6 units.
    const conv = { N: 1, C: 48, H: 6, W: 24, K: 48, R: 3, S: 3, stride: 2, groups: 1, nchwc: 1 };
    expect(nchwcConvUnits(conv, 16)).toBe(3);
    expect(nchwcConvUnits(conv, 8)).toBe(6);
    expect(threadsUsed(node('Conv', 'Conv', conv), 2, 16)).toBe(1.5);
    expect(threadsUsed(node('Conv', 'Conv', conv), 2, 8)).toBe(2);
    // Depthwise: channel blocks x rows, 64 / 16 x 3 = 12.
    const dw = { ...conv, C: 64, K: 64, groups: 64, H: 3, stride: 1 };
    expect(nchwcConvUnits(dw, 16)).toBe(12);
    // A global pool over 16 channels is one block: not split.
    const pool = { N: 1, C: 16, H: 3, W: 12, nchwc: 1 };
    expect(threadsUsed(node('GlobalAveragePool', 'GlobalAveragePool', pool), 2)).toBe(1);
    expect(threadsUsed(node('GlobalAveragePool', 'GlobalAveragePool', { ...pool, C: 64 }), 4)).toBe(4);
  });

  it('splits an NCHWc-to-NCHW reorder over its channel blocks, above 1,024 elements', () => {
    const out = { N: 1, C: 48, H: 24, W: 96 };
    expect(threadsUsed(node('ReorderOutput', 'ReorderOutput', out), 2)).toBe(1.5); // 3 blocks of 16
    expect(threadsUsed(node('ReorderOutput', 'ReorderOutput', out), 4)).toBe(3);
    expect(threadsUsed(node('ReorderOutput', 'ReorderOutput', { ...out, C: 16 }), 2)).toBe(1); // one block
    expect(threadsUsed(node('ReorderOutput', 'ReorderOutput', { ...out, H: 4, W: 4 }), 2)).toBe(1); // 768 elements
  });

  it('runs everything on one thread at one thread, and leaves ops it does not model unknown', () => {
    expect(threadsUsed(node('Conv', 'Conv', { N: 1, C: 64, H: 64, W: 64, K: 64, R: 3, S: 3, nchwc: 1 }), 1)).toBe(1);
    expect(threadsUsed(node('Softmax', 'Softmax', { rows: 128, cols: 128 }), 2)).toBeNull();
    expect(threadsUsed(node('LayerNormalization', 'LayerNormalization', { rows: 1, cols: 768 }), 2)).toBe(1);
    expect(threadsUsed(node('LayerNormalization', 'LayerNormalization', { rows: 128, cols: 768 }), 2)).toBe(2);
  });
});

describe('a split node inside a model', () => {
  it('costs its prediction at N threads, never less than its 1-thread time over its threads plus one parallel op', () => {
    expect(splitNodeUs(10, 16, 2, 1)).toBe(10);
    expect(splitNodeUs(6, 16, 2, 1)).toBe(9);
    expect(splitNodeUs(6, 16, 2, -3)).toBe(8);
  });
});

describe('PaddleOCR cls as ONNX Runtime executes it (test/fixtures, 1 x 3 x 48 x 192)', () => {
  it('runs every Add, Mul and its Gemm on one thread at 2 threads, and splits the NCHWc convs that carry its work', async () => {
    const bytes = new Uint8Array(readFileSync('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx'));
    const dir = mkdtempSync(join(tmpdir(), 'split-'));
    try {
      const out = join(dir, 'executed.onnx');
      const session = await ort.InferenceSession.create(bytes, {
        executionProviders: ['cpu'],
        intraOpNumThreads: 1,
        graphOptimizationLevel: 'all',
        optimizedModelFilePath: out,
        logSeverityLevel: 3,
      });
      await session.release();
      const source = parseOnnxModel(bytes);
      const ran = parseOnnxModel(new Uint8Array(readFileSync(out)));
      const inputs = { x: [1, 3, 48, 192] };
      const nchwcChannels = nchwcChannelHints(source, ran, mapExecutedNodes(source, ran));
      const w = importOnnxModel(ran, { name: 'cls', inputs, nchwcChannels }).workload;
      const at2 = (n: WorkloadNode): number | null => threadsUsed(n, 2, w.nchwcBlock);
      const of = (op: string): WorkloadNode[] => w.nodes.filter((n) => n.opType === op && n.kernel);
      // Its largest maps are 16 x 24 x 96 = 36,864 elements: under Eigen's 88,422 for an Add.
      expect([...of('Add'), ...of('Mul'), ...of('Gemm')].map(at2).every((k) => k === 1)).toBe(true);
      expect(of('Add').length + of('Mul').length).toBeGreaterThan(40);
      if (w.nchwcBlock !== undefined) {
        const convs = of('Conv').filter((n) => n.kernel?.shape['nchwc']);
        const split = convs.filter((n) => (at2(n) ?? 0) > 1);
        const flops = (ns: WorkloadNode[]): number => ns.reduce((a, n) => a + n.flops, 0);
        // The 1 x 1 maps of its squeeze-excite blocks stay whole; the convs that do the work split.
        expect(split.length).toBeLessThan(convs.length);
        expect(flops(split)).toBeGreaterThan(0.95 * flops(convs));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
