/**
 * Minimal protobuf wire-format reader: the counterpart of protobuf-writer.ts, just what
 * decoding an ONNX model needs. Pure.
 *
 * A reader walks one message (a window [start, end) of a byte array). Length-delimited
 * fields come back as `subarray` views of the same buffer: nothing is copied, so a 1 GB
 * weight tensor costs nothing to skip. Every read checks the window: input that ends early
 * throws a ProtoTruncatedError, bytes that cannot be protobuf throw a ProtoFormatError;
 * every loop advances, so no input makes the reader hang.
 */

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
const WIRE_START_GROUP = 3;
const WIRE_END_GROUP = 4;
export const WIRE_FIXED32 = 5;

/** Input ends in the middle of a field. */
export class ProtoTruncatedError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'ProtoTruncatedError';
  }
}

/** Bytes that are not valid protobuf wire format (bad wire type, field 0, overlong varint). */
export class ProtoFormatError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'ProtoFormatError';
  }
}

const TWO_32 = 2 ** 32;
const utf8 = new TextDecoder('utf-8');

export class ProtoReader {
  /** Next byte to read. */
  pos: number;
  readonly end: number;
  private view: DataView | null = null;

  constructor(
    readonly buf: Uint8Array,
    start = 0,
    end = buf.length,
  ) {
    if (start < 0 || end > buf.length || start > end) throw new RangeError(`bad window [${start}, ${end})`);
    this.pos = start;
    this.end = end;
  }

  /** True when the window has been read to its end. */
  get done(): boolean {
    return this.pos >= this.end;
  }

  /**
   * The next field's tag, or null at the end of the window. Throws on field number 0 and on
   * wire types 6 and 7, which no encoder writes.
   */
  tag(): { field: number; wire: number } | null {
    if (this.pos >= this.end) return null;
    const at = this.pos;
    const key = this.uint64();
    const wire = key % 8;
    const field = Math.floor(key / 8);
    if (field === 0 || wire > 5 || field > 0x1fffffff) {
      throw new ProtoFormatError(`invalid field tag 0x${key.toString(16)} at byte ${at}`);
    }
    return { field, wire };
  }

  /**
   * Unsigned varint as a number: exact below 2^53 (every length, enum, count or dim a model
   * holds), rounded above.
   */
  uint64(): number {
    const { lo, hi } = this.varintParts();
    return hi * TWO_32 + lo;
  }

  /** int64/int32 varint (negative values are 10-byte two's complement) as a number: exact within ±2^53. */
  int64(): number {
    const { lo, hi } = this.varintParts();
    if (hi >= 0x80000000) return -((~hi >>> 0) * TWO_32 + (~lo >>> 0) + 1);
    return hi * TWO_32 + lo;
  }

