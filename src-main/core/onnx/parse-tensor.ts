/**
 * TensorProto -> OnnxTensor: dims, type, sizes, external-data location, and the values of
 * small numeric tensors (shape constants). Weight bytes are never copied. Pure.
 */
import { ProtoReader, WIRE_LEN, WIRE_VARINT } from './protobuf-reader.js';
import { STRIPPED_RAW_FIELD } from './onnx-skeleton.js';
import {
  DataType,
  elementBytes,
  SMALL_TENSOR_ELEMENTS,
  type OnnxExternalData,
  type OnnxTensor,
} from './parse-types.js';

/** IEEE half-precision bits -> number. */
function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}

/** bfloat16 bits -> number. */
function bfloatToFloat(h: number): number {
  const dv = new DataView(new ArrayBuffer(4));
  dv.setUint32(0, (h & 0xffff) << 16);
  return dv.getFloat32(0);
}

/** Decodes the values of `count` elements of raw little-endian data, or null for types it does not read. */
function decodeRaw(raw: Uint8Array, dataType: number, count: number): number[] | null {
  const size = elementBytes(dataType);
  if (raw.length < count * size) return null;
  const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const out: number[] = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const at = i * size;
    switch (dataType) {
      case DataType.FLOAT:
        out[i] = dv.getFloat32(at, true);
        break;
      case DataType.DOUBLE:
        out[i] = dv.getFloat64(at, true);
        break;
      case DataType.INT64:
        out[i] = Number(dv.getBigInt64(at, true));
        break;
      case DataType.UINT64:
        out[i] = Number(dv.getBigUint64(at, true));
        break;
      case DataType.INT32:
        out[i] = dv.getInt32(at, true);
        break;
      case DataType.UINT32:
        out[i] = dv.getUint32(at, true);
        break;
      case DataType.INT16:
        out[i] = dv.getInt16(at, true);
        break;
      case DataType.UINT16:
        out[i] = dv.getUint16(at, true);
        break;
      case DataType.INT8:
        out[i] = dv.getInt8(at);
        break;
      case DataType.UINT8:
      case DataType.BOOL:
        out[i] = dv.getUint8(at);
        break;
      case DataType.FLOAT16:
        out[i] = halfToFloat(dv.getUint16(at, true));
        break;
      case DataType.BFLOAT16:
        out[i] = bfloatToFloat(dv.getUint16(at, true));
        break;
      default:
        return null;
    }
  }
  return out;
}

/** Typed-field values (int32_data of float16/bfloat16 holds the bits). */
function fromTyped(values: number[], dataType: number): number[] {
  if (dataType === DataType.FLOAT16) return values.map(halfToFloat);
  if (dataType === DataType.BFLOAT16) return values.map(bfloatToFloat);
  return values;
}

/** A TensorProto's fields as read; `typed` is null once the typed values are too many to keep. */
interface RawTensor {
  dims: number[];
  dataType: number;
  name: string;
  raw: Uint8Array | null;
  typedCount: number;
  typed: number[] | null;
  stringBytes: number;
  external: boolean;
  entries: Map<string, string>;
  /** raw_data's length when the skeleton reader left it out (STRIPPED_RAW_FIELD), else null. */
  strippedRaw: number | null;
}

type TensorField = (r: ProtoReader, wire: number, x: RawTensor, field: number) => void;

/** float_data (4) and double_data (10): kept while the tensor is small, else only counted. */
const fixedData: TensorField = (r, wire, x, field) => {
  const size = field === 4 ? 4 : 8;
  const n = wire === WIRE_LEN ? peekPackedCount(r, size) : 1;
  if (x.typed !== null && x.typedCount + n <= SMALL_TENSOR_ELEMENTS) {
    if (size === 4) r.repeatedFloat(wire, x.typed);
    else r.repeatedDouble(wire, x.typed);
  } else {
    x.typed = null;
    r.countFixed(wire, size);
  }
  x.typedCount += n;
};

/** int32_data (5), int64_data (7), uint64_data (11): kept while the tensor is small, else only counted. */
const varintData: TensorField = (r, wire, x, field) => {
  const n = wire === WIRE_LEN ? peekVarintCount(r) : 1;
  if (x.typed !== null && x.typedCount + n <= SMALL_TENSOR_ELEMENTS) r.repeatedVarint(wire, x.typed, field !== 11);
  else {
    x.typed = null;
    r.countVarints(wire);
  }
  x.typedCount += n;
};

