import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import type { Dtype } from '../../../../src-main/core/domain/measurement.js';
import { buildKernelModel, sinkable, type KernelModel } from '../../../../src-main/core/kernels/build.js';
import { convOutDims, convPads, makeKernel, poolOutSize } from '../../../../src-main/core/kernels/cost.js';
import { float32ToFloat16Bits, randomBytes, seededRandom } from '../../../../src-main/core/kernels/fill.js';
import { float16BitsToFloat32 } from '../../../helpers/half-float.js';
import { suiteKernels } from '../../../../src-main/core/kernels/suites.js';
import type { KernelOp } from '../../../../src-main/core/kernels/types.js';
import { parseOnnxModel } from '../../../../src-main/core/onnx/onnx-parser.js';
import { runOnCpu, tensorFor } from '../../../helpers/onnx-oracle-ort.js';

function rand(n: number, seed: number): Float32Array {
  const r = seededRandom(seed);
  return Float32Array.from({ length: n }, () => r() * 2 - 1);
}

/** The initializer a kernel model holds for its `seed`-th random weight (1-based). */
function weight(n: number, seed: number, scale = 1): Float32Array {
  return new Float32Array(randomBytes('fp32', n, seed, scale).buffer);
}

function floats(t: { data: unknown }): Float32Array {
  if (!(t.data instanceof Float32Array)) throw new Error('expected float32 output');
  return t.data;
}

function expectClose(actual: Float32Array, expected: ArrayLike<number>, tol = 1e-4): void {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  for (let i = 0; i < actual.length; i++) {
    const e = expected[i] ?? Number.NaN;
    worst = Math.max(worst, Math.abs((actual[i] ?? Number.NaN) - e) / Math.max(1, Math.abs(e)));
  }
  expect(worst).toBeLessThanOrEqual(tol);
}

/** erf, Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7). */
function erf(x: number): number {
  const s = Math.sign(x);
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-a * a);
  return s * y;
}

/** C[b] = A[b] (m x k) times B[b] (k x n), row-major. */
function matmul(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  batch: number,
  m: number,
  n: number,
  k: number,
): Float64Array {
  const c = new Float64Array(batch * m * n);
  for (let z = 0; z < batch; z++)
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        let acc = 0;
        for (let p = 0; p < k; p++) acc += (a[z * m * k + i * k + p] ?? 0) * (b[z * k * n + p * n + j] ?? 0);
        c[z * m * n + i * n + j] = acc;
      }
  return c;
}

type ConvShape = {
  N: number;
  C: number;
  H: number;
  W: number;
  K: number;
  R: number;
  S: number;
  stride: number;
  groups: number;
};

/**
 * Naive grouped, strided conv of X [N,C,H,W] with W [K,C/groups,R,S], padding floor(R/2),
 * floor(S/2) (none when valid); a 1-D conv is the same with W = S = 1.
 */
function convRef(x: Float32Array, w: Float32Array, s: ConvShape & { valid?: number }): number[] {
  const [cg, kg] = [s.C / s.groups, s.K / s.groups];
  const shape = { ...s, valid: s.valid ?? 0 };
  const [ho, wo] = convOutDims(shape);
  const [pr, ps] = convPads(shape);
  const ref: number[] = [];
  for (let n = 0; n < s.N; n++)
    for (let oc = 0; oc < s.K; oc++)
      for (let oy = 0; oy < ho; oy++)
        for (let ox = 0; ox < wo; ox++) {
          const g = Math.floor(oc / kg);
          let acc = 0;
          for (let ic = 0; ic < cg; ic++)
            for (let r = 0; r < s.R; r++)
              for (let q = 0; q < s.S; q++) {
                const iy = oy * s.stride + r - pr;
                const ix = ox * s.stride + q - ps;
                if (iy < 0 || ix < 0 || iy >= s.H || ix >= s.W) continue;
                const xv = x[((n * s.C + g * cg + ic) * s.H + iy) * s.W + ix] ?? 0;
                acc += xv * (w[((oc * cg + ic) * s.R + r) * s.S + q] ?? 0);
              }
          ref.push(acc);
        }
  return ref;
}

