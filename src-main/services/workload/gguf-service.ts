/**
 * A GGUF file as a workload: its header read (adapters/files/read-gguf.ts), its architecture
 * mapped to a decoder description (core/catalog/gguf-architecture.ts), and its parameters counted
 * both ways: from the description and from the file's tensor shapes, with a warning when they differ.
 */
import path from 'node:path';
import { entryWorkload } from '../../core/catalog/index.js';
import { ggufDecoder, type GgufDecoder } from '../../core/catalog/gguf-architecture.js';
import { readGgufHeader } from '../../adapters/files/read-gguf.js';

export interface ReadGgufDecoder extends GgufDecoder {
  /** Parameters of the description (what plans and predictions use). */
  params: number;
  warnings: string[];
}

export async function readGgufDecoder(file: string): Promise<ReadGgufDecoder> {
  const header = await readGgufHeader(file);
  const name = path.basename(file).replace(/\.gguf$/i, '');
  const decoder = ggufDecoder(header.metadata, header.tensorNames, file, name);
  const params = entryWorkload(decoder.entry, { seq: 1 }).nodes.reduce((s, n) => s + n.params, 0);
  const warnings: string[] = [];
  const fileParams = header.tensorNames.length > 0 ? header.parameterCount : null;
  if (fileParams !== null && Math.abs(params / fileParams - 1) > 0.01) {
    warnings.push(
      `${file}: its tensors hold ${fileParams.toLocaleString('en-US')} parameters, the architecture read from its header ${params.toLocaleString('en-US')}: predictions use the latter`,
    );
  }
  return {
    ...decoder,
    entry: { ...decoder.entry, reportedParams: fileParams ?? params },
    fileParams,
    params,
    warnings,
  };
}
