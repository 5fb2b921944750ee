/**
 * Reads an ONNX model file for import, with one clear message for each way that fails: no such
 * file, a directory, an empty file, a file over protobuf's 2 GiB limit, bytes that are not an
 * ONNX model, external-data files that are missing. The file is read once, into one buffer.
 */
import { statSync } from 'node:fs';
import { readRegularFile, regularFileSize } from './read-regular-file.js';
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
  if (regularFileSize(file, 'ONNX model') === 0) throw new UserError(`${file} is empty, not an ONNX model`);
  const bytes = readRegularFile(
    file,
    'ONNX model',
    max,
    (n) =>
      `${file} is ${size(n)}, over the ${size(max)} an ONNX (protobuf) file can hold; save the model with its weights as external data (onnx.save_model(..., save_as_external_data=True))`,
  );
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
    const rel = path.relative(dir, target);
    if (
      location.includes('\0') ||
      path.isAbsolute(location) ||
      /^[A-Za-z]:|^[\\/]/.test(location) ||
      rel.startsWith('..') ||
      path.isAbsolute(rel)
    ) {
      throw new UserError(
        `${file} names an external data file outside the model's folder ("${location}"); external data must lie next to the model`,
      );
    }
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
