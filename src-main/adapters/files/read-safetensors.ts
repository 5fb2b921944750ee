/**
 * The safetensors headers of a Hugging Face model folder: for each weights file, the 8-byte
 * little-endian header length N and the N bytes of JSON after it, never a byte past 8 + N (no
 * weights are read). The files are those `model.safetensors.index.json` names (each shard once, a
 * name that leaves the folder refused), else `model.safetensors`, else every `*.safetensors`.
 * Each bad input is one line naming the file.
 */
import { closeSync, existsSync, fstatSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { groupBy } from '../../core/util/group-by.js';
import { safetensorsTensors, type SafetensorsTensor } from '../../core/catalog/safetensors.js';
import { openRegular, readRegularFile } from './read-regular-file.js';

/** Largest header read: real ones are under 10 MiB (DeepSeek-V3's shards hold ~100 KiB each). */
const MAX_SAFETENSORS_HEADER_BYTES = 100 * 2 ** 20;
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

/** The header's length, checked against the file's size and the cap before anything is read past it. */
function headerLength(fd: number, file: string, size: number): number {
  if (size < 8)
    throw new UserError(`${file} is ${size} bytes, too short to be a safetensors file (8-byte header length)`);
  const n = readExactly(fd, file, 8, 0).readBigUInt64LE(0);
  if (n > BigInt(size - 8))
    throw new UserError(
      `${file}: its header says ${n} bytes but the file holds ${size - 8} after the length: the header lies`,
    );
  if (n > BigInt(MAX_SAFETENSORS_HEADER_BYTES))
    throw new UserError(
      `${file}: its header is ${n} bytes, over the ${MAX_SAFETENSORS_HEADER_BYTES} a safetensors header may take`,
    );
  return Number(n);
}

/** The tensors of one safetensors file, from its header only. */
export function readSafetensorsHeader(file: string): SafetensorsTensor[] {
  const fd = openRegular(file, 'safetensors');
  try {
    const size = fstatSync(fd).size;
    const n = headerLength(fd, file, size);
    const text = readExactly(fd, file, n, 8).toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new UserError(`${file}: its safetensors header is not JSON (${(e as Error).message.split('\n')[0] ?? ''})`);
    }
    return safetensorsTensors(file, json, size - 8 - n);
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

function indexShards(folder: string): Map<string, string[]> {
  const index = path.join(folder, SAFETENSORS_INDEX);
  const bytes = readRegularFile(index, 'safetensors index', MAX_SAFETENSORS_INDEX_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (e) {
    throw new UserError(`${index} is not JSON (${(e as Error).message.split('\n')[0] ?? ''})`);
  }
  const map = (json as { weight_map?: unknown } | null)?.weight_map;
  if (typeof map !== 'object' || map === null || Array.isArray(map))
    throw new UserError(`${index} has no weight_map (tensor name -> shard file)`);
  const entries = Object.entries(map as Record<string, unknown>).map(([tensor, shard]) => {
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

function readIndexed(folder: string): SafetensorsFolder {
  const tensors: SafetensorsTensor[] = [];
  const shards = indexShards(folder);
  for (const [shard, named] of shards) {
    const file = path.join(folder, shard);
    const held = readSafetensorsHeader(file);
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
  if (existsSync(path.join(folder, 'model.safetensors'))) return ['model.safetensors'];
  return readdirSync(folder)
    .filter((f) => f.endsWith('.safetensors') && !f.startsWith('adapter_model'))
    .sort();
}

/** The safetensors tensors of a model folder; null when it holds none (a config-only folder). */
export function readSafetensorsFolder(folder: string): SafetensorsFolder | null {
  if (existsSync(path.join(folder, SAFETENSORS_INDEX))) return readIndexed(folder);
  const files = plainFiles(folder);
  if (files.length === 0) return null;
  return { files, tensors: files.flatMap((f) => readSafetensorsHeader(path.join(folder, f))) };
}
