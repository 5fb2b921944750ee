/**
 * Reads an ONNX model file for import, with one clear message for each way that fails: no such
 * file, a directory, an empty file, a file over protobuf's 2 GiB limit, bytes that are not an
 * ONNX model, external-data files that are missing. The file is read once, into one buffer.
 */
import { createHash } from 'node:crypto';
import { closeSync, readSync } from 'node:fs';
import { inspectFolderFile } from './model-folder-file.js';
import { openRegular, readRegularFile, regularFileSize } from './read-regular-file.js';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { parseOnnxModel, type OnnxModel } from '../../core/onnx/onnx-parser.js';
import { onnxSkeleton, SkeletonError, type ByteSource } from '../../core/onnx/onnx-skeleton.js';
import { ONNX_LIMITS } from '../../core/workload/limits.js';

/** Protobuf messages (so ONNX files) cannot exceed 2 GiB. */
export const MAX_ONNX_BYTES = 2 ** 31 - 1;

export interface ReadOnnxOptions {
  /** Largest file accepted (tests lower it). Default MAX_ONNX_BYTES. */
  maxBytes?: number;
}

const size = (n: number): string =>
  n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(1)} GiB` : n >= 2 ** 20 ? `${Math.ceil(n / 2 ** 20)} MiB` : `${n} bytes`;

const tooLargeLine = (file: string, n: number, max: number): string =>
  `${file} is ${size(n)}, over the ${size(max)} an ONNX (protobuf) file can hold; save the model with its weights as external data (onnx.save_model(..., save_as_external_data=True))`;

/** The model file's bytes and the parsed model, after checking they parse and their external-data files exist. */
export function readOnnxModel(file: string, opts: ReadOnnxOptions = {}): { bytes: Uint8Array; model: OnnxModel } {
  const max = opts.maxBytes ?? MAX_ONNX_BYTES;
  if (regularFileSize(file, 'ONNX model') === 0) throw new UserError(`${file} is empty, not an ONNX model`);
  const bytes = readRegularFile(file, 'ONNX model', max, (n) => tooLargeLine(file, n, max));
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

/** Files at least this large are read for their structure piece by piece, never whole (smaller ones hold less structure than its cap). */
const STRUCTURE_READ_FROM_BYTES = ONNX_LIMITS.structureBytes;

/**
 * The parsed model and the sha256 of the file, without holding the file: a large one (from
 * STRUCTURE_READ_FROM_BYTES) is read as its skeleton (large weights left out) and hashed in
 * pieces, so a 2 GiB model costs megabytes, not gigabytes. For importing a model's structure;
 * running it (ONNX Runtime) reads it whole.
 */
export function readOnnxStructure(
  file: string,
  opts: ReadOnnxOptions & { structureFromBytes?: number; stripFromBytes?: number; maxStructureBytes?: number } = {},
): { model: OnnxModel; contentHash: string } {
  const max = opts.maxBytes ?? MAX_ONNX_BYTES;
  const onDisk = regularFileSize(file, 'ONNX model');
  if (onDisk < (opts.structureFromBytes ?? STRUCTURE_READ_FROM_BYTES)) {
    const { bytes, model } = readOnnxModel(file, opts);
    return { model, contentHash: createHash('sha256').update(bytes).digest('hex') };
  }
  if (onDisk > max) throw new UserError(tooLargeLine(file, onDisk, max));
  const fd = openRegular(file, 'ONNX model');
  try {
    const src = fileSource(fd, onDisk);
    let model: OnnxModel;
    try {
      const skeleton = onnxSkeleton(src, opts.stripFromBytes);
      const cap = opts.maxStructureBytes ?? ONNX_LIMITS.structureBytes;
      if (skeleton.length > cap) {
        throw new UserError(
          `its graph without the weights is ${size(skeleton.length)}, over the cap of ${size(cap)} (ONNX_LIMITS.structureBytes)`,
        );
      }
      model = parseOnnxModel(skeleton);
    } catch (e) {
      if (e instanceof SkeletonError) {
        // A field that runs past the end: a download cut short, worded as the whole-file read words it.
        const cut = /runs past the end/.test(e.message);
        throw new UserError(
          cut
            ? `${file}: the ONNX file is truncated (${e.message}); download or export it again`
            : `${file}: not an ONNX model: ${e.message}`,
        );
      }
      if (e instanceof UserError) throw new UserError(`${file}: ${e.message}`, e.exitCode);
      throw e;
    }
    checkExternalData(file, model.externalFiles);
    return { model, contentHash: hashFile(fd, onDisk) };
  } finally {
    closeSync(fd);
  }
}

/** Reads of one open file through a 1 MiB window; what it returns is a copy (the window moves on). */
function fileSource(fd: number, size: number): ByteSource {
  const WINDOW = 2 ** 20;
  let start = 0;
  let window = new Uint8Array(0);
  return {
    size,
    read(offset, length) {
      const end = Math.min(size, offset + length);
      if (offset >= start && end <= start + window.length) return window.slice(offset - start, end - start);
      if (end - offset > WINDOW) {
        const out = Buffer.allocUnsafe(end - offset);
        readFully(fd, out, offset);
        return out;
      }
      window = Buffer.allocUnsafe(Math.min(WINDOW, size - offset));
      readFully(fd, window, offset);
      start = offset;
      return window.slice(0, end - offset);
    },
  };
}

function readFully(fd: number, buf: Uint8Array, position: number): void {
  for (let done = 0; done < buf.length;) {
    const n = readSync(fd, buf, done, buf.length - done, position + done);
    if (n === 0) throw new UserError('the ONNX file shrank while it was read; read it again');
    done += n;
  }
}

function hashFile(fd: number, size: number): string {
  const hash = createHash('sha256');
  const chunk = Buffer.allocUnsafe(8 * 2 ** 20);
  for (let at = 0; at < size;) {
    const n = readSync(fd, chunk, 0, Math.min(chunk.length, size - at), at);
    if (n === 0) break;
    hash.update(chunk.subarray(0, n));
    at += n;
  }
  return hash.digest('hex');
}

/** Every external-data file must be a file of the model's folder (locations are relative to it). */
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
    // A file of the model's folder: a symlink leading outside it is refused, unopened (model-folder-file.ts).
    const c = inspectFolderFile(dir, location);
    if (!c.ok && c.problem === 'linked-out') {
      throw new UserError(
        `${file} keeps weights in "${location}", a symlink leading outside the model's folder (or to nothing); external data must lie next to the model`,
      );
    }
    if (!c.ok) {
      throw new UserError(
        `${file} keeps weights in the external data file "${location}", which is missing (looked for ${target}); copy it next to the model`,
      );
    }
  }
}
