/**
 * A Hugging Face config.json (or a model folder holding one) as a workload: the file read
 * (adapters/files/read-hf-config.ts), its architecture mapped to a model description
 * (core/catalog/hf-config.ts), its parameters counted from the description.
 */
import { entryWorkload, type CatalogEntry } from '../core/catalog/index.js';
import { hfConfigDecoder } from '../core/catalog/hf-config.js';
import { isHfConfigSpec, readHfConfigFile } from '../adapters/files/read-hf-config.js';
import type { WeightFormat } from '../core/workload/generation.js';
import { readGgufDecoder } from './gguf-service.js';

export { isHfConfigSpec } from '../adapters/files/read-hf-config.js';

export interface DescribedModel {
  entry: CatalogEntry;
  /** The stored weight format, when the file says (GGUF). */
  weights: WeightFormat | null;
  /** Parameters of the description (what plans and predictions use). */
  params: number;
  warnings: string[];
}

export function readHfDecoder(spec: string): DescribedModel {
  const { file, name, json } = readHfConfigFile(spec);
  const d = hfConfigDecoder(json, file, name);
  const params = entryWorkload(d.entry, { seq: 1 }).nodes.reduce((s, n) => s + n.params, 0);
  return { entry: { ...d.entry, reportedParams: params }, weights: null, params, warnings: d.warnings };
}

/**
 * The model a file describes apart from a graph: a .gguf header, a config.json or a folder
 * holding one; null for anything else (an .onnx file, a catalog or stored name).
 */
export async function readDescribedModel(spec: string): Promise<DescribedModel | null> {
  if (/\.gguf$/i.test(spec)) return readGgufDecoder(spec);
  if (isHfConfigSpec(spec)) return readHfDecoder(spec);
  return null;
}