  /** Unsigned varint, exact. */
  uint64Big(): bigint {
    const { lo, hi } = this.varintParts();
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  /** Signed (two's complement) int64 varint, exact. */
  int64Big(): bigint {
    return BigInt.asIntN(64, this.uint64Big());
  }

  /** A length that must fit in the window: a LEN field's size. */
  length(): number {
    const at = this.pos;
    const n = this.uint64();
    if (n > this.end - this.pos) {
      throw new ProtoTruncatedError(
        `length ${n} at byte ${at} runs past the end of the data (${this.end - this.pos} bytes left)`,
      );
    }
    return n;
  }

  fixed32(): number {
    return this.dataView(4).getUint32(this.advance(4), true);
  }

  float(): number {
    return this.dataView(4).getFloat32(this.advance(4), true);
  }

  fixed64(): bigint {
    return this.dataView(8).getBigUint64(this.advance(8), true);
  }

  double(): number {
    return this.dataView(8).getFloat64(this.advance(8), true);
  }

  /** A length-delimited field's bytes: a view of the buffer, not a copy. */
  bytes(): Uint8Array {
    const n = this.length();
    const start = this.pos;
    this.pos += n;
    return this.buf.subarray(start, start + n);
  }

  /** A length-delimited field decoded as UTF-8 (invalid sequences become U+FFFD). */
  string(): string {
    return utf8.decode(this.bytes());
  }

  /** A reader over an embedded message, and skips past it here. */
  message(): ProtoReader {
    const n = this.length();
    const sub = new ProtoReader(this.buf, this.pos, this.pos + n);
    this.pos += n;
    return sub;
  }

  /** Skips a field's value of the given wire type. */
  skip(wire: number): void {
    switch (wire) {
      case WIRE_VARINT:
        this.varintParts();
        return;
      case WIRE_FIXED64:
        this.advance(8);
        return;
      case WIRE_LEN: {
        const n = this.length(); // before reading pos: length() moves past the length varint
        this.pos += n;
        return;
      }
      case WIRE_FIXED32:
        this.advance(4);
        return;
      case WIRE_START_GROUP:
      case WIRE_END_GROUP:
        throw new ProtoFormatError(`groups (wire type ${wire}) are not used by ONNX, at byte ${this.pos}`);
      default:
        throw new ProtoFormatError(`invalid wire type ${wire} at byte ${this.pos}`);
    }
  }

  /**
   * A repeated int64 field's value(s): packed (LEN) or one unpacked varint; appends to `out`.
   * `signed` false reads uint64.
   */
  repeatedVarint(wire: number, out: number[], signed = true): void {
    if (wire === WIRE_VARINT) {
      out.push(signed ? this.int64() : this.uint64());
      return;
    }
    this.expectWire(wire, WIRE_LEN);
    const n = this.length();
    const stop = this.pos + n;
    const sub = new ProtoReader(this.buf, this.pos, stop);
    while (!sub.done) out.push(signed ? sub.int64() : sub.uint64());
    this.pos = stop;
  }

  /** Counts the varints of a repeated field's value(s) without decoding them, and skips them. */
  countVarints(wire: number): number {
    if (wire === WIRE_VARINT) {
      this.varintParts();
      return 1;
    }
    this.expectWire(wire, WIRE_LEN);
    const n = this.length();
    let count = 0;
    for (let i = this.pos; i < this.pos + n; i++) if ((this.buf[i] ?? 0) < 0x80) count++;
    if (n > 0 && (this.buf[this.pos + n - 1] ?? 0) >= 0x80) {
      throw new ProtoTruncatedError(`packed varints end inside a varint at byte ${this.pos + n}`);
    }
    this.pos += n;
    return count;
  }

  /** A repeated float (fixed32) field's value(s): packed or one unpacked value; appends to `out`. */
  repeatedFloat(wire: number, out: number[]): void {
    if (wire === WIRE_FIXED32) {
      out.push(this.float());
      return;
    }
    this.expectWire(wire, WIRE_LEN);
    const n = this.length();
    if (n % 4 !== 0) throw new ProtoFormatError(`packed floats of ${n} bytes at byte ${this.pos}`);
    const dv = this.dataView(n);
    for (let i = 0; i < n; i += 4) out.push(dv.getFloat32(this.pos + i, true));
    this.pos += n;
  }

  /** A repeated double (fixed64) field's value(s): packed or one unpacked value; appends to `out`. */
  repeatedDouble(wire: number, out: number[]): void {
    if (wire === WIRE_FIXED64) {
      out.push(this.double());
      return;
    }
    this.expectWire(wire, WIRE_LEN);
    const n = this.length();
    if (n % 8 !== 0) throw new ProtoFormatError(`packed doubles of ${n} bytes at byte ${this.pos}`);
    const dv = this.dataView(n);
    for (let i = 0; i < n; i += 8) out.push(dv.getFloat64(this.pos + i, true));
    this.pos += n;
  }

  /** Elements in a repeated fixed-size field's value(s) (packed or not), skipping them. */
  countFixed(wire: number, size: 4 | 8): number {
    if (wire === (size === 4 ? WIRE_FIXED32 : WIRE_FIXED64)) {
      this.advance(size);
      return 1;
    }
    this.expectWire(wire, WIRE_LEN);
    const n = this.length();
    this.pos += n;
    return Math.floor(n / size);
  }

  /** Throws unless the field has the wire type its schema gives it. */
  expectWire(wire: number, want: number): void {
    if (wire !== want) throw new ProtoFormatError(`wire type ${wire} where ${want} was expected, at byte ${this.pos}`);
  }

  /** Low and high 32 bits of a varint of up to 10 bytes. */
  private varintParts(): { lo: number; hi: number } {
    const buf = this.buf;
    let lo = 0;
    let hi = 0;
    let shift = 0;
    let i = this.pos;
    for (let n = 0; n < 10; n++) {
      if (i >= this.end) throw new ProtoTruncatedError(`varint runs past the end of the data at byte ${i}`);
      const b = buf[i++] ?? 0;
      if (n < 4) lo |= (b & 0x7f) << shift;
      else if (n === 4) {
        lo |= (b & 0x0f) << 28;
        hi |= (b & 0x7f) >> 4;
      } else hi |= (b & 0x7f) << (shift - 32);
      shift += 7;
      if (b < 0x80) {
        this.pos = i;
        return { lo: lo >>> 0, hi: hi >>> 0 };
      }
    }
    throw new ProtoFormatError(`varint longer than 10 bytes at byte ${this.pos}`);
  }

  private advance(n: number): number {
    if (this.pos + n > this.end) {
      throw new ProtoTruncatedError(`${n}-byte value at byte ${this.pos} runs past the end of the data`);
    }
    const at = this.pos;
    this.pos += n;
    return at;
  }

  /** A DataView over the whole buffer (positions are absolute), after checking `n` bytes remain. */
  private dataView(n: number): DataView {
    if (this.pos + n > this.end) {
      throw new ProtoTruncatedError(`${n}-byte value at byte ${this.pos} runs past the end of the data`);
    }
    this.view ??= new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    return this.view;
  }
}
