/**
 * Deterministic tensor contents for kernel weights: little-endian element bytes of any Dtype,
 * plus the float -> fp16/bf16 bit conversions they need. Pure.
 *
 * Values are pseudo-random in [-1, 1) (integers in [-8, 8)), never denormal, so no kernel hits
 * a slow path or a zero shortcut. A block of 4096 values is generated and tiled: the timing
 * does not depend on the values, and tiling keeps 100M-element weights cheap to build.
 */
export { seededRandom } from '../random.js';
import { seededRandom } from '../random.js';
import type { Dtype } from '../domain/measurement.js';
import { DTYPE_BYTES } from '../domain/dtypes.js';

const BLOCK = 4096;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE half-precision bits of `value`, rounded to nearest even. */
export function float32ToFloat16Bits(value: number): number {
  f32[0] = value;
  const x = u32[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0); // Inf / NaN
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // overflow -> Inf
  if (e <= 0) {
    if (e < -10) return sign; // underflow -> 0
    mant |= 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    const rest = mant & ((1 << shift) - 1);
    let m = mant >>> shift;
    if (rest > half || (rest === half && (m & 1) === 1)) m += 1;
    return sign | m;
  }
  let m = mant >>> 13;
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (m & 1) === 1)) {
    m += 1;
    if (m === 0x400) {
      m = 0;
      e += 1;
      if (e >= 0x1f) return sign | 0x7c00;
    }
  }
  return sign | (e << 10) | m;
}

/** bfloat16 bits of `value` (the upper half of the float32, rounded to nearest even). */
export function float32ToBfloat16Bits(value: number): number {
  f32[0] = value;
  const x = u32[0] ?? 0;
  if ((x & 0x7fffffff) > 0x7f800000) return (x >>> 16) | 0x40; // NaN stays NaN
  return ((x + 0x7fff + ((x >>> 16) & 1)) >>> 16) & 0xffff;
}

/** Little-endian bytes of `values` converted to `dtype` (integers are rounded). */
export function encodeValues(dtype: Dtype, values: readonly number[]): Uint8Array {
  const out = new Uint8Array(values.length * DTYPE_BYTES[dtype]);
  const dv = new DataView(out.buffer);
  values.forEach((v, i) => {
    switch (dtype) {
      case 'fp32':
        dv.setFloat32(i * 4, v, true);
        break;
      case 'fp16':
        dv.setUint16(i * 2, float32ToFloat16Bits(v), true);
        break;
      case 'bf16':
        dv.setUint16(i * 2, float32ToBfloat16Bits(v), true);
        break;
      case 'int8':
        dv.setInt8(i, Math.round(v));
        break;
      case 'int32':
        dv.setInt32(i * 4, Math.round(v), true);
        break;
      case 'int64':
        dv.setBigInt64(i * 8, BigInt(Math.round(v)), true);
        break;
    }
  });
  return out;
}

/** `count` deterministic pseudo-random elements of `dtype` as little-endian bytes. */
export function randomBytes(dtype: Dtype, count: number, seed = 1, scale = 1): Uint8Array {
  const rand = seededRandom(seed);
  const isFloat = dtype === 'fp32' || dtype === 'fp16' || dtype === 'bf16';
  const block: number[] = [];
  for (let i = 0; i < Math.min(count, BLOCK); i++) {
    block.push(isFloat ? (rand() * 2 - 1) * scale : Math.floor(rand() * 16) - 8);
  }
  const blockBytes = encodeValues(dtype, block);
  const out = new Uint8Array(count * DTYPE_BYTES[dtype]);
  out.set(blockBytes, 0);
  // Doubling copies: log2(count / BLOCK) calls instead of one per block.
  for (let filled = blockBytes.length; filled < out.length; filled *= 2) {
    out.copyWithin(filled, 0, Math.min(filled, out.length - filled));
  }
  return out;
}
