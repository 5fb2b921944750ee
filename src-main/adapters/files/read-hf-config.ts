/**
 * A Hugging Face model's config.json, named directly or by its folder: read as JSON with a size
 * cap, never anything else in the folder (no weights). Named by its folder, it is a file of the
 * folder (model-folder-file.ts: a symlink leading outside it is refused unopened); named directly,
 * the user chose it. A folder without config.json, a file too large to be one, or text that is not
 * JSON is one line.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { HF_FOLDER_LIMITS } from '../../core/workload/limits.js';
import { folderHas, readFolderFile } from './model-folder-file.js';
import { readRegularFile } from './read-regular-file.js';

/** Largest config.json read. */
const MAX_HF_CONFIG_BYTES = HF_FOLDER_LIMITS.configBytes;

export interface HfConfigFile {
  /** The config.json's path. */
  file: string;
  /** The model's name: its folder's, or _name_or_path's last part. User text: data. */
  name: string;
  json: unknown;
}

const isDirectory = (spec: string): boolean => {
  try {
    return statSync(spec).isDirectory();
  } catch {
    return false;
  }
};

/**
 * A spec that names a config.json, or a folder: given as a path (which must then hold one), or a
 * bare name that holds one (a bare name without it stays a catalog or stored workload's name).
 */
export function isHfConfigSpec(spec: string): boolean {
  if (/(^|[\\/])config\.json$/i.test(spec)) return true;
  if (!isDirectory(spec)) return false;
  return spec.includes('/') || spec.includes(path.sep) || existsSync(path.join(spec, 'config.json'));
}

export function readHfConfigFile(spec: string): HfConfigFile {
  const folder = isDirectory(spec);
  const file = folder ? path.join(spec, 'config.json') : spec;
  if (folder && !folderHas(spec, 'config.json'))
    throw new UserError(
      `${spec} holds no config.json: give a Hugging Face model folder, its config.json, an .onnx or a .gguf file`,
    );
  const tooLarge = (n: number): string =>
    `${file} is ${n} bytes, too large to be a config.json (at most ${MAX_HF_CONFIG_BYTES} bytes)`;
  const bytes = folder
    ? readFolderFile(spec, 'config.json', 'config.json', MAX_HF_CONFIG_BYTES, (_, n) => tooLarge(n))
    : readRegularFile(file, 'config.json', MAX_HF_CONFIG_BYTES, tooLarge);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (e) {
    throw new UserError(`${file} is not JSON (${(e as Error).message.split('\n')[0] ?? ''})`);
  }
  return { file, name: modelName(file, json), json };
}

function modelName(file: string, json: unknown): string {
  const dir = path.basename(path.dirname(path.resolve(file)));
  const named = (json as { _name_or_path?: unknown } | null)?._name_or_path;
  const fromConfig = typeof named === 'string' ? (named.split(/[\\/]/).filter(Boolean).pop() ?? '') : '';
  return dir && dir !== path.sep ? dir : fromConfig || 'model';
}
