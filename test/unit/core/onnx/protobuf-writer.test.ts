import { describe, expect, it } from 'vitest';
import { ProtoWriter } from '../../../../src-main/core/onnx/protobuf-writer.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('protobuf wire format', () => {
  it('writes varints with their tags', () => {
    expect(hex(new ProtoWriter().varint(1, 1).finish())).toBe('0801');
    expect(hex(new ProtoWriter().varint(1, 150).finish())).toBe('089601');
    expect(hex(new ProtoWriter().varint(2, 300).finish())).toBe('10ac02');
    expect(hex(new ProtoWriter().varint(20, 7).finish())).toBe('a00107');
    expect(hex(new ProtoWriter().varint(1, 2 ** 40).finish())).toBe('08808080808020');
    expect(hex(new ProtoWriter().varint(1, 2n ** 63n).finish())).toBe('0880808080808080808001');
  });

  it("writes negative int64 as a 10-byte two's complement varint", () => {
    expect(hex(new ProtoWriter().varint(3, -1).finish())).toBe('18ffffffffffffffffff01');
    expect(hex(new ProtoWriter().varint(3, -2n).finish())).toBe('18feffffffffffffffff01');
  });

  it('rejects unsafe integers and bad field numbers', () => {
    expect(() => new ProtoWriter().varint(1, 2 ** 60)).toThrow(RangeError);
    expect(() => new ProtoWriter().varint(1, 1.5)).toThrow(RangeError);
    expect(() => new ProtoWriter().varint(0, 1)).toThrow(RangeError);
  });

  it('writes fixed32, fixed64, float and double little-endian', () => {
    expect(hex(new ProtoWriter().fixed32(1, 0x01020304).finish())).toBe('0d04030201');
    expect(hex(new ProtoWriter().fixed64(1, 0x0102030405060708n).finish())).toBe('090807060504030201');
    expect(hex(new ProtoWriter().float(2, 1).finish())).toBe('150000803f');
    expect(hex(new ProtoWriter().double(1, 1).finish())).toBe('09000000000000f03f');
    expect(hex(new ProtoWriter().bool(1, true).finish())).toBe('0801');
  });

  it('writes length-delimited strings, bytes and nested messages', () => {
    expect(hex(new ProtoWriter().string(2, 'testing').finish())).toBe('120774657374696e67');
    expect(hex(new ProtoWriter().string(1, 'é').finish())).toBe('0a02c3a9');
    const inner = new ProtoWriter().varint(1, 150);
    expect(hex(new ProtoWriter().message(3, inner).finish())).toBe('1a03089601');
    expect(hex(new ProtoWriter().message(3, new ProtoWriter()).finish())).toBe('1a00');
  });

  it('writes packed repeated varints and floats, and nothing for an empty list', () => {
    expect(hex(new ProtoWriter().packedVarints(4, [3, 270, 86942]).finish())).toBe('2206038e029ea705');
    expect(hex(new ProtoWriter().packedVarints(8, [-1]).finish())).toBe('420affffffffffffffffff01');
    expect(hex(new ProtoWriter().packedFloats(7, [1, -2]).finish())).toBe('3a080000803f000000c0');
    expect(new ProtoWriter().packedVarints(4, []).finish().length).toBe(0);
  });

  it('keeps large byte arrays and nested messages in order, and reports its length', () => {
    const big = new Uint8Array(5000).map((_, i) => i & 0xff);
    const inner = new ProtoWriter().varint(1, 1).bytes(2, big).varint(3, 2);
    const outer = new ProtoWriter().string(1, 'a');
    const innerLen = inner.length;
    outer.message(2, inner).varint(3, 9);
    const out = outer.finish();
    expect(out.length).toBe(outer.length);
    // 0a0161 | 12 <len varint> 0801 12 <5000 varint> big 1802 | 1809
    expect(innerLen).toBe(2 + 1 + 2 + 5000 + 2);
    expect(hex(out.subarray(0, 6))).toBe('0a0161128f27');
    expect(hex(out.subarray(6, 11))).toBe('0801128827');
    expect(out.subarray(11, 5011)).toEqual(big);
    expect(hex(out.subarray(5011))).toBe('18021809');
  });

  it('grows its scratch buffer past the initial size', () => {
    const w = new ProtoWriter();
    for (let i = 0; i < 1000; i++) w.varint(1, 300);
    const out = w.finish();
    expect(out.length).toBe(3000);
    expect(hex(out.subarray(2997))).toBe('08ac02');
  });
});
