/**
 * Safetensors headers (the JSON before the weights): each tensor's entry checked against the
 * format (a known dtype, a sane shape, data offsets inside the data area that match shape x dtype),
 * and the tensors summed into what the checkpoint stores: its exact parameter count (the logical
 * weights, quantization constants left out), its float dtype and its quantization. Pure.
 */
import { QUOTED_MAX_CHARS, cut, shown } from '../text/shown.js';
import { describedValue } from '../workload/limits.js';
import { UserError } from '../errors.js';
import { countJsonKeys } from '../util/json-keys.js';
import type { WeightFormat } from '../workload/generation.js';

/** The safetensors dtypes and their widths in bits. */
export const SAFETENSORS_DTYPE_BITS = {
  BOOL: 8,
  U8: 8,
  I8: 8,
  F8_E5M2: 8,
  F8_E4M3: 8,
  F8_E8M0: 8,
  F4: 4,
  F6_E2M3: 6,
  F6_E3M2: 6,
  I16: 16,
  U16: 16,
  F16: 16,
  BF16: 16,
  I32: 32,
  U32: 32,
  F32: 32,
  C64: 64,
  F64: 64,
  I64: 64,
  U64: 64,
} as const;

export type SafetensorsDtype = keyof typeof SAFETENSORS_DTYPE_BITS;

export interface SafetensorsTensor {
  name: string;
  dtype: SafetensorsDtype;
  shape: number[];
}

/** Header bytes allowed a tensor (a real entry, name and all, takes 100 to 200), and the metadata's. */
const HEADER_BYTES_PER_TENSOR = 256;
const HEADER_METADATA_BYTES = 2 ** 20;

/**
 * What a checkpoint's safetensors headers may hold, checked on the headers' bytes before any is
 * parsed into objects (a header of 1,000,000 tensors took 5.1 s and 854 MiB to parse and check).
 * Real checkpoints hold far fewer: Llama 3.1 405B about 1,100 tensors over 191 shards; the large
 * MoE models the most, DeepSeek-V3 about 91,000 over 163 shards (61 layers of 256 experts, each fp8
 * weight beside its scale), a Kimi-K2-sized model quantized with three tensors a weight (packed
 * values, scales, shape) about 210,000. A file may hold as many as the whole of DeepSeek-V3 (a
 * MoE saved unsharded), a model twice the largest. The byte caps follow from the tensor caps
 * (256 bytes a tensor and 1 MiB of metadata: DeepSeek-V3's headers add up to about 16 MiB). At the
 * caps, 400,000 tensors in 4 headers of 25 MiB, a model is read in seconds and under 1 GiB.
 */
const TENSORS_PER_FILE = 100_000;
const TENSORS_PER_MODEL = 400_000;

export const SAFETENSORS_LIMITS = {
  tensorsPerFile: TENSORS_PER_FILE,
  tensorsPerModel: TENSORS_PER_MODEL,
  /** Bytes of one header (25.4 MiB). */
  headerBytes: TENSORS_PER_FILE * HEADER_BYTES_PER_TENSOR + HEADER_METADATA_BYTES,
  /** Bytes of all of a model's headers (98.7 MiB). */
  modelHeaderBytes: TENSORS_PER_MODEL * HEADER_BYTES_PER_TENSOR + HEADER_METADATA_BYTES,
};

export type SafetensorsLimits = typeof SAFETENSORS_LIMITS;

const fmt = (n: number): string => n.toLocaleString('en-US');

/**
 * The tensors a header's bytes name at most (its top-level keys, `__metadata__` counted too),
 * counted without parsing them; refused past the file's cap, or past the model's with the
 * `modelSoFar` tensors of the files read before it.
 */
export function checkHeaderTensorCount(
  file: string,
  header: Uint8Array,
  modelSoFar: number,
  limits: SafetensorsLimits = SAFETENSORS_LIMITS,
): number {
  // One key more than the cap may be `__metadata__`; the exact count is checked once parsed.
  const keys = countJsonKeys(header, 1, limits.tensorsPerFile + 1);
  if (keys > limits.tensorsPerFile + 1) throw tooManyInFile(file, limits);
  const least = Math.max(0, keys - 1);
  if (modelSoFar + least > limits.tensorsPerModel) throw tooManyInModel(file, limits);
  return keys;
}

