/**
 * A Hugging Face config.json (or a model folder holding one) as a workload: the file read
 * (adapters/files/read-hf-config.ts), and described as an uploaded folder is
 * (core/catalog/hf-model.ts): its architecture mapped to a model description
 * (core/catalog/hf-config.ts), its parameters counted from the description. When the folder holds
 * safetensors, their headers (adapters/files/read-safetensors.ts, never the weights) give the exact
 * parameter count, the stored dtype and quantization (core/catalog/safetensors.ts), with a warning
 * when the description counts otherwise.
 */
import path from 'node:path';
import { describeHfModel, type DescribedModel, type StoredModel } from '../../core/catalog/hf-model.js';
import { count } from '../../core/text/plural.js';
import { isHfConfigSpec, readHfConfigFile } from '../../adapters/files/read-hf-config.js';
import { readSafetensorsFolder } from '../../adapters/files/read-safetensors.js';
import { readGgufDecoder } from './gguf-service.js';

export { isHfConfigSpec } from '../../adapters/files/read-hf-config.js';
export type { DescribedModel, StoredModel } from '../../core/catalog/hf-model.js';

const n = (x: number): string => x.toLocaleString('en-US');

/** One line naming what the safetensors store: "my-llama: 8,030,261,248 parameters stored as bf16 in 1 file". */
export function storedLine(name: string, s: StoredModel): string {
  return `${name}: ${n(s.params)} parameters stored as ${s.label} in ${count(s.files.length, 'safetensors file')}`;
}

/** The model a config.json (or the folder holding one) describes, with what the folder's safetensors store. */
export function readHfDecoder(spec: string): DescribedModel {
  const { file, name, json } = readHfConfigFile(spec);
  return describeHfModel(json, file, name, () => readSafetensorsFolder(path.dirname(file)));
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
