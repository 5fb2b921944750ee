/**
 * Hostile inputs for bench/hostile-bench.ts, small on disk unless size is the point: GGUF headers
 * written byte by byte (any count, any length), ONNX graphs (long chains, deep If nesting, huge
 * dimensions, external data), hardware profiles with hostile labels and device names, and a
 * profile streamed to just under the import cap.
 */
import { createWriteStream, truncateSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { encodeModel, OnnxDataType } from '../../src-main/core/onnx/model-builder.js';
import { ProtoWriter } from '../../src-main/core/onnx/protobuf-writer.js';
import type { ProfileFile } from '../../src-main/core/profile-file/schema.js';
import { clusterNodeProfile } from '../../test/helpers/cluster-node.js';
import { modelAround, nestedIfs } from '../../test/helpers/hostile-onnx.js';

export { reluChain } from '../../test/helpers/hostile-onnx.js';

// ---- GGUF ----

const GGUF_TYPE = { UINT32: 4, STRING: 8, ARRAY: 9, UINT64: 10 } as const;

type GgufValue =
  | { type: 'u32'; value: number }
  | { type: 'u64'; value: bigint }
  | { type: 'str'; value: string }
  /** An array header only: the element type and the length it claims (no elements follow). */
  | { type: 'array-claim'; elemType: number; length: bigint };

class LeWriter {
  private readonly parts: Buffer[] = [];
  u32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.parts.push(b);
    return this;
  }
  u64(v: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(v);
    this.parts.push(b);
    return this;
  }
  str(s: string): this {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(BigInt(bytes.length));
    this.parts.push(bytes);
    return this;
  }
  raw(b: Buffer): this {
    this.parts.push(b);
    return this;
  }
  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** A GGUF v3 header with these key-values and no tensors. */
export function ggufBytes(kv: Record<string, GgufValue>): Buffer {
  const w = new LeWriter()
    .raw(Buffer.from('GGUF'))
    .u32(3)
    .u64(0n)
    .u64(BigInt(Object.keys(kv).length));
  for (const [key, v] of Object.entries(kv)) {
    w.str(key);
    if (v.type === 'u32') w.u32(GGUF_TYPE.UINT32).u32(v.value);
    else if (v.type === 'u64') w.u32(GGUF_TYPE.UINT64).u64(v.value);
    else if (v.type === 'str') w.u32(GGUF_TYPE.STRING).str(v.value);
    else w.u32(GGUF_TYPE.ARRAY).u32(v.elemType).u64(v.length);
  }
  return w.done();
}

/** A Llama 3.1 8B header (as llama.cpp writes it, no tensors) with some values replaced. */
export function llamaGguf(over: Record<string, GgufValue> = {}): Buffer {
  const u32 = (value: number): GgufValue => ({ type: 'u32', value });
  return ggufBytes({
    'general.architecture': { type: 'str', value: 'llama' },
    'general.name': { type: 'str', value: 'Meta Llama 3.1 8B Instruct' },
    'general.file_type': u32(15),
    'llama.block_count': u32(32),
    'llama.context_length': u32(131072),
    'llama.embedding_length': u32(4096),
    'llama.feed_forward_length': u32(14336),
    'llama.attention.head_count': u32(32),
    'llama.attention.head_count_kv': u32(8),
    'llama.vocab_size': u32(128256),
    ...over,
  });
}

export const GGUF_ARRAY_OF = { STRING: GGUF_TYPE.STRING };

// ---- ONNX ----

const io = (name: string, dims: readonly (number | string)[] = [1, 16]) => ({
  name,
  elemType: OnnxDataType.FLOAT,
  dims: [...dims],
});

/** A model whose If nests `depth` deep (each then-branch holds the next If), written without recursion. */
export function nestedIf(depth: number): Uint8Array {
  return modelAround(nestedIfs(depth));
}

/**
 * One MatMul whose inputs and output claim `dim` x `dim` (a bigint: 2^63-1 is past what the model
 * builder takes), protobuf written here: ModelProto{ir_version 8, opset 17, graph{node, input, output}}.
 */
export function hugeMatMul(dim: bigint): Uint8Array {
  const vi = (name: string): Buffer => {
    const d = Buffer.concat([varint(1 << 3), varint(dim)]);
    const shape = Buffer.concat([field(1, d), field(1, d)]);
    const tensorType = Buffer.concat([varint(1 << 3), varint(1), field(2, shape)]);
    return Buffer.concat([field(1, Buffer.from(name)), field(2, field(1, tensorType))]);
  };
  const node = Buffer.concat([
    field(1, Buffer.from('a')),
    field(1, Buffer.from('b')),
    field(2, Buffer.from('c')),
    field(3, Buffer.from('mm')),
    field(4, Buffer.from('MatMul')),
  ]);
  const graph = Buffer.concat([
    field(1, node),
    field(2, Buffer.from('huge-matmul')),
    field(11, vi('a')),
    field(11, vi('b')),
    field(12, vi('c')),
  ]);
  const opset = Buffer.concat([varint(2 << 3), varint(17)]);
  return new Uint8Array(Buffer.concat([varint(1 << 3), varint(8), field(8, opset), field(7, graph)]));
}

/** A MatMul whose weight initializer claims dims (no data). */
export function claimedInitializer(dims: readonly number[]): Uint8Array {
  return encodeModel({
    graph: {
      name: 'claimed-initializer',
      nodes: [{ opType: 'MatMul', inputs: ['x', 'w'], outputs: ['y'], name: 'mm' }],
      inputs: [io('x', [1, dims[0] as number])],
      outputs: [io('y', [1, dims[1] as number])],
      initializers: [{ name: 'w', dataType: OnnxDataType.FLOAT, dims, rawData: new Uint8Array(0) }],
    },
  });
}

/**
 * A MatMul whose weight lives in external data at `location` (e.g. ../../etc/passwd): the
 * TensorProto's data_location = EXTERNAL (14) with an external_data entry "location" (13).
 * Built on a plain model by appending the two fields to the initializer's bytes.
 */
export function externalDataModel(location: string): Uint8Array {
  const marker = 'EXTDATA-W';
  const plain = encodeModel({
    graph: {
      name: 'external',
      nodes: [{ opType: 'MatMul', inputs: ['x', marker], outputs: ['y'], name: 'mm' }],
      inputs: [io('x', [1, 4])],
      outputs: [io('y', [1, 4])],
      initializers: [{ name: marker, dataType: OnnxDataType.FLOAT, dims: [4, 4], rawData: new Uint8Array(0) }],
    },
  });
  const entry = Buffer.concat([field(1, Buffer.from('location')), field(2, Buffer.from(location))]);
  // external_data (13) = {location}, data_location (14) = EXTERNAL (1).
  const ext = Buffer.concat([field(13, entry), varint(14 << 3), varint(1)]);
  return rewriteInitializer(Buffer.from(plain), marker, ext);
}

function varint(n: number | bigint): Buffer {
  const out: number[] = [];
  let v = BigInt(n);
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Buffer.from(out);
}

/** A length-delimited protobuf field. */
function field(num: number, body: Buffer): Buffer {
  return Buffer.concat([varint((num << 3) | 2), varint(body.length), body]);
}

/** Reads a varint at `at`: [value, next offset]. */
function readVarint(b: Buffer, at: number): [number, number] {
  let v = 0;
  let mul = 1;
  let i = at;
  for (;;) {
    const byte = b[i++] as number;
    v += (byte & 0x7f) * mul;
    if (byte < 0x80) return [v, i];
    mul *= 128;
  }
}

/** Length-delimited fields of a message: [field number, start of body, end of body, start of tag]. */
function fields(b: Buffer): [number, number, number, number][] {
  const out: [number, number, number, number][] = [];
  let i = 0;
  while (i < b.length) {
    const start = i;
    const [tag, a] = readVarint(b, i);
    const wire = tag & 7;
    if (wire === 2) {
      const [len, s] = readVarint(b, a);
      out.push([tag >> 3, s, s + len, start]);
      i = s + len;
    } else if (wire === 0) i = readVarint(b, a)[1];
    else if (wire === 5) i = a + 4;
    else if (wire === 1) i = a + 8;
    else throw new Error(`wire type ${wire}`);
  }
  return out;
}

/** The model with `extra` appended to the initializer named `name` (ModelProto.graph=7, GraphProto.initializer=5). */
function rewriteInitializer(model: Buffer, name: string, extra: Buffer): Uint8Array {
  const parts: Buffer[] = [];
  let last = 0;
  for (const [num, s, e, tag] of fields(model)) {
    if (num !== 7) continue;
    const graph = model.subarray(s, e);
    const gParts: Buffer[] = [];
    let gl = 0;
    for (const [gn, gs, ge, gt] of fields(graph)) {
      if (gn !== 5 || !graph.subarray(gs, ge).includes(Buffer.from(name))) continue;
      gParts.push(graph.subarray(gl, gt), field(5, Buffer.concat([graph.subarray(gs, ge), extra])));
      gl = ge;
    }
    gParts.push(graph.subarray(gl));
    parts.push(model.subarray(last, tag), field(7, Buffer.concat(gParts)));
    last = e;
  }
  parts.push(model.subarray(last));
  return new Uint8Array(Buffer.concat(parts));
}

// ---- profiles ----

/** An imported 1-GPU cluster node, its label and GPU names replaced. */
export function nodeProfile(
  hostname: string,
  opts: { label?: string; gpuName?: string; gpus?: number } = {},
): ProfileFile {
  const p = clusterNodeProfile(hostname, { gpus: opts.gpus ?? 1 });
  const gpuName = opts.gpuName;
  return {
    ...p,
    machine: {
      ...p.machine,
      label: opts.label ?? p.machine.label,
      probe:
        gpuName === undefined
          ? p.machine.probe
          : {
              ...p.machine.probe,
              nvidia: {
                ...p.machine.probe.nvidia,
                gpus: p.machine.probe.nvidia.gpus.map((g) => ({ ...g, name: gpuName })),
              },
            },
    },
    devices: gpuName === undefined ? p.devices : p.devices.map((d) => (d.kind === 'gpu' ? { ...d, name: gpuName } : d)),
  };
}

/**
 * A profile streamed to `targetBytes` (just under the import cap): a machine whose topology is
 * `n` x `n` cells, then blank space up to the size (JSON allows it). Written in 1 MiB pieces.
 */
export async function writeHugeProfile(
  file: string,
  base: ProfileFile,
  n: number,
  targetBytes: number,
): Promise<number> {
  const out = createWriteStream(file);
  const write = async (s: string): Promise<void> => {
    if (!out.write(s)) await once(out, 'drain');
  };
  let written = 0;
  const put = async (s: string): Promise<void> => {
    written += Buffer.byteLength(s);
    await write(s);
  };
  const probe = base.machine.probe;
  const labels = Array.from({ length: n }, (_, i) => `GPU${i}`);
  const head = JSON.stringify({
    ...base,
    machine: { ...base.machine, probe: { ...probe, nvidia: { ...probe.nvidia, topology: null } } },
  });
  // Splice the big topology in where the null is.
  const [before, after] = head.split('"topology":null') as [string, string];
  await put(`${before}"topology":{"labels":${JSON.stringify(labels)},"matrix":[`);
  const cell = '{"kind":"SYS","nvlinks":null,"raw":"SYS"}';
  const row = `[${Array.from({ length: n }, () => cell).join(',')}]`;
  for (let i = 0; i < n; i++) await put(i === 0 ? row : `,${row}`);
  const nulls = JSON.stringify(labels.map(() => null));
  await put(`],"cpuAffinity":${nulls},"numaAffinity":${nulls},"gpuNumaId":${nulls},"nicNames":{}}`);
  const tail = after;
  const pad = Math.max(0, targetBytes - written - Buffer.byteLength(tail));
  const piece = ' '.repeat(1 << 20);
  for (let left = pad; left > 0; left -= piece.length) await put(left >= piece.length ? piece : ' '.repeat(left));
  await put(tail);
  out.end();
  await once(out, 'finish');
  return written;
}

/** JSON nested `depth` arrays deep. */
export function deepJson(file: string, depth: number): void {
  writeFileSync(file, `${'['.repeat(depth)}${']'.repeat(depth)}`);
}

/**
 * A real model (x[1,n] MatMul w[n,n] -> y) whose weight is `n` x `n` floats of raw_data, streamed
 * to disk (a 1 GiB model is never one buffer here): the protobuf is written around the payload.
 */
export async function writeBigWeightModel(file: string, n: number): Promise<number> {
  const varint = (v: number): Uint8Array => new ProtoWriter().varint(1, v).finish().subarray(1);
  const tagLen = (field: number, len: number): Uint8Array => Uint8Array.from([field * 8 + 2, ...varint(len)]);
  const rawBytes = n * n * 4;
  const initHead = new ProtoWriter().packedVarints(1, [n, n]).varint(2, 1).string(8, 'w').finish();
  const initLen = initHead.length + tagLen(9, rawBytes).length + rawBytes;
  const valueInfo = (name: string): ProtoWriter => {
    const shape = new ProtoWriter()
      .message(1, new ProtoWriter().varint(1, 1))
      .message(1, new ProtoWriter().varint(1, n));
    const tensorType = new ProtoWriter().varint(1, 1).message(2, shape);
    return new ProtoWriter().string(1, name).message(2, new ProtoWriter().message(1, tensorType));
  };
  const node = new ProtoWriter().string(1, 'x').string(1, 'w').string(2, 'y').string(3, 'mm').string(4, 'MatMul');
  const graphHead = new ProtoWriter().message(1, node).string(2, 'big').finish();
  const graphTail = new ProtoWriter().message(11, valueInfo('x')).message(12, valueInfo('y')).finish();
  const graphLen = graphHead.length + tagLen(5, initLen).length + initLen + graphTail.length;
  const modelHead = new ProtoWriter().varint(1, 8).finish();
  const opset = new ProtoWriter().message(8, new ProtoWriter().string(1, '').varint(2, 17)).finish();
  const out = createWriteStream(file);
  const put = async (b: Uint8Array): Promise<void> => {
    if (!out.write(b)) await once(out, 'drain');
  };
  for (const b of [modelHead, tagLen(7, graphLen), graphHead, tagLen(5, initLen), initHead, tagLen(9, rawBytes)]) {
    await put(b);
  }
  const chunk = new Uint8Array(8 * 2 ** 20);
  for (let left = rawBytes; left > 0; left -= chunk.length) await put(chunk.subarray(0, Math.min(chunk.length, left)));
  await put(graphTail);
  await put(opset);
  out.end();
  await once(out, 'finish');
  return rawBytes;
}

// ---- issue 56, model folders (h56-paths): safetensors headers ----

/**
 * A safetensors file whose header names `n` one-float tensors laid end to end (a million-tensor
 * header is about 70 MB), its data area sparse; `headerBytes` pads the names to fill about that
 * many bytes. Returns the header's bytes.
 */
export function writeManyTensorSafetensors(
  file: string,
  n: number,
  opts: { prefix?: string; headerBytes?: number } = {},
): number {
  const prefix = opts.prefix ?? 'model.layers';
  // Names padded so that the header comes to just under headerBytes (a header as large as its cap allows).
  const entry = (i: number, pad: string): string =>
    `,"${prefix}.${i}.${pad}weight":{"dtype":"F32","shape":[1],"data_offsets":[${4 * i},${4 * i + 4}]}`;
  const pad = opts.headerBytes
    ? 'x'.repeat(Math.max(0, Math.floor((opts.headerBytes - 64) / n) - entry(n, '').length))
    : '';
  const chunks: Buffer[] = [Buffer.from('{"__metadata__":{"format":"pt"}')];
  for (let from = 0; from < n; from += 10_000) {
    const parts: string[] = [];
    for (let i = from; i < Math.min(n, from + 10_000); i++) parts.push(entry(i, pad));
    chunks.push(Buffer.from(parts.join('')));
  }
  chunks.push(Buffer.from('}'));
  const header = Buffer.concat(chunks);
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  writeFileSync(file, Buffer.concat([len, header]));
  truncateSync(file, 8 + header.length + 4 * n);
  return header.length;
}
