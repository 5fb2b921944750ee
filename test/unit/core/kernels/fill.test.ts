import { describe, expect, it } from 'vitest';
import {
  encodeValues,
  float32ToBfloat16Bits,
  float32ToFloat16Bits,
  randomBytes,
} from '../../../../src-main/core/kernels/fill.js';
import { float16BitsToFloat32 } from '../../../helpers/half-float.js';

describe('float conversions', () => {
  it('converts to IEEE half precision, rounding to nearest even', () => {
    const cases: [number, number][] = [
      [0, 0x0000],
      [-0, 0x8000],
      [1, 0x3c00],
      [-2, 0xc000],
      [0.5, 0x3800],
      [65504, 0x7bff],
      [65520, 0x7c00], // rounds up to Inf
      [1e6, 0x7c00],
      [Infinity, 0x7c00],
      [2 ** -24, 0x0001], // smallest subnormal
      [2 ** -14, 0x0400], // smallest normal
      [2 ** -26, 0x0000],
      [1 + 2 ** -11, 0x3c00], // tie -> even
      [1 + 3 * 2 ** -11, 0x3c02], // tie -> even (up)
      [0.1, 0x2e66],
    ];
    for (const [v, bits] of cases) expect(float32ToFloat16Bits(v), String(v)).toBe(bits);
    expect(float32ToFloat16Bits(Number.NaN) & 0x7c00).toBe(0x7c00);
    expect(float32ToFloat16Bits(Number.NaN) & 0x3ff).not.toBe(0);
  });

  it('round-trips every finite half value', () => {
    for (let bits = 0; bits < 0x10000; bits++) {
      if ((bits & 0x7c00) === 0x7c00) continue;
      expect(float32ToFloat16Bits(float16BitsToFloat32(bits))).toBe(bits);
    }
  });

  it('converts to bfloat16 with round-to-nearest-even', () => {
    expect(float32ToBfloat16Bits(1)).toBe(0x3f80);
    expect(float32ToBfloat16Bits(-2)).toBe(0xc000);
    expect(float32ToBfloat16Bits(1 + 2 ** -8)).toBe(0x3f80); // tie -> even
    expect(float32ToBfloat16Bits(1 + 3 * 2 ** -8)).toBe(0x3f82);
    expect(float32ToBfloat16Bits(Number.NaN) & 0x7f80).toBe(0x7f80);
  });
});

describe('tensor bytes', () => {
  it('encodes each dtype little-endian', () => {
    expect(Array.from(encodeValues('fp32', [1]))).toEqual([0, 0, 0x80, 0x3f]);
    expect(Array.from(encodeValues('fp16', [1]))).toEqual([0x00, 0x3c]);
    expect(Array.from(encodeValues('bf16', [1]))).toEqual([0x80, 0x3f]);
    expect(Array.from(encodeValues('int8', [-1]))).toEqual([0xff]);
    expect(Array.from(encodeValues('int32', [-2]))).toEqual([0xfe, 0xff, 0xff, 0xff]);
    expect(Array.from(encodeValues('int64', [-1]))).toEqual(new Array(8).fill(0xff));
  });

  it('fills deterministically, in range, without zeros-only or denormal floats, at any size', () => {
    const a = randomBytes('fp32', 10_000, 3);
    expect(a).toEqual(randomBytes('fp32', 10_000, 3));
    expect(a).not.toEqual(randomBytes('fp32', 10_000, 4));
    const f = new Float32Array(a.buffer);
    expect(f.every((v) => v >= -1 && v < 1)).toBe(true);
    expect(f.filter((v) => v !== 0 && Math.abs(v) < 1e-30).length).toBe(0);
    expect(new Set(f.subarray(0, 4096)).size).toBeGreaterThan(4000);
    const ints = new Int8Array(randomBytes('int8', 5000).buffer);
    expect(ints.every((v) => v >= -8 && v < 8)).toBe(true);
    expect(randomBytes('int64', 3).length).toBe(24);
    expect(randomBytes('fp16', 0).length).toBe(0);
  });
});
