import { describe, expect, it } from 'vitest';
import {
  convOutDims,
  convOutSize,
  kernelBytes,
  kernelFlops,
  makeKernel,
  poolOutSize,
} from '../../../../src-main/core/kernels/cost.js';

describe('kernel FLOPs and bytes (hand-computed)', () => {
  it('gemm: 2*B*M*N*K; A, B (or weight), Y once', () => {
    const mm = makeKernel('MatMul', 'fp32', { B: 1, M: 2, N: 3, K: 4 });
    expect(mm.flops).toBe(48);
    expect(mm.bytes).toBe((2 * 4 + 4 * 3 + 2 * 3) * 4); // 104
    expect(makeKernel('MatMul', 'fp16', { B: 1, M: 2, N: 3, K: 4 }).bytes).toBe(52);
    const batched = makeKernel('MatMul', 'fp32', { B: 2, M: 2, N: 3, K: 4 });
    expect(batched.flops).toBe(96);
    expect(batched.bytes).toBe(208);
    const gemm = makeKernel('Gemm', 'fp32', { M: 2, N: 3, K: 4 });
    expect(gemm.flops).toBe(48);
    expect(gemm.bytes).toBe((8 + 12 + 3 + 6) * 4); // bias [N] counted: 116
    expect(gemm.family).toBe('gemm');
  });

  it('conv: 2*N*K*Ho*Wo*(C/groups)*R*S with floor(R/2) padding', () => {
    const c = makeKernel('Conv', 'fp32', { N: 1, C: 4, H: 8, W: 8, K: 6, R: 3, S: 3, stride: 1, groups: 2 });
    expect(c.flops).toBe(2 * 1 * 6 * 8 * 8 * 2 * 3 * 3); // 13824
    expect(c.bytes).toBe((256 + 6 * 2 * 9 + 6 * 64) * 4); // x + w + y = 2992
    expect(convOutSize(224, 7, 2)).toBe(112);
    expect(convOutSize(56, 3, 2)).toBe(28);
    expect(convOutSize(56, 1, 1)).toBe(56);
    expect(convOutSize(7, 3, 2)).toBe(4);
    const stem = makeKernel('Conv', 'fp32', { N: 1, C: 3, H: 224, W: 224, K: 64, R: 7, S: 7, stride: 2, groups: 1 });
    expect(stem.flops).toBe(2 * 64 * 112 * 112 * 3 * 49); // 236,027,904
    const dw = makeKernel('Conv', 'fp16', { N: 2, C: 32, H: 10, W: 10, K: 32, R: 3, S: 3, stride: 1, groups: 32 });
    expect(dw.flops).toBe(2 * 2 * 32 * 100 * 1 * 9);
    expect(dw.bytes).toBe((2 * 32 * 100 + 32 * 9 + 2 * 32 * 100) * 2);
  });

  it('1-D conv (d1) over X [N, C, H]: W = S = 1; valid drops the padding', () => {
    const shape = { N: 1, C: 1, H: 1000, W: 1, K: 64, R: 200, S: 1, stride: 50, groups: 1, d1: 1 };
    const same = makeKernel('Conv', 'fp32', shape);
    expect(convOutDims(same.shape)).toEqual([21, 1]);
    expect(same.flops).toBe(2 * 64 * 21 * 200);
    const valid = makeKernel('Conv', 'fp32', { ...shape, valid: 1 });
    expect(convOutDims(valid.shape)).toEqual([17, 1]);
    expect(valid.flops).toBe(2 * 64 * 17 * 200);
    expect(valid.bytes).toBe((1000 + 64 * 200 + 64 * 17) * 4);
    expect(valid.id).not.toBe(same.id);
    expect(() => makeKernel('Conv', 'fp32', { ...shape, W: 2 })).toThrow(/W = S = 1/);
    expect(() => makeKernel('Conv', 'fp32', { ...shape, H: 100, R: 200, valid: 1 })).toThrow(/window is larger/);
  });

  it('transposed conv: FLOPs per input pixel, output (H - 1) * stride + R, unpadded, no fused Relu', () => {
    const shape = { N: 1, C: 24, H: 10, W: 8, K: 12, R: 2, S: 2, stride: 2, groups: 1, transpose: 1 };
    const k = makeKernel('Conv', 'fp32', shape);
    expect(convOutDims(k.shape)).toEqual([20, 16]);
    expect(k.flops).toBe(2 * 24 * 80 * 12 * 4);
    expect(k.bytes).toBe((24 * 80 + 24 * 12 * 4 + 12 * 20 * 16) * 4);
    expect(k.id).not.toBe(makeKernel('Conv', 'fp32', { ...shape, transpose: 0 }).id);
    const d1 = makeKernel('Conv', 'fp32', { ...shape, W: 1, S: 1, R: 16, stride: 8, d1: 1 });
    expect(convOutDims(d1.shape)).toEqual([88, 1]);
    expect(() => makeKernel('Conv', 'fp32', { ...shape, act: 1 })).toThrow(/transposed conv/);
    expect(() => makeKernel('Conv', 'fp32', { ...shape, valid: 1 })).toThrow(/transposed conv/);
  });

  it('conv with act: the fused Relu adds 1 FLOP per output element and no bytes', () => {
    const shape = { N: 1, C: 4, H: 8, W: 8, K: 6, R: 3, S: 3, stride: 1, groups: 2 };
    const c = makeKernel('Conv', 'fp32', { ...shape, act: 1 });
    expect(c.flops).toBe(13824 + 6 * 64);
    expect(c.bytes).toBe(2992);
    expect(c.family).toBe('conv');
    const stem = makeKernel('Conv', 'fp32', {
      N: 1,
      C: 3,
      H: 224,
      W: 224,
      K: 32,
      R: 3,
      S: 3,
      stride: 2,
      groups: 1,
      act: 1,
    });
    expect(stem.flops).toBe(2 * 32 * 112 * 112 * 27 + 32 * 112 * 112);
  });

  it('pools: out x window FLOPs, floor((R-1)/2) padding; in + out bytes', () => {
    expect(poolOutSize(112, 3, 2)).toBe(56); // ResNet's 3x3/2, pads 1
    expect(poolOutSize(224, 2, 2)).toBe(112); // VGG's 2x2/2, no padding
    expect(poolOutSize(7, 2, 2)).toBe(3);
    expect(poolOutSize(20, 5, 1)).toBe(20); // SPPF's 5x5/1, pads 2
    expect(poolOutSize(35, 3, 1)).toBe(35);
    const mp = makeKernel('MaxPool', 'fp32', { N: 1, C: 2, H: 9, W: 9, R: 3, stride: 2 });
    expect(mp).toMatchObject({ flops: 2 * 25 * 9, bytes: (162 + 50) * 4, family: 'reduction', gpuOnly: false });
    const ap = makeKernel('AveragePool', 'fp16', { N: 2, C: 3, H: 8, W: 6, R: 2, stride: 2 });
    expect(ap).toMatchObject({ flops: 2 * 3 * 12 * 4, bytes: (288 + 72) * 2, family: 'reduction', gpuOnly: true });
    const gap = makeKernel('GlobalAveragePool', 'fp32', { N: 1, C: 2048, H: 7, W: 7 });
    expect(gap).toMatchObject({ flops: 2048 * 49, bytes: (2048 * 49 + 2048) * 4, family: 'reduction' });
  });

  it('Concat and Resize (nearest) move data: 0 FLOPs; Concat 2 x output, Resize input + scale^2 x input', () => {
    expect(makeKernel('Concat', 'fp32', { rows: 2, cols: 6, parts: 3 })).toMatchObject({
      flops: 0,
      bytes: 2 * 12 * 4,
      family: 'datamove',
    });
    expect(makeKernel('Concat', 'fp16', { rows: 1, cols: 802816, parts: 2 }).bytes).toBe(2 * 802816 * 2);
    const r = makeKernel('Resize', 'fp32', { N: 1, C: 2, H: 3, W: 4, scale: 2 });
    expect(r).toMatchObject({ flops: 0, bytes: (24 + 96) * 4, family: 'datamove', gpuOnly: false });
    expect(makeKernel('Resize', 'fp16', { N: 1, C: 256, H: 28, W: 28, scale: 4 }).bytes).toBe(256 * 784 * 17 * 2);
  });

  it('elementwise: 1 FLOP per element (Sigmoid 4, Gelu 8); binary ops move 3n (2n + 1 with a scalar), unary 2n', () => {
    expect(makeKernel('Add', 'fp32', { n: 1000 })).toMatchObject({ flops: 1000, bytes: 12000, family: 'elementwise' });
    expect(makeKernel('Mul', 'int64', { n: 10 })).toMatchObject({ flops: 10, bytes: 240 });
    // A scalar operand: x, the scalar and the output.
    expect(makeKernel('Add', 'fp32', { n: 1000, scalar: 1 })).toMatchObject({ flops: 1000, bytes: 8004 });
    expect(makeKernel('Mul', 'fp32', { n: 1000, scalar: 1 }).id).toBe('Mul.fp32.n=1000,scalar=1');
    expect(makeKernel('Relu', 'fp32', { n: 1000 })).toMatchObject({ flops: 1000, bytes: 8000 });
    expect(makeKernel('Sigmoid', 'fp32', { n: 1000 })).toMatchObject({ flops: 4000, bytes: 8000 });
    expect(makeKernel('Gelu', 'bf16', { n: 1000 })).toMatchObject({ flops: 8000, bytes: 4000 });
  });

  it('reductions: 1 FLOP per input element; softmax 5; layernorm 8', () => {
    expect(makeKernel('ReduceSum', 'fp32', { rows: 3, cols: 5 })).toMatchObject({
      flops: 15,
      bytes: 72,
      family: 'reduction',
    });
    expect(makeKernel('ReduceMean', 'fp16', { rows: 3, cols: 5 })).toMatchObject({ flops: 15, bytes: 36 });
    expect(makeKernel('Softmax', 'fp32', { rows: 3, cols: 5 })).toMatchObject({
      flops: 75,
      bytes: 120,
      family: 'softmax',
    });
    expect(makeKernel('LayerNormalization', 'fp32', { rows: 3, cols: 5 })).toMatchObject({
      flops: 120,
      bytes: (30 + 10) * 4, // X, Y, scale, bias
      family: 'layernorm',
    });
  });

  it('attention: 4*b*h*s*s*d + 5*b*h*s*s; Q, K, V and output once', () => {
    const a = makeKernel('Attention', 'fp32', { batch: 1, heads: 2, seq: 4, headDim: 8 });
    expect(a.flops).toBe(4 * 32 * 8 + 5 * 32); // 1184
    expect(a.bytes).toBe(4 * 1 * 2 * 4 * 8 * 4); // 1024
    const bert = makeKernel('Attention', 'fp16', { batch: 1, heads: 12, seq: 128, headDim: 64 });
    expect(bert.flops).toBe(4 * 12 * 128 * 128 * 64 + 5 * 12 * 128 * 128);
    expect(bert.bytes).toBe(4 * 12 * 128 * 64 * 2);
  });

  it('data movement: 0 FLOPs; Cast counts each side at its size, copies the payload once', () => {
    expect(makeKernel('Transpose', 'fp32', { rows: 3, cols: 5 })).toMatchObject({
      flops: 0,
      bytes: 120,
      family: 'datamove',
    });
    expect(makeKernel('Cast', 'fp32', { n: 10 })).toMatchObject({ flops: 0, bytes: 60, family: 'datamove' });
    expect(makeKernel('Cast', 'fp16', { n: 10 })).toMatchObject({ flops: 0, bytes: 60 });
    expect(makeKernel('CopyH2D', 'fp32', { n: 10 })).toMatchObject({ flops: 0, bytes: 40, family: 'copy' });
    expect(makeKernel('CopyD2H', 'int64', { n: 10 })).toMatchObject({ flops: 0, bytes: 80, family: 'copy' });
    expect(makeKernel('CopyD2H', 'int8', { n: 10 }).bytes).toBe(10);
  });

  it('agrees with the standalone formulas', () => {
    expect(kernelFlops('MatMul', { B: 3, M: 5, N: 7, K: 11 })).toBe(2 * 3 * 5 * 7 * 11);
    expect(kernelBytes('Add', 'fp16', { n: 4 })).toBe(24);
  });
});

