/**
 * A Hugging Face model as a workload describes it: its config.json's architecture (hf-config.ts),
 * its parameters counted from that description, and what its safetensors store (safetensors.ts)
 * when their headers are there, with a warning when the two counts differ. One path for a model
 * folder read on this machine (services/workload/hf-config-service.ts) and for one uploaded as its
 * config.json text and its safetensors headers, no weights (uploadedHfModel). Pure.
 */
import { UserError } from '../errors.js';
import { shown } from '../text/shown.js';
import type { WeightFormat } from '../workload/generation.js';
import { hfConfigDecoder } from './hf-config.js';
import { entryWorkload, type CatalogEntry } from './index.js';
import {
  checkHeaderLength,
  describeStored,
  headerTensors,
  SAFETENSORS_LIMITS,
  safetensorsBudget,
  storedWeights,
  type SafetensorsLimits,
  type SafetensorsTensor,
  type StoredWeights,
} from './safetensors.js';

/** The tensors of a model's safetensors, from their headers, and the files that hold them. */
export interface SafetensorsSet {
  /** The weights files read, by name in the folder. */
  files: string[];
  tensors: SafetensorsTensor[];
}

/** What a folder's safetensors store, from their headers. */
export interface StoredModel extends StoredWeights {
  /** The weights files read, by name in the folder. */
  files: string[];
  /** One phrase: "bf16", "GPTQ 4-bit (f16 elsewhere)". */
  label: string;
}

export interface DescribedModel {
  entry: CatalogEntry;
  /** The stored weight format, when the file says (GGUF, safetensors). */
  weights: WeightFormat | null;
  /** Parameters: the safetensors headers' exact count when the folder has them, else the description's. */
  params: number;
  /** What the folder's safetensors store (null without them, and for GGUF). */
  stored: StoredModel | null;
  warnings: string[];
}

const n = (x: number): string => x.toLocaleString('en-US');

function paramsWarning(name: string, stored: number, described: number): string {
  const diff = stored - described;
  const which = diff > 0 ? 'more in the weights (a module the description leaves out?)' : 'fewer in the weights';
  return `${name}: its safetensors hold ${n(stored)} parameters, config.json describes ${n(described)} (${n(Math.abs(diff))} ${which}); memory and time are planned from the description`;
}

function storedModel(set: SafetensorsSet, quantizationConfig: unknown): StoredModel {
  const s = storedWeights(set.tensors, quantizationConfig);
  return { ...s, files: set.files, label: describeStored(s) };
}

/**
 * The model a config.json (parsed, `json`) describes, named `name` (`file`: the config.json's name
 * in messages), with what its safetensors store: `safetensors` gives their headers' tensors (null
 * without any), asked once the config.json is read, so a bad config.json is the refusal first.
 */
export function describeHfModel(
  json: unknown,
  file: string,
  name: string,
  safetensors: () => SafetensorsSet | null,
): DescribedModel {
  const d = hfConfigDecoder(json, file, name);
  const described = entryWorkload(d.entry, { seq: 1 }).nodes.reduce((s, x) => s + x.params, 0);
  const set = safetensors();
  const stored = set ? storedModel(set, (json as { quantization_config?: unknown }).quantization_config) : null;
  const params = stored?.params ?? described;
  const warnings = [...d.warnings];
  if (stored && stored.params !== described) warnings.push(paramsWarning(d.entry.name, stored.params, described));
  return {
    entry: { ...d.entry, reportedParams: params },
    weights: stored?.format ?? null,
    params,
    stored,
    warnings,
  };
}

/** One safetensors file of an uploaded folder: its name, its whole size in bytes, and its header's JSON text. */
export interface UploadedSafetensors {
  fileName: string;
  bytes: number;
  header: string;
}

/** A Hugging Face model folder uploaded without its weights: config.json's text and each safetensors header. */
export interface UploadedHfFolder {
  config: string;
  safetensors: UploadedSafetensors[];
}

const utf8 = new TextEncoder();

/** The first line of a JSON.parse error, its control characters escaped (it may quote the text). */
const firstLine = (e: unknown): string => shown((e as Error).message.split('\n')[0] ?? '');

/**
 * The tensors the uploaded headers name, checked as a folder's are (read-safetensors.ts): each
 * header inside its file (`bytes`: 8 bytes of length, the header, the data), the offsets inside the
 * data after it, and the tensors and header bytes within the file's and the model's caps.
 */
function uploadedSafetensors(
  folder: string,
  files: readonly UploadedSafetensors[],
  limits: SafetensorsLimits = SAFETENSORS_LIMITS,
): SafetensorsSet | null {
  if (files.length === 0) return null;
  const budget = safetensorsBudget(limits);
  const seen = new Set<string>();
  const tensors: SafetensorsTensor[] = [];
  for (const f of files) {
    const file = `${folder}/${f.fileName}`;
    if (seen.has(f.fileName)) throw new UserError(`${file} is given twice; give each safetensors file once`);
    seen.add(f.fileName);
    if (f.bytes < 8)
      throw new UserError(`${file} is ${f.bytes} bytes, too short to be a safetensors file (8-byte header length)`);
    const header = utf8.encode(f.header);
    const length = checkHeaderLength(file, BigInt(header.length), f.bytes - 8, budget);
    tensors.push(...headerTensors(file, header, f.bytes - 8 - length, budget));
  }
  return { files: files.map((f) => f.fileName), tensors };
}

/**
 * The model an uploaded folder describes, named `name` (a workload name: letters, digits, . _ -,
 * which messages then show as is): config.json's text parsed, its headers checked
 * (uploadedSafetensors). Each bad input is one line naming the file.
 */
export function uploadedHfModel(
  name: string,
  upload: UploadedHfFolder,
  limits: SafetensorsLimits = SAFETENSORS_LIMITS,
): DescribedModel {
  const file = `${name}/config.json`;
  let json: unknown;
  try {
    json = JSON.parse(upload.config);
  } catch (e) {
    throw new UserError(`${file} is not JSON (${firstLine(e)})`);
  }
  return describeHfModel(json, file, name, () => uploadedSafetensors(name, upload.safetensors, limits));
}
