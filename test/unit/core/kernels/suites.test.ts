import { describe, expect, it } from 'vitest';
import type { Dtype } from '../../../../src-main/core/domain/measurement.js';
import { convOutDims, makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { refineAround } from '../../../../src-main/core/kernels/refine.js';
import { LEVEL_CAPS, SUITE_NAMES, suiteKernels, suiteShapes } from '../../../../src-main/core/kernels/suites.js';
import { KERNEL_OPS, OP_DTYPES, OP_FAMILY, TIMED_INSIDE_OPS } from '../../../../src-main/core/kernels/types.js';

const ALL: Dtype[] = ['fp32', 'fp16', 'bf16', 'int8', 'int32', 'int64'];

describe('suites', () => {
  it.each(SUITE_NAMES)('%s: ids are unique and every kernel is valid', (suite) => {
    const ks = suiteKernels(suite, { dtypes: ALL });
    expect(new Set(ks.map((k) => k.id)).size).toBe(ks.length);
    for (const k of ks) expect(makeKernel(k.op, k.dtype, k.shape)).toEqual(k);
  });

  it('is deterministic', () => {
    for (const suite of SUITE_NAMES) {
      expect(suiteKernels(suite, { dtypes: ['fp32', 'fp16'] })).toEqual(
        suiteKernels(suite, { dtypes: ['fp32', 'fp16'] }),
      );
    }
  });

  it('nests: quick is part of standard, standard of thorough', () => {
    const ids = (suite: (typeof SUITE_NAMES)[number]): Set<string> =>
      new Set(suiteKernels(suite, { dtypes: ALL }).map((k) => k.id));
    const [q, s, t] = [ids('quick'), ids('standard'), ids('thorough')];
    expect([...q].filter((id) => !s.has(id))).toEqual([]);
    expect([...s].filter((id) => !t.has(id))).toEqual([]);
    expect(q.size).toBeLessThan(s.size);
    expect(s.size).toBeLessThan(t.size);
  });

  it('sizes: quick ~300 kernels per dtype, standard ~790, thorough more; every op built alone in every suite', () => {
    const n = (suite: (typeof SUITE_NAMES)[number]): number => suiteKernels(suite, { dtypes: ['fp32'] }).length;
    expect(n('quick')).toBeGreaterThanOrEqual(110);
    expect(n('quick')).toBeLessThanOrEqual(315);
    expect(n('standard')).toBeGreaterThanOrEqual(450);
    expect(n('standard')).toBeLessThanOrEqual(810);
    expect(n('thorough')).toBeGreaterThan(2000);
    for (const suite of SUITE_NAMES) {
      expect(new Set(suiteKernels(suite, { dtypes: ['fp32'] }).map((k) => k.op))).toEqual(
        new Set(KERNEL_OPS.filter((op) => !TIMED_INSIDE_OPS.has(op))),
      );
    }
  });

  it('quick stays small: each kernel at most 2.2 GFLOP and 200 MiB, ~17.7 GFLOP and ~2.2 GiB in all', () => {
    const ks = suiteKernels('quick', { dtypes: ['fp32'] });
    for (const k of ks) {
      expect(k.flops, k.id).toBeLessThanOrEqual(2.2e9);
      expect(k.bytes, k.id).toBeLessThanOrEqual(200 * 2 ** 20);
    }
    // 13.1 GFLOP and the two chains of 32-row products over distinct weights (2.1 GFLOP each, about
    // 20 ms a run at one thread) with their products alone: what a prompt's products do not hide of
    // their read (cold-weights.ts); the two rows of grouped-query decode attention over distinct caches, 0.54 GFLOP.
    expect(ks.reduce((a, k) => a + k.flops, 0)).toBeLessThan(18.6e9);
    // 1.5 GiB, the 896 MiB the distinct-weight and distinct-cache chains stream (about 20 ms a run
    // each at one thread), the 16 MiB weight of a product alone and the decode attention products'
    // caches (17 MiB the largest).
    expect(ks.reduce((a, k) => a + k.bytes, 0)).toBeLessThan(1.5 * 2 ** 30 + 896 * 2 ** 20 + 96 * 2 ** 20);
  });

  it('quick: the layer prior adds only small kernels (< 300 MFLOP, < 30 MB: a few ms on two threads)', () => {
    const ks = suiteKernels('quick', { dtypes: ['fp32'] });
    const small = (k: (typeof ks)[number]): boolean => k.flops < 300e6 && k.bytes < 30e6;
    const cnnOps = new Set(['MaxPool', 'AveragePool', 'GlobalAveragePool', 'Concat', 'Resize']);
    const prior = ks.filter((k) => cnnOps.has(k.op) || (k.op === 'Conv' && k.shape.act === 1));
    expect(prior.length).toBeGreaterThan(30);
    for (const k of prior) expect(small(k), k.id).toBe(true);
    // Only the 13 original large picks (1024^3 GEMM, 16M-element streams, long attention...),
    // one scalar-operand stream past the L3, Mul's and Sigmoid's 4M-element streams, the three
    // chains of distinct GEMVs a decode step streams its weights like, the two chains of a
    // prompt's 32-row products over distinct weights and the two rows of grouped-query decode
    // attention over distinct caches (128 MiB each) are bigger.
    expect(ks.filter((k) => !small(k)).length).toBeLessThanOrEqual(23);
    const chains = ks.filter((k) => k.shape['distinct']).map((k) => k.bytes / 2 ** 20);
    expect(chains).toHaveLength(7);
    for (const mib of chains) {
      expect(mib).toBeGreaterThanOrEqual(128);
      expect(mib).toBeLessThan(129);
    }
    // A rate in bytes per second: built in fp32 alone, not again in every float type.
    const all = suiteKernels('thorough', { dtypes: ['fp32', 'fp16', 'bf16'] });
    expect(new Set(all.filter((k) => k.shape['distinct']).map((k) => k.dtype))).toEqual(new Set(['fp32']));
  });

  it('quick covers real CNN and transformer layers: fused convs, odd channel counts, stems, skinny GEMMs, CNN ops', () => {
    const q = suiteKernels('quick', { dtypes: ['fp32'] });
    const acts = q.filter((k) => k.op === 'Conv' && k.shape.act === 1).map((k) => k.shape);
    const has = (pred: (x: Record<string, number>) => boolean): boolean => acts.some(pred);
    expect(has((x) => x.R === 3 && x.stride === 1 && x.groups === 1)).toBe(true);
    expect(has((x) => x.R === 3 && x.stride === 2 && x.groups === 1)).toBe(true);
    expect(has((x) => x.R === 1 && x.groups === 1)).toBe(true);
    expect(has((x) => x.R === 3 && x.groups === x.C && (x.C ?? 0) > 1)).toBe(true); // depthwise 3x3
    expect(has((x) => x.R === 5 && x.groups === x.C && (x.C ?? 0) > 1)).toBe(true); // depthwise 5x5
    expect(has((x) => (x.K ?? 0) % 16 === 0)).toBe(true);
    expect(has((x) => (x.K ?? 0) % 16 === 8)).toBe(true); // 24, 40, 72, 120
    expect(has((x) => (x.K ?? 0) % 8 !== 0)).toBe(true); // 58
    expect(has((x) => x.C === 3 && (x.H ?? 0) >= 224 && x.stride === 2 && ((x.K ?? 0) === 16 || x.K === 32))).toBe(
      true,
    );
    expect(has((x) => x.C === 3 && x.H === 320)).toBe(true);
    const convs = q.filter((k) => k.op === 'Conv').map((k) => k.shape);
    expect(convs.some((x) => x.act === undefined && (x.K ?? 0) % 8 !== 0)).toBe(true); // 12, 116, 255
    const skinny = q.filter((k) => k.op === 'MatMul' && k.shape.B === 1 && (k.shape.M ?? 0) <= 512);
    for (const width of [256, 384, 512, 768, 1024]) {
      expect(
        skinny.some((k) => k.shape.K === width),
        `width ${width}`,
      ).toBe(true);
    }
    expect(skinny.some((k) => k.shape.M === 1) && skinny.some((k) => k.shape.M === 512)).toBe(true);
    const ln = q.filter((k) => k.op === 'LayerNormalization' || k.op === 'Softmax').map((k) => k.shape);
    expect(
      ln.filter((x) => (x.rows ?? 0) >= 64 && (x.rows ?? 0) <= 1024 && (x.cols ?? 0) >= 256).length,
    ).toBeGreaterThanOrEqual(4);
    const adds = q.filter(
      (k) => (k.op === 'Add' || k.op === 'Mul') && (k.shape.n ?? 0) >= 16384 && (k.shape.n ?? 0) <= 2 ** 21,
    );
    expect(adds.length).toBeGreaterThanOrEqual(4);
    expect(q.some((k) => k.op === 'Transpose' && k.shape.rows === 64 && k.shape.cols === 3136)).toBe(true);
  });

  it('quick covers 1-D convs of speech models: unpadded front ends, depthwise, a few positions (streaming)', () => {
    const d1 = suiteKernels('quick', { dtypes: ['fp32'] }).filter((k) => k.op === 'Conv' && k.shape.d1 === 1);
    expect(d1.length).toBeGreaterThanOrEqual(12);
    for (const k of d1) {
      expect([k.shape.W, k.shape.S], k.id).toEqual([1, 1]);
      expect(k.flops < 300e6 && k.bytes < 30e6, k.id).toBe(true);
    }
    const shapes = d1.map((k) => k.shape);
    expect(shapes.some((x) => x.valid === 1 && x.C === 1 && (x.R ?? 0) >= 100)).toBe(true); // STFT as a conv
    expect(shapes.some((x) => x.groups === x.C && (x.C ?? 0) > 1)).toBe(true);
    expect(shapes.filter((x) => convOutDims(x)[0] <= 4).length).toBeGreaterThanOrEqual(3);
  });

  it('quick covers transposed convs of decoders and generators: 2-D and 1-D, overlapping windows', () => {
    const q = suiteKernels('quick', { dtypes: ['fp32'] }).filter((k) => k.op === 'Conv' && k.shape.transpose === 1);
    expect(q.length).toBeGreaterThanOrEqual(12);
    for (const k of q) expect(k.flops < 300e6 && k.bytes < 30e6, k.id).toBe(true);
    const shapes = q.map((k) => k.shape);
    expect(shapes.some((x) => x.d1 === 1)).toBe(true);
    expect(shapes.some((x) => x.R === x.stride && !x.d1)).toBe(true); // U-Net's 2x2/2
    expect(shapes.some((x) => (x.R ?? 0) > (x.stride ?? 0) && !x.d1)).toBe(true); // DCGAN's 4x4/2
  });

  it('standard and thorough keep within their caps', () => {
    for (const [suite, caps] of [
      ['standard', LEVEL_CAPS[1]],
      ['thorough', LEVEL_CAPS[2]],
    ] as const) {
      for (const k of suiteKernels(suite, { dtypes: ['fp32'] })) {
        expect(k.flops, k.id).toBeLessThanOrEqual(caps.flops);
        expect(k.bytes, k.id).toBeLessThanOrEqual(caps.bytes);
      }
    }
  });

  it('covers the chosen ranges: hidden 256..8192, sequences 128..4096, ResNet stages, elementwise 1..64M', () => {
    const t = suiteKernels('thorough', { dtypes: ['fp32'] });
    const s = suiteKernels('standard', { dtypes: ['fp32'] });
    const q = suiteKernels('quick', { dtypes: ['fp32'] });
    const mmK = new Set(t.filter((k) => k.op === 'MatMul' && k.shape.B === 1).map((k) => k.shape.K));
    for (const d of [256, 512, 768, 1024, 2048, 4096, 8192]) expect(mmK.has(d), `hidden ${d}`).toBe(true);
    const seqs = new Set(s.filter((k) => k.op === 'Attention').map((k) => k.shape.seq));
    for (const sq of [128, 256, 512, 1024, 2048, 4096]) expect(seqs.has(sq), `seq ${sq}`).toBe(true);
    const convs = q.filter((k) => k.op === 'Conv').map((k) => k.shape);
    for (const [hw, c] of [
      [56, 64],
      [28, 128],
      [14, 256],
      [7, 512],
    ]) {
      expect(convs.some((x) => x.H === hw && x.C === c && x.R === 3)).toBe(true);
    }
    expect(convs.some((x) => x.R === 7 && x.stride === 2)).toBe(true); // stem
    expect(convs.some((x) => x.R === 1)).toBe(true);
    expect(convs.some((x) => x.groups === x.C && (x.groups ?? 0) > 1)).toBe(true); // depthwise
    expect(convs.some((x) => x.groups !== undefined && x.groups > 1 && x.groups < (x.C ?? 0))).toBe(true); // grouped
    const adds = s.filter((k) => k.op === 'Add').map((k) => k.shape.n);
    expect(Math.min(...(adds as number[]))).toBe(1);
    expect(Math.max(...(adds as number[]))).toBe(64 * 2 ** 20);
  });

  it('builds each dtype only for the ops that support it, dtype-major in the order asked', () => {
    const ks = suiteKernels('quick', { dtypes: ['int32', 'fp32'] });
    const firstFp32 = ks.findIndex((k) => k.dtype === 'fp32');
    expect(ks.slice(0, firstFp32).every((k) => k.dtype === 'int32')).toBe(true);
    expect(new Set(ks.filter((k) => k.dtype === 'int32').map((k) => k.op))).toEqual(
      new Set(KERNEL_OPS.filter((op) => OP_DTYPES[op].includes('int32'))),
    );
    expect(suiteKernels('quick', { dtypes: ['fp32', 'fp32'] })).toEqual(suiteKernels('quick', { dtypes: ['fp32'] }));
  });

  it('fp16 variants of the GEMMs and recurrent layers exist and are gpuOnly', () => {
    const fp16 = suiteKernels('quick', { dtypes: ['fp16'] }).filter((k) => k.family === 'gemm');
    const gemms = suiteShapes('quick').filter((e) => OP_FAMILY[e.op] === 'gemm' && !e.dtypes);
    expect(fp16.length).toBe(gemms.length);
    expect(fp16.every((k) => k.gpuOnly)).toBe(true);
  });

  it('honours maxFlops and maxBytes', () => {
    const ks = suiteKernels('standard', { dtypes: ['fp32'], maxFlops: 1e9, maxBytes: 64 * 2 ** 20 });
    expect(ks.length).toBeGreaterThan(100);
    expect(ks.every((k) => k.flops <= 1e9 && k.bytes <= 64 * 2 ** 20)).toBe(true);
  });
});

describe('refineAround', () => {
  it('scales a 1-D conv along its length, never its W', () => {
    const k = makeKernel('Conv', 'fp32', { N: 1, C: 64, H: 100, W: 1, K: 64, R: 3, S: 1, stride: 1, groups: 1, d1: 1 });
    const shapes = refineAround(k, 1.5).map((r) => r.shape);
    expect(shapes.map((x) => x.H)).toEqual(expect.arrayContaining([68, 152])); // 100 is a multiple of 4: so are they
    expect(shapes.length).toBe(7); // N up; H, C and K both ways
    for (const x of shapes) expect([x.W, x.S, x.d1]).toEqual([1, 1, 1]);
  });

  it('scales each axis of a GEMM by the factor both ways, keeping alignment', () => {
    const k = makeKernel('MatMul', 'fp32', { B: 1, M: 128, N: 768, K: 768 });
    const shapes = refineAround(k, 1.5).map((r) => r.shape);
    expect(shapes).toEqual([
      { B: 2, M: 128, N: 768, K: 768 },
      { B: 1, M: 80, N: 768, K: 768 },
      { B: 1, M: 192, N: 768, K: 768 },
      { B: 1, M: 128, N: 512, K: 768 },
      { B: 1, M: 128, N: 1152, K: 768 },
      { B: 1, M: 128, N: 768, K: 512 },
      { B: 1, M: 128, N: 768, K: 1152 },
    ]);
  });

  it('scales conv spatial dims together, keeps C and K multiples of groups, keeps depthwise depthwise', () => {
    const g = makeKernel('Conv', 'fp32', { N: 1, C: 128, H: 56, W: 56, K: 128, R: 3, S: 3, stride: 1, groups: 32 });
    for (const r of refineAround(g, 1.3)) {
      expect(r.shape.H).toBe(r.shape.W);
      expect((r.shape.C ?? 0) % 32).toBe(0);
      expect((r.shape.K ?? 0) % 32).toBe(0);
      expect([r.shape.R, r.shape.S, r.shape.stride, r.shape.groups]).toEqual([3, 3, 1, 32]);
    }
    const dw = makeKernel('Conv', 'fp32', { N: 1, C: 32, H: 112, W: 112, K: 32, R: 3, S: 3, stride: 1, groups: 32 });
    const rs = refineAround(dw, 2);
    expect(rs.every((r) => r.shape.groups === r.shape.C && r.shape.K === r.shape.C)).toBe(true);
    expect(rs.map((r) => r.shape.C)).toEqual(expect.arrayContaining([16, 64]));
  });

  it('keeps the structural dims of the new ops: act, pool windows, Concat parts dividing cols, Resize scale', () => {
    const conv = makeKernel('Conv', 'fp32', {
      N: 1,
      C: 24,
      H: 56,
      W: 56,
      K: 72,
      R: 1,
      S: 1,
      stride: 1,
      groups: 1,
      act: 1,
    });
    expect(refineAround(conv, 2).every((r) => r.shape.act === 1)).toBe(true);
    const cat = makeKernel('Concat', 'fp32', { rows: 1, cols: 3 * 20 * 20, parts: 3 });
    const cats = refineAround(cat, 1.5);
    expect(cats.some((r) => r.shape.cols !== cat.shape.cols)).toBe(true);
    expect(cats.every((r) => r.shape.parts === 3 && (r.shape.cols ?? 0) % 3 === 0)).toBe(true);
    const pool = makeKernel('MaxPool', 'fp16', { N: 1, C: 64, H: 112, W: 112, R: 3, stride: 2 });
    const pools = refineAround(pool, 2);
    expect(pools.map((r) => r.shape.H)).toEqual(expect.arrayContaining([64, 224])); // 112 is 16-aligned
    expect(pools.every((r) => r.shape.R === 3 && r.shape.stride === 2 && r.shape.H === r.shape.W)).toBe(true);
    const up = makeKernel('Resize', 'fp32', { N: 1, C: 256, H: 28, W: 28, scale: 2 });
    expect(refineAround(up, 2).every((r) => r.shape.scale === 2)).toBe(true);
  });

  it('returns unique valid neighbours without the original, never below 1', () => {
    const one = makeKernel('Add', 'fp32', { n: 1 });
    expect(refineAround(one, 2).map((r) => r.shape.n)).toEqual([2]);
    const att = makeKernel('Attention', 'fp16', { batch: 1, heads: 12, seq: 512, headDim: 64 });
    const rs = refineAround(att, 2);
    expect(rs.map((r) => r.id)).not.toContain(att.id);
    expect(new Set(rs.map((r) => r.id)).size).toBe(rs.length);
    expect(rs.every((r) => r.shape.headDim === 64 && r.dtype === 'fp16')).toBe(true);
    expect(rs.map((r) => r.shape.seq)).toEqual(expect.arrayContaining([256, 1024]));
    expect(() => refineAround(att, 1)).toThrow(RangeError);
  });
});