/**
 * Naive transposed conv (unpadded) of X [N,C,H,W] with W [C,K/groups,R,S]: every input pixel
 * scatters its window into Y [N,K,(H-1)*stride+R,(W-1)*stride+S]; 1-D with W = S = 1.
 */
function convTransposeRef(x: Float32Array, w: Float32Array, s: ConvShape): number[] {
  const [cg, kg] = [s.C / s.groups, s.K / s.groups];
  const [ho, wo] = [(s.H - 1) * s.stride + s.R, (s.W - 1) * s.stride + s.S];
  const y = new Float64Array(s.N * s.K * ho * wo);
  for (let n = 0; n < s.N; n++)
    for (let ic = 0; ic < s.C; ic++)
      for (let iy = 0; iy < s.H; iy++)
        for (let ix = 0; ix < s.W; ix++) {
          const xv = x[((n * s.C + ic) * s.H + iy) * s.W + ix] ?? 0;
          const g = Math.floor(ic / cg);
          for (let k = 0; k < kg; k++)
            for (let r = 0; r < s.R; r++)
              for (let q = 0; q < s.S; q++) {
                const oc = g * kg + k;
                const at = ((n * s.K + oc) * ho + iy * s.stride + r) * wo + ix * s.stride + q;
                y[at] = (y[at] ?? 0) + xv * (w[((ic * kg + k) * s.R + r) * s.S + q] ?? 0);
              }
        }
  return [...y];
}

interface PoolShape {
  N: number;
  C: number;
  H: number;
  W: number;
  R: number;
  stride: number;
}

/** Naive R x R pooling with floor((R-1)/2) padding; the average leaves the padding out of the divisor. */
function poolRef(x: Float32Array, s: PoolShape, op: 'MaxPool' | 'AveragePool'): number[] {
  const p = Math.floor((s.R - 1) / 2);
  const [ho, wo] = [poolOutSize(s.H, s.R, s.stride), poolOutSize(s.W, s.R, s.stride)];
  const ref: number[] = [];
  for (let nc = 0; nc < s.N * s.C; nc++)
    for (let oy = 0; oy < ho; oy++)
      for (let ox = 0; ox < wo; ox++) {
        const window: number[] = [];
        for (let r = 0; r < s.R; r++)
          for (let q = 0; q < s.R; q++) {
            const [iy, ix] = [oy * s.stride + r - p, ox * s.stride + q - p];
            if (iy >= 0 && ix >= 0 && iy < s.H && ix < s.W) window.push(x[(nc * s.H + iy) * s.W + ix] ?? 0);
          }
        ref.push(op === 'MaxPool' ? Math.max(...window) : window.reduce((a, v) => a + v, 0) / window.length);
      }
  return ref;
}

/**
 * Runs `km` with every graph optimization ORT has ('all', NCHWc layouts included), one thread;
 * returns the output and the op types of the graph ORT executed.
 */