describe('makeKernel', () => {
  it('names kernels stably, whatever the key order', () => {
    const a = makeKernel('MatMul', 'fp32', { K: 4, N: 3, M: 2, B: 1 });
    const b = makeKernel('MatMul', 'fp32', { B: 1, M: 2, N: 3, K: 4 });
    expect(a.id).toBe('MatMul.fp32.B=1,K=4,M=2,N=3');
    expect(a).toEqual(b);
    expect(Object.keys(a.shape)).toEqual(['B', 'M', 'N', 'K']);
  });

  it('takes optional dims: absent means 0, a 0 is dropped so old ids stay, a 1 enters the id', () => {
    const shape = { N: 1, C: 4, H: 8, W: 8, K: 6, R: 3, S: 3, stride: 1, groups: 2 };
    const plain = makeKernel('Conv', 'fp32', shape);
    expect(plain.id).toBe('Conv.fp32.C=4,H=8,K=6,N=1,R=3,S=3,W=8,groups=2,stride=1');
    expect(makeKernel('Conv', 'fp32', { ...shape, act: 0 })).toEqual(plain);
    const act = makeKernel('Conv', 'fp32', { act: 1, ...shape });
    expect(act.id).toBe('Conv.fp32.C=4,H=8,K=6,N=1,R=3,S=3,W=8,act=1,groups=2,stride=1');
    expect(Object.keys(act.shape)).toEqual(['N', 'C', 'H', 'W', 'K', 'R', 'S', 'stride', 'groups', 'act']);
    expect(makeKernel('Conv', 'fp32', act.shape)).toEqual(act);
    expect(() => makeKernel('Conv', 'fp32', { ...shape, act: 2 })).toThrow(/act must be 0\.\.1/);
    expect(() => makeKernel('Conv', 'fp32', { ...shape, act: 0.5 })).toThrow(/act must be 0\.\.1/);
    expect(() => makeKernel('MatMul', 'fp32', { B: 1, M: 2, N: 3, K: 4, act: 1 })).toThrow(/needs dims/);
  });

  it('checks the new ops: Concat parts divide cols, a pool window fits the padded input', () => {
    expect(() => makeKernel('Concat', 'fp32', { rows: 2, cols: 7, parts: 3 })).toThrow(/divide by parts/);
    expect(() => makeKernel('MaxPool', 'fp32', { N: 1, C: 1, H: 1, W: 4, R: 2, stride: 1 })).toThrow(/larger/);
    expect(makeKernel('MaxPool', 'fp32', { N: 1, C: 1, H: 1, W: 1, R: 3, stride: 1 }).flops).toBe(9);
    expect(() => makeKernel('Resize', 'fp32', { N: 1, C: 1, H: 2, W: 2 })).toThrow(/needs dims/);
    expect(() => makeKernel('GlobalAveragePool', 'bf16', { N: 1, C: 1, H: 2, W: 2 })).toThrow(/not built/);
  });

  it('marks reduced-precision compute gpuOnly, not data movement', () => {
    expect(makeKernel('MatMul', 'fp16', { B: 1, M: 2, N: 3, K: 4 }).gpuOnly).toBe(true);
    expect(makeKernel('Softmax', 'bf16', { rows: 2, cols: 2 }).gpuOnly).toBe(true);
    expect(makeKernel('MatMul', 'fp32', { B: 1, M: 2, N: 3, K: 4 }).gpuOnly).toBe(false);
    expect(makeKernel('Cast', 'fp16', { n: 2 }).gpuOnly).toBe(false);
    expect(makeKernel('CopyH2D', 'fp16', { n: 2 }).gpuOnly).toBe(false);
    expect(makeKernel('Add', 'int32', { n: 2 }).gpuOnly).toBe(false);
  });

  it('rejects missing, extra or non-positive dims, unsupported dtypes and bad groups', () => {
    expect(() => makeKernel('MatMul', 'fp32', { M: 2, N: 3, K: 4 })).toThrow(/needs dims/);
    expect(() => makeKernel('Add', 'fp32', { n: 2, m: 3 })).toThrow(/needs dims/);
    expect(() => makeKernel('Add', 'fp32', { n: 0 })).toThrow(/positive integer/);
    expect(() => makeKernel('Add', 'fp32', { n: 1.5 })).toThrow(/positive integer/);
    expect(() =>
      makeKernel('Conv', 'bf16', { N: 1, C: 4, H: 8, W: 8, K: 4, R: 3, S: 3, stride: 1, groups: 1 }),
    ).toThrow(/not built for bf16/);
    expect(() =>
      makeKernel('Conv', 'fp32', { N: 1, C: 4, H: 8, W: 8, K: 6, R: 3, S: 3, stride: 1, groups: 4 }),
    ).toThrow(/groups/);
    expect(() => makeKernel('Cast', 'int8', { n: 2 })).toThrow(/not built/);
  });
});