/** The exact count, once parsed: the file's cap and the model's. */
function checkTensorCount(
  file: string,
  tensors: number,
  modelSoFar: number,
  limits: SafetensorsLimits = SAFETENSORS_LIMITS,
): void {
  if (tensors > limits.tensorsPerFile) throw tooManyInFile(file, limits);
  if (modelSoFar + tensors > limits.tensorsPerModel) throw tooManyInModel(file, limits);
}

const tooManyInFile = (file: string, limits: SafetensorsLimits): UserError =>
  new UserError(
    `${file}: its safetensors header holds more than ${fmt(limits.tensorsPerFile)} tensors, the most one file may hold (real shards hold a few thousand)`,
  );

const tooManyInModel = (file: string, limits: SafetensorsLimits): UserError =>
  new UserError(
    `${file}: the folder's safetensors hold more than ${fmt(limits.tensorsPerModel)} tensors, the most one model may hold`,
  );

/** What the headers read so far for one model took: their tensors and bytes, against the model's caps. */
export interface SafetensorsBudget {
  tensors: number;
  headerBytes: number;
  limits: SafetensorsLimits;
}

export const safetensorsBudget = (limits: SafetensorsLimits = SAFETENSORS_LIMITS): SafetensorsBudget => ({
  tensors: 0,
  headerBytes: 0,
  limits,
});

/**
 * A header's length `n` (the file's first 8 bytes) checked before its bytes are read or parsed:
 * inside the `afterLength` bytes the file holds after the length, and within the file's and the
 * model's caps (`budget`: the headers read before it).
 */
export function checkHeaderLength(file: string, n: bigint, afterLength: number, budget: SafetensorsBudget): number {
  if (n > BigInt(afterLength))
    throw new UserError(
      `${file}: its header says ${n} bytes but the file holds ${afterLength} after the length: the header lies`,
    );
  const { headerBytes, modelHeaderBytes } = budget.limits;
  if (n > BigInt(headerBytes))
    throw new UserError(`${file}: its header is ${n} bytes, over the ${headerBytes} a safetensors header may take`);
  if (budget.headerBytes + Number(n) > modelHeaderBytes)
    throw new UserError(
      `${file}: the folder's safetensors headers add up to more than ${modelHeaderBytes} bytes, the most one model's may take`,
    );
  return Number(n);
}

const utf8 = new TextDecoder('utf-8');

/**
 * The tensors of one header's bytes (length checked by checkHeaderLength): counted on the bytes
 * before they are parsed, parsed, each entry checked against the `dataBytes` after the header, and
 * the count against the file's and the model's caps; `budget` then holds them.
 */
export function headerTensors(
  file: string,
  bytes: Uint8Array,
  dataBytes: number,
  budget: SafetensorsBudget,
): SafetensorsTensor[] {
  checkHeaderTensorCount(file, bytes, budget.tensors, budget.limits);
  let json: unknown;
  try {
    json = JSON.parse(utf8.decode(bytes));
  } catch (e) {
    throw new UserError(`${file}: its safetensors header is not JSON (${(e as Error).message.split('\n')[0] ?? ''})`);
  }
  const tensors = safetensorsTensors(file, json, dataBytes);
  checkTensorCount(file, tensors.length, budget.tensors, budget.limits);
  budget.tensors += tensors.length;
  budget.headerBytes += bytes.length;
  return tensors;
}

/** Keys an index's metadata may hold beside its weight_map (total_size, total_parameters: one or two). */
const INDEX_METADATA_KEYS = 64;

/**
 * The entries a model.safetensors.index.json names, capped at the model's tensors: on its bytes
 * before it is parsed (`index`: the keys one level down, its weight_map's and its metadata's),
 * and exactly once parsed (`index`: the weight_map's entry count).
 */
export function checkIndexTensorCount(
  file: string,
  index: Uint8Array | number,
  limits: SafetensorsLimits = SAFETENSORS_LIMITS,
): void {
  const over =
    typeof index === 'number'
      ? index > limits.tensorsPerModel
      : countJsonKeys(index, 2, limits.tensorsPerModel + INDEX_METADATA_KEYS) >
        limits.tensorsPerModel + INDEX_METADATA_KEYS;
  if (over)
    throw new UserError(`${file} names more than ${fmt(limits.tensorsPerModel)} tensors, the most one model may hold`);
}