async function runOptimized(km: KernelModel, feeds: Record<string, Float32Array>): Promise<[ort.Tensor, string[]]> {
  const dir = mkdtempSync(join(tmpdir(), 'pdj-optimized-'));
  const optimizedModelFilePath = join(dir, 'optimized.onnx');
  try {
    const session = await ort.InferenceSession.create(km.model, {
      executionProviders: ['cpu'],
      intraOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      optimizedModelFilePath,
      logSeverityLevel: 3,
    });
    const inputs = Object.fromEntries(km.inputs.map((i) => [i.name, tensorFor(i, feeds[i.name])]));
    const y = (await session.run(inputs))[km.outputName];
    await session.release();
    if (!y) throw new Error(`no output ${km.outputName}`);
    return [y, parseOnnxModel(readFileSync(optimizedModelFilePath)).graph.nodes.map((n) => n.opType)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('kernels on ONNX Runtime (CPU EP, one thread)', () => {
  it('runs every fp32 kernel of the quick suite with the declared output shape', { timeout: 120_000 }, async () => {
    const kernels = suiteKernels('quick', { dtypes: ['fp32'] });
    const started = performance.now();
    for (const k of kernels) {
      const km = buildKernelModel(k);
      const y = await runOnCpu(km);
      expect(y.dims, k.id).toEqual(km.output.dims);
      const data = y.data as ArrayLike<number>;
      // Sqrt and Log of the [-1, 1) inputs give NaN for the negatives, at full speed (no slow path).
      if (k.op !== 'Sqrt' && k.op !== 'Log') expect(Number.isFinite(data[0] ?? Number.NaN), k.id).toBe(true);
    }
    console.log(
      `ORT CPU: ${kernels.length} quick fp32 kernels built, loaded and run once in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  });

  it(
    'runs the quick kernels of other dtypes that are not gpuOnly (data movement, integer arithmetic)',
    { timeout: 180_000 },
    async () => {
      const kernels = suiteKernels('quick', { dtypes: ['fp16', 'int8', 'int32', 'int64'] }).filter((k) => !k.gpuOnly);
      expect(kernels.map((k) => k.op)).toEqual(
        expect.arrayContaining(['Cast', 'Transpose', 'CopyH2D', 'Add', 'Mul', 'Concat', 'Resize']),
      );
      for (const k of kernels) {
        const km = buildKernelModel(k);
        expect((await runOnCpu(km)).dims, k.id).toEqual(km.output.dims);
      }
    },
  );

  it(
    'ends a kernel in a one-element sink when asked: its first value, after the graph ORT runs without it',
    { timeout: 180_000 },
    async () => {
      const kernels = suiteKernels('quick', { dtypes: ['fp32', 'int64'] }).filter((k) => !k.gpuOnly);
      const first = (t: ort.Tensor): unknown => (t.data as ArrayLike<unknown>)[0];
      for (const k of kernels) {
        const [full, fullOps] = await runOptimized(buildKernelModel(k), {});
        const sunk = buildKernelModel(k, { sink: true });
        const [y, ops] = await runOptimized(sunk, {});
        if (!sinkable(k)) {
          expect(ops, k.id).toEqual(fullOps);
          continue;
        }
        expect(ops, k.id).toEqual([...fullOps, 'Slice']);
        expect(y.dims, k.id).toEqual(full.dims.map(() => 1));
        expect(sunk.output.dims, k.id).toEqual(y.dims);
        if (k.op !== 'Sqrt' && k.op !== 'Log') expect(first(y), k.id).toEqual(first(full));
      }
    },
  );

  it('MatMul: a linear layer reads its initializer weight; a batched one multiplies two inputs', async () => {
    const [M, N, K] = [3, 5, 4];
    const a = rand(M * K, 1);
    const lin = await runOnCpu(buildKernelModel(makeKernel('MatMul', 'fp32', { B: 1, M, N, K })), { A: a });
    expect(lin.dims).toEqual([M, N]);
    expectClose(floats(lin), matmul(a, weight(K * N, 1), 1, M, N, K));
    const b = rand(2 * K * N, 2);
    const a2 = rand(2 * M * K, 3);
    const bat = await runOnCpu(buildKernelModel(makeKernel('MatMul', 'fp32', { B: 2, M, N, K })), { A: a2, B: b });
    expectClose(floats(bat), matmul(a2, b, 2, M, N, K));
    const asInputs = await runOnCpu(
      buildKernelModel(makeKernel('MatMul', 'fp32', { B: 1, M, N, K }), { weightsAsInputs: true }),
      {
        A: a,
        W: weight(K * N, 1),
      },
    );
    expectClose(floats(asInputs), floats(lin), 1e-6);
  });

  it('MatMul distinct: GEMVs in a row, each with its own weight, in order', async () => {
    const [M, K, D] = [1, 4, 3];
    const a = rand(M * K, 1);
    const spec = makeKernel('MatMul', 'fp32', { B: 1, M, N: K, K, distinct: D });
    expect(spec.flops).toBe(D * 2 * M * K * K);
    expect(spec.bytes).toBe(4 * (M * K + D * K * K + M * K));
    const y = await runOnCpu(buildKernelModel(spec), { A: a });
    let x: ArrayLike<number> = a;
    const scale = Math.sqrt(3 / K);
    for (let seed = 1; seed <= D; seed++) x = matmul(Float32Array.from(x), weight(K * K, seed, scale), 1, M, K, K);
    expectClose(floats(y), x);
    expect(() => makeKernel('MatMul', 'fp32', { B: 1, M, N: 5, K, distinct: D })).toThrow(/N = K/);
  });

  it('MatMul distinct, batched: K^T and V caches in turn, each its own constant, layer after layer', async () => {
    const [B, M, N, K, D] = [2, 3, 5, 4, 4];
    const a = rand(B * M * K, 1);
    const spec = makeKernel('MatMul', 'fp32', { B, M, N, K, distinct: D });
    expect(spec.flops).toBe(D * 2 * B * M * N * K);
    const y = await runOnCpu(buildKernelModel(spec), { A: a });
    let x: ArrayLike<number> = a;
    for (let seed = 1; seed <= D; seed++) {
      const [inner, outer] = seed % 2 === 1 ? [K, N] : [N, K];
      x = matmul(Float32Array.from(x), weight(B * inner * outer, seed, Math.sqrt(3 / inner)), B, M, outer, inner);
    }
    expect(floats(y)).toHaveLength(B * M * K);
    expectClose(floats(y), x);
    expect(() => makeKernel('MatMul', 'fp32', { B, M, N, K, distinct: 3 })).toThrow(/even/);
  });

  it('MatMul distinct: 128 GEMVs in a row keep their values normal (no overflow, no denormals)', async () => {
    const [K, D] = [512, 128];
    const a = rand(K, 1);
    const y = floats(
      await runOnCpu(buildKernelModel(makeKernel('MatMul', 'fp32', { B: 1, M: 1, N: K, K, distinct: D })), { A: a }),
    );
    const rms = (v: ArrayLike<number>): number => Math.sqrt(Array.from(v).reduce((s, x) => s + x * x, 0) / v.length);
    expect(y.every((v) => Number.isFinite(v))).toBe(true);
    const ratio = rms(y) / rms(a);
    expect(ratio).toBeGreaterThan(1e-6);
    expect(ratio).toBeLessThan(1e6);
  });

  it('Gemm: Y = A W^T + bias with W [N,K]', async () => {
    const [M, N, K] = [2, 3, 5];
    const a = rand(M * K, 4);
    const w = weight(N * K, 1);
    const bias = weight(N, 2);
    const y = await runOnCpu(buildKernelModel(makeKernel('Gemm', 'fp32', { M, N, K })), { A: a });
    const ref: number[] = [];
    for (let i = 0; i < M; i++)
      for (let j = 0; j < N; j++) {
        let acc = bias[j] ?? 0;
        for (let p = 0; p < K; p++) acc += (a[i * K + p] ?? 0) * (w[j * K + p] ?? 0);
        ref.push(acc);
      }
    expectClose(floats(y), ref);
  });

  it('Conv: grouped, strided, padded floor(R/2), against a naive convolution', async () => {
    const s = { N: 2, C: 4, H: 7, W: 6, K: 6, R: 3, S: 3, stride: 2, groups: 2 };
    const k = makeKernel('Conv', 'fp32', s);
    const x = rand(s.N * s.C * s.H * s.W, 5);
    const w = weight((s.K * s.C * s.R * s.S) / s.groups, 1);
    const y = await runOnCpu(buildKernelModel(k), { X: x });
    expect(y.dims).toEqual([s.N, s.K, 4, 3]);
    expectClose(floats(y), convRef(x, w, s));
  });

  it.each([
    ['3x3 stride 1, 16 -> 32 channels', { N: 1, C: 16, H: 10, W: 9, K: 32, R: 3, S: 3, stride: 1, groups: 1 }],
    ['3x3 stride 2 stem, 3 -> 12 channels', { N: 1, C: 3, H: 17, W: 16, K: 12, R: 3, S: 3, stride: 2, groups: 1 }],
    ['1x1, 24 -> 40 channels', { N: 2, C: 24, H: 6, W: 6, K: 40, R: 1, S: 1, stride: 1, groups: 1 }],
    ['depthwise 5x5 stride 2', { N: 1, C: 24, H: 11, W: 11, K: 24, R: 5, S: 5, stride: 2, groups: 24 }],
  ])('Conv with act (%s): Relu(conv), fused by ORT at graphOptimizationLevel all', async (_, s) => {
    const km = buildKernelModel(makeKernel('Conv', 'fp32', { ...s, act: 1 }));
    const x = rand(s.N * s.C * s.H * s.W, 14);
    const ref = convRef(x, weight((s.K * s.C * s.R * s.S) / s.groups, 1), s).map((v) => Math.max(0, v));
    expect(ref.some((v) => v === 0) && ref.some((v) => v > 0)).toBe(true);
    expectClose(floats(await runOnCpu(km, { X: x })), ref);
    const [y, executed] = await runOptimized(km, { X: x });
    expect(y.dims).toEqual(km.output.dims);
    expectClose(floats(y), ref);
    expect(executed).not.toContain('Relu');
    expect(executed.filter((op) => op === 'Conv' || op === 'FusedConv')).toHaveLength(1);
  });

  it.each([
    ['padded floor(R/2)', { N: 2, C: 3, H: 20, W: 1, K: 4, R: 5, S: 1, stride: 3, groups: 1, d1: 1 }, 7],
    ['valid', { N: 1, C: 3, H: 20, W: 1, K: 4, R: 8, S: 1, stride: 4, groups: 1, d1: 1, valid: 1 }, 4],
    ['depthwise', { N: 1, C: 6, H: 9, W: 1, K: 6, R: 3, S: 1, stride: 1, groups: 6, d1: 1 }, 9],
  ])('Conv d1 (%s): a 1-D conv over X [N, C, H] against a naive convolution', async (_, s, ho) => {
    const km = buildKernelModel(makeKernel('Conv', 'fp32', s));
    expect(km.inputs[0]?.dims).toEqual([s.N, s.C, s.H]);
    const x = rand(s.N * s.C * s.H, 21);
    const y = await runOnCpu(km, { X: x });
    expect(y.dims).toEqual([s.N, s.K, ho]);
    expectClose(floats(y), convRef(x, weight((s.K * s.C * s.R) / s.groups, 1), s));
  });

  it.each([
    ['2-D, 2x2/2 (U-Net)', { N: 1, C: 6, H: 5, W: 4, K: 4, R: 2, S: 2, stride: 2, groups: 1 }, [10, 8]],
    [
      '2-D, 4x4/2, overlapping windows, 2 groups',
      { N: 2, C: 4, H: 3, W: 3, K: 6, R: 4, S: 4, stride: 2, groups: 2 },
      [8, 8],
    ],
    ['1-D, 16/8 (HiFi-GAN)', { N: 1, C: 5, H: 7, W: 1, K: 3, R: 16, S: 1, stride: 8, groups: 1, d1: 1 }, [64]],
  ])('Conv transpose (%s): ConvTranspose against a naive scatter', async (_, s, spatial) => {
    const km = buildKernelModel(makeKernel('Conv', 'fp32', { ...s, transpose: 1 }));
    const d1 = 'd1' in s;
    expect(km.inputs[0]?.dims).toEqual(d1 ? [s.N, s.C, s.H] : [s.N, s.C, s.H, s.W]);
    const x = rand(s.N * s.C * s.H * s.W, 23);
    const [y, executed] = await runOptimized(km, { X: x });
    expect(y.dims).toEqual([s.N, s.K, ...spatial]);
    expect(executed).toEqual(['ConvTranspose']);
    expectClose(floats(y), convTransposeRef(x, weight((s.C * s.K * s.R * s.S) / s.groups, 1), s));
  });

  it('Conv d1 stays in NCHW where the same conv as H x 1 2-D gets ORT NCHWc layout', async () => {
    const s = { N: 1, C: 32, H: 40, W: 1, K: 32, R: 3, S: 1, stride: 1, groups: 1 };
    const x = rand(s.N * s.C * s.H, 22);
    const [, as1d] = await runOptimized(buildKernelModel(makeKernel('Conv', 'fp32', { ...s, d1: 1 })), { X: x });
    const [, as2d] = await runOptimized(buildKernelModel(makeKernel('Conv', 'fp32', s)), { X: x });
    expect(as1d).not.toContain('ReorderInput');
    expect(as2d).toContain('ReorderInput');
  });

  it.each([
    { N: 2, C: 3, H: 9, W: 7, R: 3, stride: 2 },
    { N: 1, C: 2, H: 8, W: 6, R: 2, stride: 2 },
    { N: 1, C: 2, H: 6, W: 5, R: 5, stride: 1 },
    { N: 1, C: 1, H: 7, W: 7, R: 3, stride: 1 },
  ])('MaxPool and AveragePool $R x $R / $stride match naive pooling', async (s) => {
    const x = rand(s.N * s.C * s.H * s.W, 15);
    for (const op of ['MaxPool', 'AveragePool'] as const) {
      const y = await runOnCpu(buildKernelModel(makeKernel(op, 'fp32', s)), { X: x });
      expect(y.dims, op).toEqual([s.N, s.C, poolOutSize(s.H, s.R, s.stride), poolOutSize(s.W, s.R, s.stride)]);
      expectClose(floats(y), poolRef(x, s, op), 1e-5);
    }
  });

  it('GlobalAveragePool averages each channel; Concat joins its parts on the last axis', async () => {
    const s = { N: 2, C: 3, H: 5, W: 4 };
    const x = rand(s.N * s.C * s.H * s.W, 16);
    const hw = s.H * s.W;
    const gap = await runOnCpu(buildKernelModel(makeKernel('GlobalAveragePool', 'fp32', s)), { X: x });
    expect(gap.dims).toEqual([2, 3, 1, 1]);
    const means = Array.from(
      { length: s.N * s.C },
      (_, i) => x.subarray(i * hw, (i + 1) * hw).reduce((a, v) => a + v, 0) / hw,
    );
    expectClose(floats(gap), means, 1e-5);
    const [rows, cols, parts] = [3, 12, 3];
    const width = cols / parts;
    const xs = Array.from({ length: parts }, (_, p) => rand(rows * width, 17 + p));
    const feeds = Object.fromEntries(xs.map((v, p) => [`X${p}`, v]));
    const cat = await runOnCpu(buildKernelModel(makeKernel('Concat', 'fp32', { rows, cols, parts })), feeds);
    expect(cat.dims).toEqual([rows, cols]);
    const ref = Array.from({ length: rows * cols }, (_, i) => {
      const [r, c] = [Math.floor(i / cols), i % cols];
      return xs[Math.floor(c / width)]?.[r * width + (c % width)] ?? Number.NaN;
    });
    expectClose(floats(cat), ref, 0);
  });

  it.each([2, 3])('Resize repeats each pixel %i x %i (nearest, floor)', async (scale) => {
    const s = { N: 1, C: 2, H: 3, W: 4, scale };
    const x = rand(s.N * s.C * s.H * s.W, 20);
    const y = await runOnCpu(buildKernelModel(makeKernel('Resize', 'fp32', s)), { X: x });
    const [ho, wo] = [s.H * scale, s.W * scale];
    expect(y.dims).toEqual([1, 2, ho, wo]);
    const ref = Array.from({ length: s.C * ho * wo }, (_, i) => {
      const [c, oy, ox] = [Math.floor(i / (ho * wo)), Math.floor(i / wo) % ho, i % wo];
      return x[(c * s.H + Math.floor(oy / scale)) * s.W + Math.floor(ox / scale)] ?? Number.NaN;
    });
    expectClose(floats(y), ref, 0);
  });

  it('Softmax rows sum to 1; ReduceSum and ReduceMean reduce the last axis', async () => {
    const [rows, cols] = [4, 33];
    const x = rand(rows * cols, 6);
    const sm = floats(await runOnCpu(buildKernelModel(makeKernel('Softmax', 'fp32', { rows, cols })), { X: x }));
    for (let r = 0; r < rows; r++)
      expect(sm.subarray(r * cols, (r + 1) * cols).reduce((a, v) => a + v, 0)).toBeCloseTo(1, 5);
    const sums = Array.from({ length: rows }, (_, r) =>
      x.subarray(r * cols, (r + 1) * cols).reduce((a, v) => a + v, 0),
    );
    const rs = await runOnCpu(buildKernelModel(makeKernel('ReduceSum', 'fp32', { rows, cols })), { X: x });
    expect(rs.dims).toEqual([rows]);
    expectClose(floats(rs), sums);
    const rm = await runOnCpu(buildKernelModel(makeKernel('ReduceMean', 'fp32', { rows, cols })), { X: x });
    expectClose(
      floats(rm),
      sums.map((v) => v / cols),
    );
  });

  it('LayerNormalization: each row has mean 0 and variance 1', async () => {
    const [rows, cols] = [3, 768];
    const x = rand(rows * cols, 7).map((v) => v * 3 + 1);
    const y = floats(
      await runOnCpu(buildKernelModel(makeKernel('LayerNormalization', 'fp32', { rows, cols })), { X: x }),
    );
    for (let r = 0; r < rows; r++) {
      const row = y.subarray(r * cols, (r + 1) * cols);
      const mean = row.reduce((a, v) => a + v, 0) / cols;
      const variance = row.reduce((a, v) => a + (v - mean) ** 2, 0) / cols;
      expect(Math.abs(mean)).toBeLessThan(1e-5);
      expect(variance).toBeCloseTo(1, 3);
    }
  });

  it('SkipLayerNormalization: normalizes X + S per row, and ORT runs the pair as one fused node', async () => {
    const [rows, cols] = [4, 384];
    const kernel = buildKernelModel(makeKernel('SkipLayerNormalization', 'fp32', { rows, cols }));
    const x = rand(rows * cols, 7).map((v) => v * 3 + 1);
    const s = rand(rows * cols, 8);
    const y = floats(await runOnCpu(kernel, { X: x, S: s }));
    expect(kernel.output.dims).toEqual([1, rows, cols]);
    for (let r = 0; r < rows; r++) {
      const sum = Array.from({ length: cols }, (_, j) => (x[r * cols + j] ?? 0) + (s[r * cols + j] ?? 0));
      const mean = sum.reduce((a, v) => a + v, 0) / cols;
      const sd = Math.sqrt(sum.reduce((a, v) => a + (v - mean) ** 2, 0) / cols + 1e-5);
      expectClose(
        y.subarray(r * cols, (r + 1) * cols),
        sum.map((v) => (v - mean) / sd),
        1e-4,
      );
    }
    const dir = mkdtempSync(join(tmpdir(), 'pipedejavu-sln-'));
    try {
      const optimized = join(dir, 'optimized.onnx');
      const session = await ort.InferenceSession.create(kernel.model, { optimizedModelFilePath: optimized });
      await session.release();
      const ops = parseOnnxModel(readFileSync(optimized)).graph.nodes.map((n) => n.opType);
      expect(ops).toEqual(['SkipLayerNormalization']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Gelu (erf form), Sigmoid, Relu, Add and Mul match their formulas', async () => {
    const n = 1000;
    const x = rand(n, 8).map((v) => v * 4);
    const z = rand(n, 9);
    const run = async (op: KernelOp, feeds: Record<string, Float32Array>): Promise<Float32Array> =>
      floats(await runOnCpu(buildKernelModel(makeKernel(op, 'fp32', { n })), feeds));
    expectClose(
      await run('Gelu', { X: x }),
      Array.from(x, (v) => 0.5 * v * (1 + erf(v / Math.SQRT2))),
      1e-5,
    );
    expectClose(
      await run('Sigmoid', { X: x }),
      Array.from(x, (v) => 1 / (1 + Math.exp(-v))),
      1e-5,
    );
    expectClose(
      await run('Relu', { X: x }),
      Array.from(x, (v) => Math.max(0, v)),
      0,
    );
    expectClose(
      await run('Add', { A: x, B: z }),
      Array.from(x, (v, i) => v + (z[i] ?? 0)),
      1e-6,
    );
    expectClose(
      await run('Mul', { A: x, B: z }),
      Array.from(x, (v, i) => v * (z[i] ?? 0)),
      1e-6,
    );
  });

  it('Add and Mul with a scalar operand read one input: x + 3 and x * 1.25, chainable', async () => {
    const n = 1000;
    const x = rand(n, 10);
    for (const [op, f] of [
      ['Add', (v: number) => v + 3],
      ['Mul', (v: number) => v * 1.25],
    ] as const) {
      const kernel = makeKernel(op, 'fp32', { n, scalar: 1 });
      expect(kernel.bytes).toBe((2 * n + 1) * 4);
      const model = buildKernelModel(kernel);
      expect(model.inputs.map((i) => i.name)).toEqual(['A']);
      expectClose(floats(await runOnCpu(model, { A: x })), Array.from(x, f), 1e-6);
    }
  });

  it('Attention: softmax(Q K^T / sqrt(d)) V against a naive implementation', async () => {
    const s = { batch: 2, heads: 3, seq: 5, headDim: 4 };
    const bh = s.batch * s.heads;
    const q = rand(bh * s.seq * s.headDim, 10);
    const kt = rand(bh * s.headDim * s.seq, 11);
    const v = rand(bh * s.seq * s.headDim, 12);
    const y = await runOnCpu(buildKernelModel(makeKernel('Attention', 'fp32', s)), { Q: q, KT: kt, V: v });
    expect(y.dims).toEqual([s.batch, s.heads, s.seq, s.headDim]);
    const scores = matmul(q, kt, bh, s.seq, s.seq, s.headDim);
    const probs = new Float64Array(scores.length);
    for (let r = 0; r < bh * s.seq; r++) {
      const row = Array.from(scores.subarray(r * s.seq, (r + 1) * s.seq), (x) => x / Math.sqrt(s.headDim));
      const max = Math.max(...row);
      const e = row.map((x) => Math.exp(x - max));
      const sum = e.reduce((a, x) => a + x, 0);
      e.forEach((x, i) => (probs[r * s.seq + i] = x / sum));
    }
    expectClose(floats(y), matmul(probs, v, bh, s.seq, s.headDim, s.seq));
  });

  it('Transpose swaps rows and columns; Cast fp32 -> fp16 rounds like the JS conversion; copies are identity', async () => {
    const [rows, cols] = [3, 4];
    const x = rand(rows * cols, 13);
    const t = await runOnCpu(buildKernelModel(makeKernel('Transpose', 'fp32', { rows, cols })), { X: x });
    expect(t.dims).toEqual([cols, rows]);
    expectClose(
      floats(t),
      Array.from({ length: rows * cols }, (_, i) => x[(i % rows) * cols + Math.floor(i / rows)] ?? 0),
      0,
    );
    const c = await runOnCpu(buildKernelModel(makeKernel('Cast', 'fp32', { n: 12 })), { X: x });
    expect(c.type).toBe('float16');
    const bits = Array.from(c.data as ArrayLike<number>, Number);
    expect(bits).toEqual(Array.from(x, float32ToFloat16Bits));
    expect(bits.map(float16BitsToFloat32).every((v, i) => Math.abs(v - (x[i] ?? 0)) < 1e-3)).toBe(true);
    for (const op of ['CopyH2D', 'CopyD2H'] as const) {
      expectClose(floats(await runOnCpu(buildKernelModel(makeKernel(op, 'fp32', { n: 12 })), { X: x })), x, 0);
    }
  });

  it.each(['fp32', 'fp16'] as Dtype[])('Cast from %s goes to the other float type', async (dtype) => {
    const km = buildKernelModel(makeKernel('Cast', dtype, { n: 4 }));
    expect(km.output.dtype).toBe(dtype === 'fp32' ? 'fp16' : 'fp32');
    expect((await runOnCpu(km)).type).toBe(dtype === 'fp32' ? 'float16' : 'float32');
  });
});
