/**
 * A Hugging Face model folder picked in the browser or the desktop app (`<input type="file"
 * webkitdirectory>`), read as workload:add's hfFolder: config.json's text and, for each weights
 * file, its size and its safetensors header (the 8-byte little-endian length N, then the N bytes
 * after it as text). No weights are read. The weights files are the server's choice for a folder:
 * model.safetensors, else every *.safetensors but adapters, each file of the folder itself (not of
 * a subfolder).
 */
import { HF_FOLDER_REQUEST_LIMITS as LIMITS, type ApiRequest } from '../../../src-main/api/contract.js';

export type HfFolderUpload = NonNullable<ApiRequest<'workload:add'>['hfFolder']>;

/** A picked file's path under the folder picked ("llama/config.json"); a lone file's is its name. */
const pathOf = (f: File): string => (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name;

/** The picked folder's name: the first part of its files' paths. */
export function folderName(files: readonly File[]): string {
  const first = files[0];
  return first ? (pathOf(first).split('/')[0] ?? '') : '';
}

/** The files of the folder itself, by name (a subfolder's files are left out). */
function topLevel(files: readonly File[]): Map<string, File> {
  const byName = new Map<string, File>();
  for (const f of files) {
    const parts = pathOf(f).split('/');
    if (parts.length <= 2) byName.set(parts[parts.length - 1] ?? f.name, f);
  }
  return byName;
}

function weightsFiles(byName: ReadonlyMap<string, File>): File[] {
  const one = byName.get('model.safetensors');
  if (one) return [one];
  return [...byName.entries()]
    .filter(([name]) => name.endsWith('.safetensors') && !name.startsWith('adapter_model'))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, f]) => f);
}

/** One weights file's header, read without its weights; a length the file cannot hold is refused here. */
async function header(f: File): Promise<HfFolderUpload['safetensors'][number]> {
  if (f.size < 8) throw new Error(`${f.name} is ${f.size} bytes, too short to be a safetensors file`);
  const n = new DataView(await f.slice(0, 8).arrayBuffer()).getBigUint64(0, true);
  const max = LIMITS.headerBytes;
  if (n > BigInt(max)) throw new Error(`${f.name}: its header says ${n} bytes, over the ${max} a header may take`);
  if (n > BigInt(f.size - 8)) throw new Error(`${f.name}: its header says ${n} bytes, more than the file holds`);
  return { fileName: f.name, bytes: f.size, header: await f.slice(8, 8 + Number(n)).text() };
}

/** The folder's config.json and safetensors headers, ready to send. */
export async function readHfFolder(files: readonly File[]): Promise<HfFolderUpload> {
  const byName = topLevel(files);
  const config = byName.get('config.json');
  if (!config) throw new Error('This folder has no config.json: choose a Hugging Face model folder.');
  if (config.size > LIMITS.configBytes)
    throw new Error(
      `config.json is ${config.size} bytes, too large to be one (at most ${LIMITS.configBytes})`,
    );
  const safetensors = [];
  for (const f of weightsFiles(byName)) safetensors.push(await header(f));
  return { config: await config.text(), safetensors };
}
