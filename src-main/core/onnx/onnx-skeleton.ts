/**
 * An ONNX model's structure without its large weights, read piece by piece: each large tensor's
 * raw_data (initializers, Constant values, in subgraphs too) is left out and its length kept in
 * STRIPPED_RAW_FIELD, which the tensor parser reads as the tensor's size. A 2 GiB model becomes a
 * few kilobytes to parse, so reading its structure never holds its weights. Large fields the
 * parser skips or only counts are left out too (DROPPED). Pure: the bytes come through a ByteSource.
 */

import { SMALL_TENSOR_ELEMENTS } from './parse-types.js';

/** Random access to a file's bytes (the adapter reads them from disk). */
export interface ByteSource {
  readonly size: number;
  /** `length` bytes from `offset` (fewer only at the end of the source). */
  read(offset: number, length: number): Uint8Array;
}

/** A TensorProto field ONNX does not define: the length of raw_data left out. */
export const STRIPPED_RAW_FIELD = 1000;

/** Fields this large are left out (raw_data) or descended into (the messages that hold them). */
const STRIPPED_MIN_BYTES = 1 << 20;

/** How deep messages that hold large weights may nest (the parser's subgraph cap). */
const MAX_DEPTH = 64;

/**
 * Large fields left out, per message kind: those the parser skips (doc strings, metadata, training
 * info) and a tensor's packed typed data, which it only counts (its size follows from the dims).
 */
const DROPPED: Record<Kind, ReadonlySet<number>> = {
  model: new Set([6, 14, 20]),
  graph: new Set([10, 14, 16]),
  node: new Set([6, 9]),
  attribute: new Set([13]),
  tensor: new Set([4, 5, 7, 10, 11, 12, 16]),
  sparse: new Set(),
};

type Kind = 'model' | 'graph' | 'node' | 'attribute' | 'tensor' | 'sparse';

/** Which large fields are messages to descend into, per kind. */
const CHILD: Record<Kind, Partial<Record<number, Kind>>> = {
  model: { 7: 'graph' },
  graph: { 1: 'node', 5: 'tensor', 15: 'sparse' },
  node: { 5: 'attribute' },
  attribute: { 5: 'tensor', 6: 'graph', 10: 'tensor', 11: 'graph', 22: 'sparse', 23: 'sparse' },
  tensor: {},
  sparse: { 1: 'tensor', 2: 'tensor' },
};

export class SkeletonError extends Error {}

interface Field {
  field: number;
  wire: number;
  /** Where the tag starts, where the value (after a LEN field's length) starts and ends. */
  at: number;
  valueAt: number;
  end: number;
}

/** The model's bytes with its large weights left out; SkeletonError when the bytes are not protobuf. */
export function onnxSkeleton(src: ByteSource, minBytes = STRIPPED_MIN_BYTES): Uint8Array {
  const parts: Uint8Array[] = [];
  // Tensors whose values the parser keeps (SMALL_TENSOR_ELEMENTS, 8 bytes each at most) stay whole.
  message(src, 0, src.size, 'model', Math.max(minBytes, SMALL_TENSOR_ELEMENTS * 8 + 16), 0, parts);
  return concat(parts);
}

/** Appends the skeleton of the message in [start, end) to `out`; returns its length. */
function message(
  src: ByteSource,
  start: number,
  end: number,
  kind: Kind,
  minBytes: number,
  depth: number,
  out: Uint8Array[],
): number {
  if (depth > MAX_DEPTH) throw new SkeletonError(`subgraphs nest deeper than ${MAX_DEPTH} levels`);
  let written = 0;
  const emit = (b: Uint8Array): void => {
    out.push(b);
    written += b.length;
  };
  for (let pos = start; pos < end;) {
    const f = fieldAt(src, pos, end);
    pos = f.end;
    const large = f.wire === 2 && f.end - f.valueAt >= minBytes;
    if (!large) {
      emit(src.read(f.at, f.end - f.at));
      continue;
    }
    if (kind === 'tensor' && f.field === 9) {
      emit(varint(STRIPPED_RAW_FIELD * 8));
      emit(varint(f.end - f.valueAt));
      continue;
    }
    const child = CHILD[kind][f.field];
    if (child !== undefined) {
      const inner: Uint8Array[] = [];
      const n = message(src, f.valueAt, f.end, child, minBytes, depth + 1, inner);
      emit(varint(f.field * 8 + 2));
      emit(varint(n));
      for (const b of inner) emit(b);
    } else if (!DROPPED[kind].has(f.field)) {
      emit(src.read(f.at, f.end - f.at));
    }
  }
  return written;
}

function fieldAt(src: ByteSource, at: number, end: number): Field {
  const key = varintAt(src, at, end);
  const wire = key.value % 8;
  const field = Math.floor(key.value / 8);
  if (field === 0 || wire > 5 || wire === 3 || wire === 4) {
    throw new SkeletonError(`invalid field tag 0x${key.value.toString(16)} at byte ${at}`);
  }
  let valueAt = key.next;
  let valueEnd: number;
  if (wire === 0) valueEnd = varintAt(src, valueAt, end).next;
  else if (wire === 1) valueEnd = valueAt + 8;
  else if (wire === 5) valueEnd = valueAt + 4;
  else {
    const len = varintAt(src, valueAt, end);
    valueAt = len.next;
    valueEnd = valueAt + len.value;
  }
  if (valueEnd > end) {
    throw new SkeletonError(`field ${field} at byte ${at} runs past the end of its message (byte ${end})`);
  }
  return { field, wire, at, valueAt, end: valueEnd };
}

/** The varint at `at`: its value (exact below 2^53) and where the next byte is. */
function varintAt(src: ByteSource, at: number, end: number): { value: number; next: number } {
  const bytes = src.read(at, Math.min(10, end - at));
  let value = 0;
  let scale = 1;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    value += (b & 0x7f) * scale;
    scale *= 128;
    if (b < 0x80) return { value, next: at + i + 1 };
  }
  throw new SkeletonError(`a varint at byte ${at} runs past the end of its message`);
}

function varint(n: number): Uint8Array {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Uint8Array.from(out);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
