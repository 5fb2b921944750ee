/**
 * Reads an ONNX model file for import, with one clear message for each way that fails: no such
 * file, a directory, an empty file, a file over protobuf's 2 GiB limit, bytes that are not an
 * ONNX model, external-data files that are missing. The file is read once, into one buffer.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { parseOnnxModel, type OnnxModel } from '../../core/onnx/onnx-parser.js';

/** Protobuf messages (so ONNX files) cannot exceed 2 GiB. */
export const MAX_ONNX_BYTES = 2 ** 31 - 1;

export interface ReadOnnxOptions {
  /** Largest file accepted (tests lower it). Default MAX_ONNX_BYTES. */
  maxBytes?: number;
}

const size = (n: number): string =>
  n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(1)} GiB` : n >= 2 ** 20 ? `${Math.ceil(n / 2 ** 20)} MiB` : `${n} bytes`;

/** The model file's bytes, after checking they parse and their external-data files exist. */
export function readOnnxFile(file: string, opts: ReadOnnxOptions = {}): Uint8Array {
  return readOnnxModel(file, opts).bytes;
}

/** The bytes and the parsed model (so callers need not parse twice). */
export function readOnnxModel(file: string, opts: ReadOnnxOptions = {}): { bytes: Uint8Array; model: OnnxModel } {
  const max = opts.maxBytes ?? MAX_ONNX_BYTES;
  let bytesOnDisk: number;
  try {
    const st = statSync(file);
    if (st.isDirectory()) throw new UserError(`${file} is a directory, not an ONNX model file`);
    bytesOnDisk = st.size;
  } catch (e) {
    if (e instanceof UserError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(code === 'ENOENT' ? `no such file: ${file}` : `cannot read ${file} (${code ?? 'error'})`);
  }
  if (bytesOnDisk === 0) throw new UserError(`${file} is empty, not an ONNX model`);
  if (bytesOnDisk > max) {
    throw new UserError(
      `${file} is ${size(bytesOnDisk)}, over the ${size(max)} an ONNX (protobuf) file can hold; save the model with its weights as external data (onnx.save_model(..., save_as_external_data=True))`,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(`cannot read ${file} (${code ?? 'error'})`);
  }
  let model: OnnxModel;
  try {
    model = parseOnnxModel(bytes);
  } catch (e) {
    if (e instanceof UserError) throw new UserError(`${file}: ${e.message}`, e.exitCode);
    throw e;
  }
  checkExternalData(file, model.externalFiles);
  return { bytes, model };
}

/** Every external-data file must exist next to the model (locations are relative to its folder). */
function checkExternalData(file: string, locations: readonly string[]): void {
  const dir = path.dirname(path.resolve(file));
  for (const location of locations) {
    if (!location) throw new UserError(`${file}: a weight is stored as external data without a file location`);
    const target = path.resolve(dir, location);
    let ok = false;
    try {
      ok = statSync(target).isFile();
    } catch {
      ok = false;
    }
    if (!ok) {
      throw new UserError(
        `${file} keeps weights in the external data file "${location}", which is missing (looked for ${target}); copy it next to the model`,
      );
    }
  }
}