/** Most dimensions a tensor may have, and most elements (2^48: far above any real tensor). */
const MAX_TENSOR_RANK = 8;
const MAX_TENSOR_ELEMENTS = 2 ** 48;

const isDtype = (d: unknown): d is SafetensorsDtype =>
  typeof d === 'string' && Object.prototype.hasOwnProperty.call(SAFETENSORS_DTYPE_BITS, d);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const dtypeList = Object.keys(SAFETENSORS_DTYPE_BITS).join(', ');

/** A header value in a message, as JSON writes it, cut (a header may hold a long one). */
const jsonShown = (v: unknown): string => shown(cut(JSON.stringify(v) ?? String(v), QUOTED_MAX_CHARS));

function checkShape(file: string, name: string, shape: unknown): number[] {
  const bad = (why: string): UserError =>
    new UserError(`${file}: tensor "${name}" has shape ${jsonShown(shape)}, ${why}`);
  if (!Array.isArray(shape)) throw bad(`not a list of whole numbers but ${describedValue(shape)}`);
  // The rank is checked before the loop over the dimensions depends on it.
  if (shape.length > MAX_TENSOR_RANK) throw bad(`more than ${MAX_TENSOR_RANK} dimensions`);
  let elements = 1;
  for (const d of shape as unknown[]) {
    if (typeof d !== 'number') throw bad(`not a list of whole numbers: it holds ${describedValue(d)}`);
    if (!Number.isSafeInteger(d) || d < 0) throw bad('not a list of whole numbers');
    elements *= d;
    if (elements > MAX_TENSOR_ELEMENTS) throw bad(`over ${MAX_TENSOR_ELEMENTS} elements`);
  }
  return shape as number[];
}

const elementsOf = (shape: readonly number[]): number => shape.reduce((p, d) => p * d, 1);

interface Span {
  name: string;
  begin: number;
  end: number;
}

function checkOffsets(file: string, name: string, offsets: unknown, bytes: number, dataBytes: number): Span {
  const lie = (why: string): UserError =>
    new UserError(`${file}: tensor "${name}" data_offsets ${jsonShown(offsets)} ${why}: the header lies`);
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isSafeInteger(o) && o >= 0))
    throw lie('are not two whole numbers [begin, end]');
  const [begin, end] = offsets as [number, number];
  if (end < begin || end > dataBytes) throw lie(`fall outside the data area (0..${dataBytes} bytes)`);
  if (end - begin !== bytes) throw lie(`hold ${end - begin} bytes, its shape and dtype take ${bytes}`);
  return { name, begin, end };
}

function checkEntry(file: string, name: string, entry: unknown, dataBytes: number): [SafetensorsTensor, Span] {
  if (!isRecord(entry) || !('dtype' in entry) || !('shape' in entry) || !('data_offsets' in entry))
    throw new UserError(`${file}: tensor "${name}" lacks dtype, shape or data_offsets; not a safetensors header`);
  const { dtype } = entry;
  if (!isDtype(dtype))
    throw new UserError(`${file}: tensor "${name}" has dtype ${jsonShown(dtype)}; safetensors has ${dtypeList}`);
  const shape = checkShape(file, name, entry.shape);
  const bits = elementsOf(shape) * SAFETENSORS_DTYPE_BITS[dtype];
  if (bits % 8 !== 0)
    throw new UserError(`${file}: tensor "${name}" of ${dtype} ${JSON.stringify(shape)} does not fill whole bytes`);
  return [{ name, dtype, shape }, checkOffsets(file, name, entry.data_offsets, bits / 8, dataBytes)];
}

/**
 * The tensors of one file's parsed header, checked; `dataBytes` is what the file holds after the
 * header. `__metadata__` is not a tensor. Tensors may not overlap.
 */