/** external_data: StringStringEntryProto {key = 1, value = 2}. */
const externalEntry: TensorField = (r, wire, x) => {
  r.expectWire(wire, WIRE_LEN);
  const e = r.message();
  let key = '';
  let value = '';
  for (let et = e.tag(); et; et = e.tag()) {
    if (et.field === 1 && et.wire === WIRE_LEN) key = e.string();
    else if (et.field === 2 && et.wire === WIRE_LEN) value = e.string();
    else e.skip(et.wire);
  }
  x.entries.set(key, value);
};

/** TensorProto fields by number; others are skipped. */
const TENSOR_FIELDS: Record<number, TensorField> = {
  1: (r, wire, x) => r.repeatedVarint(wire, x.dims), // dims
  2: (r, wire, x) => {
    r.expectWire(wire, WIRE_VARINT);
    x.dataType = r.int64();
  },
  4: fixedData,
  10: fixedData,
  5: varintData,
  7: varintData,
  11: varintData,
  6: (r, wire, x) => {
    // string_data
    r.expectWire(wire, WIRE_LEN);
    x.stringBytes += r.bytes().length;
    x.typedCount++;
  },
  8: (r, wire, x) => {
    r.expectWire(wire, WIRE_LEN);
    x.name = r.string();
  },
  9: (r, wire, x) => {
    // raw_data
    r.expectWire(wire, WIRE_LEN);
    x.raw = r.bytes();
  },
  13: externalEntry,
  14: (r, wire, x) => {
    // data_location
    r.expectWire(wire, WIRE_VARINT);
    x.external = r.int64() === 1;
  },
  [STRIPPED_RAW_FIELD]: (r, wire, x) => {
    r.expectWire(wire, WIRE_VARINT);
    x.strippedRaw = r.uint64();
  },
};

export function parseTensor(r: ProtoReader): OnnxTensor {
  const x: RawTensor = {
    dims: [],
    dataType: 0,
    name: '',
    raw: null,
    typedCount: 0,
    typed: [],
    stringBytes: 0,
    external: false,
    entries: new Map(),
    strippedRaw: null,
  };
  for (let t = r.tag(); t; t = r.tag()) {
    const read = TENSOR_FIELDS[t.field];
    if (read) read(r, t.wire, x, t.field);
    else r.skip(t.wire);
  }
  return tensorOf(x);
}

function tensorOf(x: RawTensor): OnnxTensor {
  const { dims, dataType, name, raw, typed, external } = x;
  const elements = dims.reduce((a, d) => a * d, 1);
  const byteLength =
    dataType === DataType.STRING
      ? x.stringBytes
      : raw && !external
        ? raw.length
        : x.strippedRaw !== null && !external
          ? x.strippedRaw
          : Math.ceil(elements * elementBytes(dataType));
  let values: number[] | null = null;
  if (!external && elements <= SMALL_TENSOR_ELEMENTS && dataType !== DataType.STRING) {
    if (raw) values = decodeRaw(raw, dataType, elements);
    else if (typed && typed.length === elements) values = fromTyped(typed, dataType);
  }
  return { name, dataType, dims, elements, byteLength, values, external: external ? externalData(x.entries) : null };
}

/** Varints in a packed field, counted without moving. */
function peekVarintCount(r: ProtoReader): number {
  const at = r.pos;
  const n = r.countVarints(WIRE_LEN);
  r.pos = at;
  return n;
}

/** Elements in a packed fixed-size field, read without moving. */
function peekPackedCount(r: ProtoReader, size: number): number {
  const at = r.pos;
  const n = r.length();
  r.pos = at;
  return Math.floor(n / size);
}

function externalData(entries: Map<string, string>): OnnxExternalData {
  const num = (key: string): number | null => {
    const v = entries.get(key);
    if (v === undefined || v.trim() === '' || !Number.isFinite(Number(v))) return null;
    return Number(v);
  };
  return { location: entries.get('location') ?? '', offset: num('offset') ?? 0, length: num('length') };
}
