/**
 * The files of a model folder are read only as what they claim to be (issue 56): a regular file
 * inside the folder. A symlink leading outside it (to /etc/passwd, /proc/self/environ, a secret
 * beside the folder) or to nothing is refused before anything is opened, in one line naming the
 * file relative to the folder, without its size or a byte of it; a folder named like a file is
 * called a folder. Symlinks that stay inside the folder, and the Hugging Face hub cache's own
 * layout (snapshot files linking to the repository's blobs), are followed.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readHfConfigFile } from '../../../../src-main/adapters/files/read-hf-config.js';
import { readOnnxModel } from '../../../../src-main/adapters/files/read-onnx.js';
import { readSafetensorsFolder } from '../../../../src-main/adapters/files/read-safetensors.js';
import { UserError } from '../../../../src-main/core/errors.js';
import { tempDir } from '../../../helpers/cli.js';
import { safetensorsHeader, writeSafetensorsFile, writeTensors } from '../../../helpers/safetensors.js';
import { externalDataModel } from '../../core/workload/sample-models.js';

/** Every path opened (as given to openSync; the test helpers' writes too, so a test clears it after its setup). */
const opened: string[] = [];
vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  const openSync = (file: string, flags: number, mode?: number): number => {
    opened.push(String(file));
    return real.openSync(file, flags, mode);
  };
  return { ...real, openSync, default: { ...real, openSync } };
});

beforeEach(() => {
  opened.length = 0;
});

const SECRET = 'SECRET-MARKER-7f3a9c';

function message(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error('no error');
}

/** A model folder and, beside it (outside), a folder of secrets. */
function setup(): { dir: string; outside: string } {
  const root = tempDir();
  const dir = path.join(root, 'model');
  const outside = path.join(root, 'private');
  mkdirSync(dir);
  mkdirSync(outside);
  return { dir, outside };
}

/**
 * A file outside the folder that today's readers would quote: a safetensors header whose one
 * tensor is named by the secret and has a bad dtype (its name lands in the error), and JSON-ish
 * text that starts with the secret (the JSON error quotes it).
 */
function secrets(outside: string): { header: string; text: string } {
  const header = path.join(outside, 'secret.safetensors');
  writeSafetensorsFile(header, { [SECRET]: { dtype: 'X', shape: [1], data_offsets: [0, 1] } }, 1);
  const text = path.join(outside, 'secret.txt');
  writeFileSync(text, `${SECRET}=hunter2\n`);
  return { header, text };
}

const LINKED_OUT = (dir: string, name: string): string =>
  `${dir}: ${name} is a symlink leading outside the model folder (or to nothing); only files inside the folder are read`;