export function safetensorsTensors(file: string, header: unknown, dataBytes: number): SafetensorsTensor[] {
  if (!isRecord(header)) throw new UserError(`${file}: its safetensors header is not a JSON object`);
  const tensors: SafetensorsTensor[] = [];
  const spans: Span[] = [];
  for (const name of Object.keys(header)) {
    if (name === '__metadata__') continue;
    const [tensor, span] = checkEntry(file, name, header[name], dataBytes);
    tensors.push(tensor);
    spans.push(span);
  }
  spans.sort((a, b) => a.begin - b.begin);
  for (let i = 1; i < spans.length; i++) {
    const [a, b] = [spans[i - 1] as Span, spans[i] as Span];
    if (b.begin < a.end)
      throw new UserError(`${file}: tensors "${a.name}" and "${b.name}" overlap in the data area: the header lies`);
  }
  return tensors;
}

export type Quantization = 'none' | 'gptq' | 'awq' | 'fp8' | 'bnb-nf4' | 'bnb-fp4' | 'bnb-int8';

export interface StoredWeights {
  /** Exact parameters: logical weights, packed ones unpacked, quantization constants and buffers left out. */
  params: number;
  /** The 16/32/64-bit float dtype holding most parameters (null when none is float). */
  dtype: SafetensorsDtype | null;
  quantization: Quantization;
  /** Bits per quantized weight (null when not quantized). */
  bits: number | null;
  /** Parameters stored quantized. */
  quantizedParams: number;
  /** Bytes every tensor takes on disk (constants included). */
  bytes: number;
  /** The product's weight format for it (null when it has none: a 64-bit checkpoint). */
  format: WeightFormat | null;
}

/** Suffixes of quantization constants (GPTQ/AWQ, bitsandbytes 4- and 8-bit, fp8 scales). */
const CONSTANT_SUFFIXES = [
  '.qzeros',
  '.scales',
  '.g_idx',
  '.absmax',
  '.quant_map',
  '.nested_absmax',
  '.nested_quant_map',
  '.quant_state.bitsandbytes__nf4',
  '.quant_state.bitsandbytes__fp4',
  '.SCB',
  '.weight_format',
  '.weight_scale',
  '.weight_scale_inv',
  '.input_scale',
];

const FLOAT_DTYPES: readonly SafetensorsDtype[] = ['F16', 'BF16', 'F32', 'F64'];

const isConstant = (name: string): boolean => CONSTANT_SUFFIXES.some((s) => name.endsWith(s));

/** Buffers a checkpoint may hold that are not parameters (rotary frequencies, GPT-2's causal mask). */
const isBuffer = (t: SafetensorsTensor): boolean =>
  t.name.endsWith('.inv_freq') ||
  t.name.endsWith('.attn.masked_bias') ||
  (t.name.endsWith('.attn.bias') && t.shape.length === 4);

interface QuantConfig {
  method: string;
  bits: number | null;
}

function quantConfig(q: unknown): QuantConfig {
  if (!isRecord(q)) return { method: '', bits: null };
  const method = typeof q.quant_method === 'string' ? q.quant_method.toLowerCase() : '';
  const bits = typeof q.bits === 'number' && [2, 3, 4, 8].includes(q.bits) ? q.bits : null;
  return { method, bits };
}

/** How one tensor counts: its logical parameters (0 for constants and buffers) and whether they are quantized. */
type Counted = { params: number; quantized: boolean; method: Quantization | null };

/** The names of the tensors, and the weights that bitsandbytes 4-bit quant_state constants name (nf4 or fp4). */
interface Names {
  all: ReadonlySet<string>;
  bnb4: ReadonlyMap<string, 'bnb-nf4' | 'bnb-fp4'>;
}

const BNB4_STATES = [
  ['.quant_state.bitsandbytes__nf4', 'bnb-nf4'],
  ['.quant_state.bitsandbytes__fp4', 'bnb-fp4'],
] as const;

/**
 * The names looked up once: a lookup of a name built per tensor (`${name}.quant_state...`) hashes
 * a new string each time, which a header of long names (100,000 of 1 KiB) makes seconds.
 */
function namesOf(tensors: readonly SafetensorsTensor[]): Names {
  const all = new Set(tensors.map((t) => t.name));
  const bnb4 = new Map<string, 'bnb-nf4' | 'bnb-fp4'>();
  for (const name of all) {
    for (const [suffix, method] of BNB4_STATES) {
      // nf4 wins when a weight has both, as the lookup in that order did.
      if (name.endsWith(suffix)) {
        const base = name.slice(0, -suffix.length);
        if (bnb4.get(base) !== 'bnb-nf4') bnb4.set(base, method);
      }
    }
  }
  return { all, bnb4 };
}

