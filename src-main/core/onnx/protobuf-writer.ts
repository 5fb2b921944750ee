/**
 * Minimal protobuf wire-format writer: just what encoding an ONNX model needs. Pure.
 *
 * Wire types: 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32. Zigzag (sint32/sint64) is
 * not needed: ONNX uses int64, where a negative value is its 64-bit two's complement as a
 * 10-byte varint. Repeated scalars are written packed; protobuf parsers must accept packed and
 * unpacked encodings alike, for proto2 files (onnx.proto) too.
 *
 * A writer keeps its output as a list of chunks, so nesting a message or appending a large
 * byte array (a weight tensor) copies nothing until `finish()`, which copies everything once.
 */

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LEN = 2;
const WIRE_FIXED32 = 5;

/** Byte arrays at least this long are kept by reference instead of copied into the scratch buffer. */
const BY_REFERENCE_MIN = 1024;

const utf8 = new TextEncoder();

export class ProtoWriter {
  private readonly chunks: Uint8Array[] = [];
  private chunkBytes = 0;
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  private pos = 0;

  /** Bytes written so far. */
  get length(): number {
    return this.chunkBytes + this.pos;
  }

  /** Varint field. `value` is an unsigned or int64 value; negative numbers become 64-bit two's complement. */
  varint(field: number, value: number | bigint): this {
    this.tag(field, WIRE_VARINT);
    this.rawVarint(value);
    return this;
  }

  /** Bool field (varint 0/1). */
  bool(field: number, value: boolean): this {
    return this.varint(field, value ? 1 : 0);
  }

  /** fixed32 field (unsigned 32-bit, little-endian). */
  fixed32(field: number, value: number): this {
    this.tag(field, WIRE_FIXED32);
    this.ensure(4);
    this.view.setUint32(this.pos, value >>> 0, true);
    this.pos += 4;
    return this;
  }

  /** fixed64 field (unsigned 64-bit, little-endian). */
  fixed64(field: number, value: bigint): this {
    this.tag(field, WIRE_FIXED64);
    this.ensure(8);
    this.view.setBigUint64(this.pos, BigInt.asUintN(64, value), true);
    this.pos += 8;
    return this;
  }

  /** `float` field (fixed32 wire type, IEEE-754 single, little-endian). */
  float(field: number, value: number): this {
    this.tag(field, WIRE_FIXED32);
    this.ensure(4);
    this.view.setFloat32(this.pos, value, true);
    this.pos += 4;
    return this;
  }

  /** `double` field (fixed64 wire type, little-endian). */
  double(field: number, value: number): this {
    this.tag(field, WIRE_FIXED64);
    this.ensure(8);
    this.view.setFloat64(this.pos, value, true);
    this.pos += 8;
    return this;
  }

  /** `string` field, UTF-8. */
  string(field: number, value: string): this {
    return this.bytes(field, utf8.encode(value));
  }

  /** `bytes` field. Large arrays are kept by reference: do not modify them before `finish()`. */
  bytes(field: number, data: Uint8Array): this {
    this.tag(field, WIRE_LEN);
    this.rawVarint(data.length);
    this.append(data);
    return this;
  }

  /** Embedded message field. `sub` is consumed: do not write to it afterwards. */
  message(field: number, sub: ProtoWriter): this {
    this.tag(field, WIRE_LEN);
    this.rawVarint(sub.length);
    this.flush();
    for (const c of sub.parts()) this.chunks.push(c);
    this.chunkBytes += sub.length;
    return this;
  }

  /** Packed repeated varint field (int32/int64/uint64/enum); nothing is written for an empty list. */
  packedVarints(field: number, values: readonly (number | bigint)[]): this {
    if (values.length === 0) return this;
    const body = new ProtoWriter();
    for (const v of values) body.rawVarint(v);
    return this.message(field, body);
  }

  /** Packed repeated `float` field; nothing is written for an empty list. */
  packedFloats(field: number, values: readonly number[]): this {
    if (values.length === 0) return this;
    const data = new Uint8Array(values.length * 4);
    const dv = new DataView(data.buffer);
    values.forEach((v, i) => dv.setFloat32(i * 4, v, true));
    return this.bytes(field, data);
  }

  /** The encoded message as one array. */
  finish(): Uint8Array {
    const parts = this.parts();
    if (parts.length === 1 && parts[0]) return parts[0];
    const out = new Uint8Array(this.chunkBytes);
    let at = 0;
    for (const c of parts) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }

  private parts(): Uint8Array[] {
    this.flush();
    return this.chunks;
  }

  private tag(field: number, wire: number): void {
    if (!Number.isInteger(field) || field < 1 || field > 0x1fffffff) throw new RangeError(`bad field number ${field}`);
    this.rawVarint(field * 8 + wire);
  }

  private rawVarint(value: number | bigint): void {
    if (typeof value === 'bigint') {
      let v = BigInt.asUintN(64, value);
      this.ensure(10);
      while (v >= 0x80n) {
        this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
        v >>= 7n;
      }
      this.buf[this.pos++] = Number(v);
      return;
    }
    if (!Number.isSafeInteger(value)) throw new RangeError(`varint must be a safe integer, got ${value}`);
    if (value < 0) {
      this.rawVarint(BigInt(value));
      return;
    }
    this.ensure(10);
    let v = value;
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.pos++] = v;
  }

  private append(data: Uint8Array): void {
    if (data.length >= BY_REFERENCE_MIN) {
      this.flush();
      this.chunks.push(data);
      this.chunkBytes += data.length;
      return;
    }
    this.ensure(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    this.flush();
    if (n > this.buf.length) {
      this.buf = new Uint8Array(Math.max(n, this.buf.length * 2));
      this.view = new DataView(this.buf.buffer);
    }
  }

  /** Moves the scratch bytes into the chunk list and starts a fresh scratch buffer. */
  private flush(): void {
    if (this.pos === 0) return;
    this.chunks.push(this.buf.subarray(0, this.pos));
    this.chunkBytes += this.pos;
    this.buf = new Uint8Array(this.buf.length);
    this.view = new DataView(this.buf.buffer);
    this.pos = 0;
  }
}
