import { describe, expect, it } from 'vitest';
import {
  ProtoFormatError,
  ProtoReader,
  ProtoTruncatedError,
  WIRE_FIXED32,
  WIRE_FIXED64,
  WIRE_LEN,
  WIRE_VARINT,
} from '../../../../src-main/core/onnx/protobuf-reader.js';
import { ProtoWriter } from '../../../../src-main/core/onnx/protobuf-writer.js';

const fromHex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));

describe('protobuf reader', () => {
  it('reads back varints the writer wrote, up to 64 bits, signed and unsigned', () => {
    const values = [0, 1, 127, 128, 150, 300, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 40 + 5, Number.MAX_SAFE_INTEGER];
    const w = new ProtoWriter();
    values.forEach((v, i) => w.varint(i + 1, v));
    w.varint(20, -1)
      .varint(21, -(2 ** 31))
      .varint(22, -(2 ** 50) - 3);
    const r = new ProtoReader(w.finish());
    for (const [i, v] of values.entries()) {
      expect(r.tag()).toEqual({ field: i + 1, wire: WIRE_VARINT });
      expect(r.uint64()).toBe(v);
    }
    for (const [field, v] of [
      [20, -1],
      [21, -(2 ** 31)],
      [22, -(2 ** 50) - 3],
    ]) {
      expect(r.tag()).toEqual({ field, wire: WIRE_VARINT });
      expect(r.int64()).toBe(v);
    }
    expect(r.tag()).toBeNull();
    expect(r.done).toBe(true);
  });

  it('reads 64-bit varints exactly as bigints', () => {
    const big = [2n ** 63n - 1n, 2n ** 63n, 2n ** 64n - 1n, 2n ** 53n + 1n];
    const w = new ProtoWriter();
    for (const v of big) w.varint(1, v);
    w.varint(2, -2n);
    const r = new ProtoReader(w.finish());
    for (const v of big) {
      r.tag();
      expect(r.uint64Big()).toBe(v);
    }
    r.tag();
    expect(r.int64Big()).toBe(-2n);
  });

  it('reads fixed32, fixed64, float and double', () => {
    const w = new ProtoWriter()
      .fixed32(1, 0xdeadbeef)
      .fixed64(2, 2n ** 60n + 7n)
      .float(3, 1.5)
      .double(4, -2.25);
    const r = new ProtoReader(w.finish());
    expect(r.tag()).toEqual({ field: 1, wire: WIRE_FIXED32 });
    expect(r.fixed32()).toBe(0xdeadbeef);
    expect(r.tag()).toEqual({ field: 2, wire: WIRE_FIXED64 });
    expect(r.fixed64()).toBe(2n ** 60n + 7n);
    r.tag();
    expect(r.float()).toBe(1.5);
    r.tag();
    expect(r.double()).toBe(-2.25);
  });

  it('returns strings and bytes, and nested messages as views of the same buffer (no copy)', () => {
    const big = new Uint8Array(5000).map((_, i) => i & 0xff);
    const inner = new ProtoWriter().string(1, 'héllo').bytes(2, big);
    const buf = new ProtoWriter().varint(1, 7).message(2, inner).string(3, 'tail').finish();
    const r = new ProtoReader(buf);
    r.tag();
    r.uint64();
    expect(r.tag()).toEqual({ field: 2, wire: WIRE_LEN });
    const sub = r.message();
    sub.tag();
    expect(sub.string()).toBe('héllo');
    sub.tag();
    const bytes = sub.bytes();
    expect(bytes.buffer).toBe(buf.buffer);
    expect(bytes).toEqual(big);
    expect(sub.tag()).toBeNull();
    r.tag();
    expect(r.string()).toBe('tail');
  });

  it('reads packed and unpacked repeated fields alike', () => {
    const unpacked = new ProtoWriter().varint(8, 3).varint(8, -4).float(7, 2).float(7, 0.5).finish();
    const packed = new ProtoWriter().packedVarints(8, [3, -4]).packedFloats(7, [2, 0.5]).finish();
    for (const buf of [unpacked, packed]) {
      const r = new ProtoReader(buf);
      const ints: number[] = [];
      const floats: number[] = [];
      for (let t = r.tag(); t; t = r.tag()) {
        if (t.field === 8) r.repeatedVarint(t.wire, ints);
        else r.repeatedFloat(t.wire, floats);
      }
      expect(ints).toEqual([3, -4]);
      expect(floats).toEqual([2, 0.5]);
    }
    const r = new ProtoReader(new ProtoWriter().packedVarints(1, [1, 300, -1, 5]).finish());
    const t = r.tag();
    expect(r.countVarints(t?.wire ?? 0)).toBe(4);
    expect(r.done).toBe(true);
  });

  it('skips fields of every wire type', () => {
    const buf = new ProtoWriter()
      .varint(1, 2 ** 40)
      .fixed64(2, 1n)
      .string(3, 'skip me')
      .fixed32(4, 1)
      .varint(5, 9)
      .finish();
    const r = new ProtoReader(buf);
    for (let t = r.tag(); t; t = r.tag()) {
      if (t.field === 5) expect(r.uint64()).toBe(9);
      else r.skip(t.wire);
    }
    expect(r.done).toBe(true);
  });

  it('throws ProtoTruncatedError wherever a message is cut inside a field, and never hangs', () => {
    const inner = new ProtoWriter().string(1, 'abc').packedVarints(2, [1, 2, 300]);
    const buf = new ProtoWriter()
      .varint(1, 2 ** 40)
      .fixed32(2, 5)
      .message(3, inner)
      .fixed64(4, 9n)
      .double(5, 1)
      .finish();
    const walk = (b: Uint8Array): void => {
      const r = new ProtoReader(b);
      for (let t = r.tag(); t; t = r.tag()) {
        if (t.field === 3) {
          const sub = r.message();
          for (let u = sub.tag(); u; u = sub.tag()) sub.skip(u.wire);
        } else r.skip(t.wire);
      }
    };
    walk(buf);
    // Field boundaries of the outer message: a cut there leaves valid (shorter) protobuf.
    const boundaries = new Set<number>([0]);
    const r = new ProtoReader(buf);
    for (let t = r.tag(); t; t = r.tag()) {
      r.skip(t.wire);
      boundaries.add(r.pos);
    }
    for (let cut = 1; cut < buf.length; cut++) {
      if (boundaries.has(cut)) expect(() => walk(buf.subarray(0, cut))).not.toThrow();
      else expect(() => walk(buf.subarray(0, cut)), `cut at ${cut}`).toThrow(ProtoTruncatedError);
    }
  });

  it('rejects bytes that are not protobuf: field 0, wire types 6 and 7, groups, overlong varints', () => {
    expect(() => new ProtoReader(fromHex('0001')).tag()).toThrow(ProtoFormatError);
    expect(() => new ProtoReader(fromHex('0e')).tag()).toThrow(ProtoFormatError);
    expect(() => new ProtoReader(fromHex('0f')).tag()).toThrow(ProtoFormatError);
    const group = new ProtoReader(fromHex('7b22'));
    const t = group.tag();
    expect(t).toEqual({ field: 15, wire: 3 });
    expect(() => group.skip(t?.wire ?? 0)).toThrow(ProtoFormatError);
    expect(() => new ProtoReader(fromHex('ffffffffffffffffffff01')).uint64()).toThrow(ProtoFormatError);
    expect(new ProtoReader(fromHex('ffffffffffffffffff01')).uint64Big()).toBe(2n ** 64n - 1n);
  });

  it('rejects a wire type that does not match the field', () => {
    const r = new ProtoReader(new ProtoWriter().varint(2, 1).finish());
    const t = r.tag();
    expect(() => r.expectWire(t?.wire ?? 0, WIRE_LEN)).toThrow(ProtoFormatError);
  });

  it('reads a window of a larger buffer without looking outside it', () => {
    const buf = new ProtoWriter().varint(1, 5).varint(2, 6).finish();
    const r = new ProtoReader(buf, 0, 2);
    expect(r.tag()).toEqual({ field: 1, wire: WIRE_VARINT });
    expect(r.uint64()).toBe(5);
    expect(r.tag()).toBeNull();
    expect(() => new ProtoReader(buf, 0, 99)).toThrow(RangeError);
  });
});
