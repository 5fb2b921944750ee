/**
 * The safetensors headers of a Hugging Face model folder: for each weights file, the 8-byte
 * little-endian header length N and the N bytes of JSON after it, never a byte past 8 + N (no
 * weights are read). The files are those `model.safetensors.index.json` names (each shard once, a
 * name that leaves the folder refused), else `model.safetensors`, else every `*.safetensors`.
 * Each is a regular file inside the folder (model-folder-file.ts: a symlink leading out is refused
 * unopened), and the headers' tensors and bytes are capped (SAFETENSORS_LIMITS) before any is
 * parsed. Each bad input is one line naming the file.
 */
import { closeSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { groupBy } from '../../core/util/group-by.js';
import {
  checkHeaderLength,
  checkIndexTensorCount,
  headerTensors,
  SAFETENSORS_LIMITS,
  safetensorsBudget,
  type SafetensorsBudget,
  type SafetensorsLimits,
  type SafetensorsTensor,
} from '../../core/catalog/safetensors.js';
import { folderHas, openFolderFile, readFolderFile } from './model-folder-file.js';

/** Largest model.safetensors.index.json read (DeepSeek-V3's is 8.6 MiB). */
const MAX_SAFETENSORS_INDEX_BYTES = 64 * 2 ** 20;

const SAFETENSORS_INDEX = 'model.safetensors.index.json';

export interface SafetensorsFolder {
  /** The weights files read, by name in the folder. */
  files: string[];
  tensors: SafetensorsTensor[];
}

/** Reads exactly `length` bytes at `position`, or says the file ended. */
function readExactly(fd: number, file: string, length: number, position: number): Buffer {
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0) throw new UserError(`${file} ended inside its safetensors header`);
    got += n;
  }
  return buf;
}

/** The header's length, checked against the file's size and the caps before anything is read past it. */
function headerLength(fd: number, file: string, size: number, budget: SafetensorsBudget): number {
  if (size < 8)
    throw new UserError(`${file} is ${size} bytes, too short to be a safetensors file (8-byte header length)`);
  return checkHeaderLength(file, readExactly(fd, file, 8, 0).readBigUInt64LE(0), size - 8, budget);
}

/**
 * The tensors of the safetensors file `name` of a model folder, from its header only: the file
 * checked first (a regular file inside the folder), the header's tensors counted on its bytes
 * before it is parsed.
 */
export function readSafetensorsHeader(
  folder: string,
  name: string,
  limits: SafetensorsLimits = SAFETENSORS_LIMITS,
  budget: SafetensorsBudget = safetensorsBudget(limits),
): SafetensorsTensor[] {
  const { fd, checked } = openFolderFile(folder, name, 'safetensors');
  const file = checked.file;
  try {
    const size = checked.size;
    const n = headerLength(fd, file, size, budget);
    const bytes = readExactly(fd, file, n, 8);
    return headerTensors(file, bytes, size - 8 - n, budget);
  } finally {
    closeSync(fd);
  }
}

/** A shard name that stays in the folder: relative, no `..`, no folder of its own above it. */
function shardPath(folder: string, index: string, name: string): string {
  const inside = path.relative(folder, path.resolve(folder, name));
  if (path.isAbsolute(name) || name.split(/[\\/]/).includes('..') || inside.startsWith('..') || inside === '')
    throw new UserError(`${index} names shard "${name}" outside its folder; shards are files beside the index`);
  return path.join(folder, name);
}

function indexShards(folder: string, limits: SafetensorsLimits): Map<string, string[]> {
  const index = path.join(folder, SAFETENSORS_INDEX);
  const bytes = readFolderFile(
    folder,
    SAFETENSORS_INDEX,
    'safetensors index',
    MAX_SAFETENSORS_INDEX_BYTES,
    (file, n) => `${file} is ${n} bytes, too large to be a safetensors index (at most ${MAX_SAFETENSORS_INDEX_BYTES})`,
  );
  checkIndexTensorCount(index, bytes, limits);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (e) {
    throw new UserError(`${index} is not JSON (${(e as Error).message.split('\n')[0] ?? ''})`);
  }
  const map = (json as { weight_map?: unknown } | null)?.weight_map;
  if (typeof map !== 'object' || map === null || Array.isArray(map))
    throw new UserError(`${index} has no weight_map (tensor name -> shard file)`);
  const names = Object.entries(map as Record<string, unknown>);
  checkIndexTensorCount(index, names.length, limits);
  const entries = names.map(([tensor, shard]) => {
    if (typeof shard !== 'string') throw new UserError(`${index}: weight_map["${tensor}"] is not a file name`);
    shardPath(folder, index, shard);
    return { tensor, shard };
  });
  return groupBy(
    entries,
    (e) => e.shard,
    (e) => e.tensor,
  );
}

function readIndexed(folder: string, limits: SafetensorsLimits): SafetensorsFolder {
  const tensors: SafetensorsTensor[] = [];
  const shards = indexShards(folder, limits);
  const budget = safetensorsBudget(limits);
  for (const [shard, named] of shards) {
    const file = path.join(folder, shard);
    const held = readSafetensorsHeader(folder, shard, limits, budget);
    const names = new Set(held.map((t) => t.name));
    const missing = named.find((t) => !names.has(t));
    if (missing !== undefined)
      throw new UserError(`${SAFETENSORS_INDEX} puts "${missing}" in ${file}, whose header has no such tensor`);
    tensors.push(...held);
  }
  return { files: [...shards.keys()], tensors };
}

/** The weights files of a folder without an index: model.safetensors, else every *.safetensors (no adapters). */
function plainFiles(folder: string): string[] {
  if (folderHas(folder, 'model.safetensors')) return ['model.safetensors'];
  return readdirSync(folder)
    .filter((f) => f.endsWith('.safetensors') && !f.startsWith('adapter_model'))
    .sort();
}

/**
 * The safetensors tensors of a model folder; null when it holds none (a config-only folder).
 * `limits`: the caps of SAFETENSORS_LIMITS (tests lower them).
 */
export function readSafetensorsFolder(
  folder: string,
  limits: SafetensorsLimits = SAFETENSORS_LIMITS,
): SafetensorsFolder | null {
  if (folderHas(folder, SAFETENSORS_INDEX)) return readIndexed(folder, limits);
  const files = plainFiles(folder);
  if (files.length === 0) return null;
  const budget = safetensorsBudget(limits);
  return { files, tensors: files.flatMap((f) => readSafetensorsHeader(folder, f, limits, budget)) };
}
