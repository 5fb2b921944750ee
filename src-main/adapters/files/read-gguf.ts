/**
 * The header of a GGUF file (llama.cpp's model format): metadata and tensor names, read with
 * Hugging Face's GGUF parser, which reads the header's byte ranges only, never the weights.
 * Regular files only; anything else, or a file that is not GGUF, is one line.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { gguf } from '@huggingface/gguf';
import { UserError } from '../../core/errors.js';

export interface GgufHeader {
  metadata: Record<string, unknown>;
  tensorNames: string[];
  /** Parameters the tensors hold (the parser's count from their shapes). */
  parameterCount: number;
}

export async function readGgufHeader(file: string): Promise<GgufHeader> {
  let st;
  try {
    st = statSync(file);
  } catch {
    throw new UserError(`${file}: no such file`);
  }
  if (st.isDirectory()) throw new UserError(`${file} is a folder, not a GGUF file`);
  if (!st.isFile()) throw new UserError(`${file} is not a regular file`);
  try {
    const r = await gguf(path.resolve(file), { allowLocalFile: true, computeParametersCount: true });
    return {
      metadata: r.metadata as Record<string, unknown>,
      tensorNames: r.tensorInfos.map((t) => t.name),
      parameterCount: r.parameterCount,
    };
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
    throw new UserError(`${file} is not a GGUF file it can read (${why})`);
  }
}
