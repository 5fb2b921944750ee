/**
 * A Hugging Face config.json (or a model folder holding one) as a workload: the file read
 * (adapters/files/read-hf-config.ts), its architecture mapped to a model description
 * (core/catalog/hf-config.ts), its parameters counted from the description. When the folder holds
 * safetensors, their headers (adapters/files/read-safetensors.ts, never the weights) give the exact
 * parameter count, the stored dtype and quantization (core/catalog/safetensors.ts), with a warning
 * when the description counts otherwise.
 */
import path from 'node:path';
import { entryWorkload, type CatalogEntry } from '../core/catalog/index.js';
import { hfConfigDecoder } from '../core/catalog/hf-config.js';
import { describeStored, storedWeights, type StoredWeights } from '../core/catalog/safetensors.js';
import { count } from '../core/text/plural.js';
import { isHfConfigSpec, readHfConfigFile } from '../adapters/files/read-hf-config.js';
import { readSafetensorsFolder } from '../adapters/files/read-safetensors.js';
import type { WeightFormat } from '../core/workload/generation.js';
import { readGgufDecoder } from './gguf-service.js';

export { isHfConfigSpec } from '../adapters/files/read-hf-config.js';

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

/** The stored weights of the folder a config.json is in; null when it holds no safetensors. */
function readStored(configFile: string, quantizationConfig: unknown): StoredModel | null {
  const folder = readSafetensorsFolder(path.dirname(configFile));
  if (!folder) return null;
  const s = storedWeights(folder.tensors, quantizationConfig);
  return { ...s, files: folder.files, label: describeStored(s) };
}

/** One line naming what the safetensors store: "my-llama: 8,030,261,248 parameters stored as bf16 in 1 file". */
export function storedLine(name: string, s: StoredModel): string {
  return `${name}: ${n(s.params)} parameters stored as ${s.label} in ${count(s.files.length, 'safetensors file')}`;
}

export function readHfDecoder(spec: string): DescribedModel {
  const { file, name, json } = readHfConfigFile(spec);
  const d = hfConfigDecoder(json, file, name);
  const described = entryWorkload(d.entry, { seq: 1 }).nodes.reduce((s, x) => s + x.params, 0);
  const stored = readStored(file, (json as { quantization_config?: unknown }).quantization_config);
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

/**
 * The model a file describes apart from a graph: a .gguf header, a config.json or a folder
 * holding one; null for anything else (an .onnx file, a catalog or stored name).
 */
export async function readDescribedModel(spec: string): Promise<DescribedModel | null> {
  if (/\.gguf$/i.test(spec)) return { ...(await readGgufDecoder(spec)), stored: null };
  if (isHfConfigSpec(spec)) return readHfDecoder(spec);
  return null;
}