describe('safetensors shards that are not files of the folder', () => {
  it('refuses a shard linked to /etc/passwd or /proc/self/environ before opening anything, naming it relative to the folder', () => {
    for (const target of ['/etc/passwd', '/proc/self/environ', '/dev/zero']) {
      const { dir } = setup();
      symlinkSync(target, path.join(dir, 'model.safetensors'));
      const m = message(() => readSafetensorsFolder(dir));
      expect(m).toBe(LINKED_OUT(dir, 'model.safetensors'));
      expect(opened).toEqual([]);
    }
  });

  it('never shows a byte of a secret file outside the folder, whichever file of the folder links to it', () => {
    const { dir, outside } = setup();
    const s = secrets(outside);
    opened.length = 0;
    // The shard of a folder without an index.
    symlinkSync(s.header, path.join(dir, 'model.safetensors'));
    const a = message(() => readSafetensorsFolder(dir));
    expect(a).not.toContain(SECRET);
    expect(a).toBe(LINKED_OUT(dir, 'model.safetensors'));
    // A shard an index names, and the index itself.
    const { dir: indexed } = setup();
    writeFileSync(
      path.join(indexed, 'model.safetensors.index.json'),
      JSON.stringify({ weight_map: { w: 'model-00001-of-00001.safetensors' } }),
    );
    symlinkSync(s.header, path.join(indexed, 'model-00001-of-00001.safetensors'));
    expect(message(() => readSafetensorsFolder(indexed))).toBe(LINKED_OUT(indexed, 'model-00001-of-00001.safetensors'));
    const { dir: badIndex } = setup();
    symlinkSync(s.text, path.join(badIndex, 'model.safetensors.index.json'));
    const b = message(() => readSafetensorsFolder(badIndex));
    expect(b).not.toContain(SECRET);
    expect(b).toBe(LINKED_OUT(badIndex, 'model.safetensors.index.json'));
    expect(opened.filter((f) => f.startsWith(outside))).toEqual([]);
  });

  it('refuses a shard under a subfolder that links outside, and a link to nothing, in the same words', () => {
    const { dir, outside } = setup();
    writeTensors(path.join(outside, 'a.safetensors'), [{ name: 'w', dtype: 'F16', shape: [2] }]);
    symlinkSync(outside, path.join(dir, 'sub'));
    writeFileSync(
      path.join(dir, 'model.safetensors.index.json'),
      JSON.stringify({ weight_map: { w: 'sub/a.safetensors' } }),
    );
    opened.length = 0;
    expect(message(() => readSafetensorsFolder(dir))).toBe(LINKED_OUT(dir, 'sub/a.safetensors'));
    // The index (inside) was read; nothing else.
    expect(opened).toEqual([path.join(fs.realpathSync(dir), 'model.safetensors.index.json')]);
    opened.length = 0;
    // Missing outside and missing inside read alike: the answer does not tell whether a path outside exists.
    const { dir: dangling, outside: o2 } = setup();
    symlinkSync(path.join(o2, 'nope.safetensors'), path.join(dangling, 'model.safetensors'));
    expect(message(() => readSafetensorsFolder(dangling))).toBe(LINKED_OUT(dangling, 'model.safetensors'));
    expect(opened).toEqual([]);
  });

  it('says a folder named x.safetensors is a folder, and a FIFO is not a regular file, without blocking', () => {
    const { dir } = setup();
    mkdirSync(path.join(dir, 'x.safetensors'));
    expect(message(() => readSafetensorsFolder(dir))).toBe(`${dir}: x.safetensors is a folder, not a safetensors file`);
    const { dir: fifoDir } = setup();
    spawnSync('mkfifo', [path.join(fifoDir, 'model.safetensors')]);
    expect(message(() => readSafetensorsFolder(fifoDir))).toBe(
      `${fifoDir}: model.safetensors is not a regular file (a device, pipe or socket)`,
    );
  });

  it('follows a symlink that stays inside the folder', () => {
    const { dir } = setup();
    mkdirSync(path.join(dir, 'weights'));
    writeTensors(path.join(dir, 'weights', 'real.safetensors'), [{ name: 'w', dtype: 'F16', shape: [4, 2] }]);
    symlinkSync(path.join('weights', 'real.safetensors'), path.join(dir, 'model.safetensors'));
    expect(readSafetensorsFolder(dir)?.tensors).toEqual([{ name: 'w', dtype: 'F16', shape: [4, 2] }]);
  });

  it('reads a Hugging Face hub cache snapshot, whose files link to the repository blobs', () => {
    const root = tempDir();
    const repo = path.join(root, 'hub', 'models--org--tiny');
    const blobs = path.join(repo, 'blobs');
    const snapshot = path.join(repo, 'snapshots', '0123abcd');
    mkdirSync(blobs, { recursive: true });
    mkdirSync(snapshot, { recursive: true });
    const { header, dataBytes } = safetensorsHeader([{ name: 'w', dtype: 'BF16', shape: [8, 8] }]);
    writeSafetensorsFile(path.join(blobs, 'aaaa'), header, dataBytes);
    writeFileSync(path.join(blobs, 'bbbb'), JSON.stringify({ model_type: 'llama' }));
    symlinkSync('../../blobs/aaaa', path.join(snapshot, 'model.safetensors'));
    symlinkSync('../../blobs/bbbb', path.join(snapshot, 'config.json'));
    expect(readSafetensorsFolder(snapshot)?.tensors).toEqual([{ name: 'w', dtype: 'BF16', shape: [8, 8] }]);
    expect(readHfConfigFile(snapshot).json).toEqual({ model_type: 'llama' });
    // Another repository's blob is outside this snapshot's folder.
    const other = path.join(root, 'hub', 'models--org--other', 'blobs');
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, 'cccc'), '{}');
    const snap2 = path.join(root, 'hub', 'models--org--tiny', 'snapshots', 'ffff');
    mkdirSync(snap2);
    symlinkSync(path.join(other, 'cccc'), path.join(snap2, 'config.json'));
    expect(message(() => readHfConfigFile(snap2))).toBe(LINKED_OUT(snap2, 'config.json'));
  });
});

describe('config.json of a folder', () => {
  it('refuses a config.json linked outside the folder without quoting it (the environment, a secret)', () => {
    for (const target of ['/proc/self/environ', 'secret']) {
      const { dir, outside } = setup();
      const s = secrets(outside);
      symlinkSync(target === 'secret' ? s.text : target, path.join(dir, 'config.json'));
      opened.length = 0;
      const m = message(() => readHfConfigFile(dir));
      expect(m).toBe(LINKED_OUT(dir, 'config.json'));
      expect(m).not.toContain(SECRET);
      expect(opened).toEqual([]);
    }
  });

  it('says a folder named config.json inside the folder is a folder', () => {
    const { dir } = setup();
    mkdirSync(path.join(dir, 'config.json'));
    expect(message(() => readHfConfigFile(dir))).toBe(`${dir}: config.json is a folder, not a config.json file`);
  });
});

describe('ONNX external data', () => {
  it('refuses an external-data file that links outside the model folder', () => {
    const { dir, outside } = setup();
    const s = secrets(outside);
    const model = path.join(dir, 'model.onnx');
    writeFileSync(model, externalDataModel('model.weights'));
    symlinkSync(s.text, path.join(dir, 'model.weights'));
    expect(message(() => readOnnxModel(model))).toBe(
      `${model} keeps weights in "model.weights", a symlink leading outside the model's folder (or to nothing); external data must lie next to the model`,
    );
    // Linked inside the folder: followed.
    fs.rmSync(path.join(dir, 'model.weights'));
    writeFileSync(path.join(dir, 'real.weights'), new Uint8Array(48));
    symlinkSync('real.weights', path.join(dir, 'model.weights'));
    expect(readOnnxModel(model).model.externalFiles).toEqual(['model.weights']);
  });
});