function countTensor(t: SafetensorsTensor, names: Names, q: QuantConfig): Counted {
  const n = elementsOf(t.shape);
  if (isConstant(t.name) || isBuffer(t)) return { params: 0, quantized: false, method: null };
  if (t.name.endsWith('.qweight') && (t.dtype === 'I32' || t.dtype === 'U32')) {
    const method =
      q.method === 'awq' || (q.method !== 'gptq' && !names.all.has(t.name.replace(/qweight$/, 'g_idx')))
        ? 'awq'
        : 'gptq';
    return { params: Math.round((n * 32) / (q.bits ?? 4)), quantized: true, method };
  }
  const bnb4 = names.bnb4.get(t.name);
  if (bnb4) return { params: n * 2, quantized: true, method: bnb4 };
  if (t.dtype === 'I8' && names.all.has(t.name.replace(/weight$/, 'SCB')))
    return { params: n, quantized: true, method: 'bnb-int8' };
  if (t.dtype === 'F8_E4M3' || t.dtype === 'F8_E5M2') return { params: n, quantized: true, method: 'fp8' };
  // Other integer tensors are buffers (BERT's position_ids), never parameters.
  if (!FLOAT_DTYPES.includes(t.dtype)) return { params: 0, quantized: false, method: null };
  return { params: n, quantized: false, method: null };
}

const BITS: Record<Quantization, number | null> = {
  none: null,
  gptq: null,
  awq: null,
  fp8: 8,
  'bnb-nf4': 4,
  'bnb-fp4': 4,
  'bnb-int8': 8,
};

function weightFormat(
  quantization: Quantization,
  bits: number | null,
  dtype: SafetensorsDtype | null,
): WeightFormat | null {
  if (quantization === 'fp8') return 'fp8';
  if (quantization !== 'none') return bits !== null && bits >= 8 ? 'int8' : 'int4';
  if (dtype === 'F16') return 'fp16';
  if (dtype === 'BF16') return 'bf16';
  return dtype === 'F32' ? 'fp32' : null;
}

/** What the tensors of a checkpoint store, given its config.json's quantization_config (if any). */
export function storedWeights(tensors: readonly SafetensorsTensor[], quantizationConfig: unknown): StoredWeights {
  const q = quantConfig(quantizationConfig);
  const names = namesOf(tensors);
  const perDtype = new Map<SafetensorsDtype, number>();
  const methods = new Map<Quantization, number>();
  let [params, quantizedParams, bytes] = [0, 0, 0];
  for (const t of tensors) {
    bytes += (elementsOf(t.shape) * SAFETENSORS_DTYPE_BITS[t.dtype]) / 8;
    const c = countTensor(t, names, q);
    params += c.params;
    if (c.quantized && c.method) {
      quantizedParams += c.params;
      methods.set(c.method, (methods.get(c.method) ?? 0) + c.params);
    } else if (c.params > 0) perDtype.set(t.dtype, (perDtype.get(t.dtype) ?? 0) + c.params);
  }
  const dtype = largest(perDtype);
  const quantization = largest(methods) ?? 'none';
  const bits = quantization === 'gptq' || quantization === 'awq' ? (q.bits ?? 4) : BITS[quantization];
  return { params, dtype, quantization, bits, quantizedParams, bytes, format: weightFormat(quantization, bits, dtype) };
}

function largest<K>(m: ReadonlyMap<K, number>): K | null {
  let best: K | null = null;
  let most = -1;
  for (const [k, v] of m)
    if (v > most) {
      best = k;
      most = v;
    }
  return best;
}

/** One phrase for the summary: "bf16", "GPTQ 4-bit (bf16 elsewhere)", "fp8 (bf16 elsewhere)". */
export function describeStored(s: StoredWeights): string {
  const dtype = s.dtype?.toLowerCase() ?? 'no float';
  if (s.quantization === 'none') return dtype;
  const q =
    s.quantization === 'gptq' || s.quantization === 'awq'
      ? `${s.quantization.toUpperCase()} ${s.bits}-bit`
      : s.quantization === 'fp8'
        ? 'fp8'
        : `bitsandbytes ${s.quantization.slice(4)}`;
  return s.dtype ? `${q} (${dtype} elsewhere)` : q;
}
