/**
 * Safetensors headers read from files written here: real headers, sparse data areas (no test
 * writes gigabytes), and the bad inputs refused in one line each. Every read's byte range is
 * recorded, to prove nothing past a header is read.
 */
import * as fs from 'node:fs';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  readSafetensorsFolder,
  readSafetensorsHeader as readHeader,
} from '../../../src-main/adapters/files/read-safetensors.js';
import { SAFETENSORS_LIMITS } from '../../../src-main/core/catalog/safetensors.js';
import { tempDir } from '../../helpers/cli.js';
import { llamaTensors, safetensorsHeader, writeSafetensorsFile, writeTensors } from '../../helpers/safetensors.js';

/** Every read of a .safetensors file: the file and the byte it reads up to (a read from the current position: Infinity). */
const reads: { file: string; end: number }[] = [];
vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  const files = new Map<number, string>();
  const openSync = (file: string, flags: number, mode?: number): number => {
    const fd = real.openSync(file, flags, mode);
    files.set(fd, String(file));
    return fd;
  };
  const readSync = (
    fd: number,
    buf: NodeJS.ArrayBufferView,
    offset: number,
    length: number,
    position: number | null,
  ) => {
    const file = files.get(fd) ?? '';
    if (file.endsWith('.safetensors')) reads.push({ file, end: (position ?? Number.POSITIVE_INFINITY) + length });
    return real.readSync(fd, buf, offset, length, position);
  };
  return { ...real, openSync, readSync, default: { ...real, openSync, readSync } };
});

const SMALL = {
  hidden_size: 128,
  intermediate_size: 256,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  head_dim: 32,
  vocab_size: 512,
  tie_word_embeddings: false,
};
const PARAMS = 426_624;

beforeEach(() => {
  reads.length = 0;
});

/** The header of a file of a model folder. */
const readSafetensorsHeader = (f: string): ReturnType<typeof readHeader> =>
  readHeader(path.dirname(f), path.basename(f));

const folderOf = (): string => {
  const dir = path.join(tempDir(), 'model');
  mkdirSync(dir);
  return dir;
};

describe('safetensors headers of a model folder', () => {
  it('reads one file header only: a garbage data area is never read', () => {
    const dir = folderOf();
    const file = path.join(dir, 'model.safetensors');
    const { header, dataBytes } = safetensorsHeader(llamaTensors(SMALL));
    const headerEnd = writeSafetensorsFile(file, header, dataBytes, { fill: 4096 });
    const r = readSafetensorsFolder(dir);
    expect(r?.files).toEqual(['model.safetensors']);
    expect(r?.tensors.reduce((s, t) => s + t.shape.reduce((p, d) => p * d, 1), 0)).toBe(PARAMS);
    expect(reads.length).toBeGreaterThan(0);
    expect(Math.max(...reads.map((x) => x.end))).toBe(headerEnd);
    expect(fs.statSync(file).size).toBe(headerEnd + PARAMS * 2);
  });

  it('reads each shard the index names once, and no other file', () => {
    const dir = folderOf();
    const tensors = llamaTensors(SMALL);
    const half = Math.ceil(tensors.length / 2);
    const shards = ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'];
    const ends = new Map([
      [path.join(dir, shards[0]!), writeTensors(path.join(dir, shards[0]!), tensors.slice(0, half))],
      [path.join(dir, shards[1]!), writeTensors(path.join(dir, shards[1]!), tensors.slice(half))],
    ]);
    // Not named by the index: a stray consolidated checkpoint that is not one.
    writeFileSync(path.join(dir, 'consolidated.safetensors'), 'not weights');
    const weightMap = Object.fromEntries(tensors.map((t, i) => [t.name, shards[i < half ? 0 : 1]]));
    writeFileSync(
      path.join(dir, 'model.safetensors.index.json'),
      JSON.stringify({ metadata: {}, weight_map: weightMap }),
    );
    const r = readSafetensorsFolder(dir);
    expect(r?.files).toEqual(shards);
    expect(r?.tensors).toHaveLength(tensors.length);
    // Each shard read up to its header's end, nothing else read.
    expect(new Set(reads.map((x) => x.file))).toEqual(new Set(ends.keys()));
    for (const [f, end] of ends) expect(Math.max(...reads.filter((x) => x.file === f).map((x) => x.end))).toBe(end);
  });

  it('is null for a config-only folder', () => {
    const dir = folderOf();
    writeFileSync(path.join(dir, 'config.json'), '{}');
    expect(readSafetensorsFolder(dir)).toBeNull();
  });
});

describe('bad safetensors input, one line naming the file', () => {
  const file = (): string => path.join(folderOf(), 'model.safetensors');

  it('refuses a header length larger than the file', () => {
    const f = file();
    writeSafetensorsFile(f, '{}', 0, { length: 1000n });
    expect(() => readSafetensorsHeader(f)).toThrow(
      `${f}: its header says 1000 bytes but the file holds 2 after the length: the header lies`,
    );
  });

  it('refuses a header length of 2^60 without reading it', () => {
    const f = file();
    writeSafetensorsFile(f, '{}', 0, { length: 2n ** 60n });
    expect(() => readSafetensorsHeader(f)).toThrow(
      `${f}: its header says 1152921504606846976 bytes but the file holds 2 after the length: the header lies`,
    );
    expect(reads.every((x) => x.end <= 8)).toBe(true);
  });

  it('refuses a header over the cap (25.4 MiB: 256 bytes a tensor at the file cap, 1 MiB of metadata) in a file that large', () => {
    const f = file();
    writeSafetensorsFile(f, '{}', 200 * 2 ** 20, { length: 150n * 2n ** 20n });
    expect(() => readSafetensorsHeader(f)).toThrow(
      `${f}: its header is 157286400 bytes, over the 26648576 a safetensors header may take`,
    );
  });

  it('refuses truncated JSON and a file too short for a length', () => {
    const f = file();
    writeSafetensorsFile(f, '{"w": {"dtype": "F16"', 0);
    expect(() => readSafetensorsHeader(f)).toThrow(new RegExp(`^${f}: its safetensors header is not JSON \\(.+\\)$`));
    fs.writeFileSync(f, 'abc');
    expect(() => readSafetensorsHeader(f)).toThrow(
      `${f} is 3 bytes, too short to be a safetensors file (8-byte header length)`,
    );
  });

  it('refuses offsets that lie about the data area', () => {
    const f = file();
    writeSafetensorsFile(f, { w: { dtype: 'BF16', shape: [1024, 1024], data_offsets: [0, 2 * 1024 * 1024] } }, 1024);
    expect(() => readSafetensorsHeader(f)).toThrow(
      `${f}: tensor "w" data_offsets [0,2097152] fall outside the data area (0..1024 bytes): the header lies`,
    );
  });

  it('refuses a shard name that leaves the folder, absolute or with ..', () => {
    for (const shard of ['../x.safetensors', '/etc/passwd', 'sub/../../x.safetensors']) {
      const dir = folderOf();
      writeFileSync(path.join(dir, 'model.safetensors.index.json'), JSON.stringify({ weight_map: { w: shard } }));
      expect(() => readSafetensorsFolder(dir)).toThrow(
        `${path.join(dir, 'model.safetensors.index.json')} names shard "${shard}" outside its folder; shards are files beside the index`,
      );
    }
  });

  it('refuses an index that puts a tensor in a shard without it', () => {
    const dir = folderOf();
    writeTensors(path.join(dir, 'a.safetensors'), [{ name: 'w', dtype: 'F16', shape: [2] }]);
    writeFileSync(
      path.join(dir, 'model.safetensors.index.json'),
      JSON.stringify({ weight_map: { w: 'a.safetensors', v: 'a.safetensors' } }),
    );
    expect(() => readSafetensorsFolder(dir)).toThrow(
      `model.safetensors.index.json puts "v" in ${path.join(dir, 'a.safetensors')}, whose header has no such tensor`,
    );
  });
});

/** A raw header of `n` one-float tensors laid end to end (text, as a writer would stream it). */
function manyTensors(n: number, prefix = 't'): { text: string; dataBytes: number } {
  const parts: string[] = [];
  for (let i = 0; i < n; i++)
    parts.push(`"${prefix}${i}":{"dtype":"F32","shape":[1],"data_offsets":[${4 * i},${4 * i + 4}]}`);
  return { text: `{"__metadata__":{"format":"pt"},${parts.join(',')}}`, dataBytes: 4 * n };
}

describe('tensor counts and header sizes, capped before a header is parsed', () => {
  it('refuses a header of more than 100,000 tensors without parsing it into objects', () => {
    const f = path.join(folderOf(), 'model.safetensors');
    const { text, dataBytes } = manyTensors(100_001);
    writeSafetensorsFile(f, text, dataBytes);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(() => readSafetensorsHeader(f)).toThrow(
        `${f}: its safetensors header holds more than 100,000 tensors, the most one file may hold (real shards hold a few thousand)`,
      );
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it('reads a header of exactly 100,000 tensors', () => {
    expect(SAFETENSORS_LIMITS.tensorsPerFile).toBe(100_000);
    const f = path.join(folderOf(), 'model.safetensors');
    const { text, dataBytes } = manyTensors(100_000);
    writeSafetensorsFile(f, text, dataBytes);
    expect(readSafetensorsHeader(f)).toHaveLength(100_000);
  });

  it('counts keys, not look-alikes: braces, colons and quotes inside names and metadata', () => {
    const f = path.join(folderOf(), 'model.safetensors');
    const header = {
      __metadata__: { note: '{"a": 1, "b": [2, {"c": 3}]} \\" : , {' },
      'w:{"x":1}': { dtype: 'F16', shape: [2], data_offsets: [0, 4] },
      'v\\"': { dtype: 'F16', shape: [2], data_offsets: [4, 8] },
    };
    writeSafetensorsFile(f, header, 8);
    const limits = { ...SAFETENSORS_LIMITS, tensorsPerFile: 2 };
    expect(readHeader(path.dirname(f), 'model.safetensors', limits).map((t) => t.name)).toEqual(['w:{"x":1}', 'v\\"']);
    expect(() => readHeader(path.dirname(f), 'model.safetensors', { ...limits, tensorsPerFile: 1 })).toThrow(
      /holds more than 1 tensors, the most one file may hold/,
    );
  });

  it('refuses a folder whose shards hold more than the model cap, before parsing the shard that passes it', () => {
    const dir = folderOf();
    writeSafetensorsFile(path.join(dir, 'a.safetensors'), manyTensors(3, 'a').text, 12);
    writeSafetensorsFile(path.join(dir, 'b.safetensors'), manyTensors(3, 'b').text, 12);
    const limits = { ...SAFETENSORS_LIMITS, tensorsPerModel: 5 };
    expect(() => readSafetensorsFolder(dir, limits)).toThrow(
      `${path.join(dir, 'b.safetensors')}: the folder's safetensors hold more than 5 tensors, the most one model may hold`,
    );
    expect(readSafetensorsFolder(dir, { ...limits, tensorsPerModel: 6 })?.tensors).toHaveLength(6);
  });

  it('refuses an index that names more tensors than the model cap, before parsing it', () => {
    const dir = folderOf();
    const weightMap = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`w${i}`, 'a.safetensors']));
    writeFileSync(
      path.join(dir, 'model.safetensors.index.json'),
      JSON.stringify({ metadata: { total_size: 24 }, weight_map: weightMap }),
    );
    const limits = { ...SAFETENSORS_LIMITS, tensorsPerModel: 5 };
    expect(() => readSafetensorsFolder(dir, limits)).toThrow(
      `${path.join(dir, 'model.safetensors.index.json')} names more than 5 tensors, the most one model may hold`,
    );
  });

  it("refuses headers that add up to more than the folder's cap", () => {
    const dir = folderOf();
    const a = manyTensors(50, 'a');
    writeSafetensorsFile(path.join(dir, 'a.safetensors'), a.text, a.dataBytes);
    writeSafetensorsFile(path.join(dir, 'b.safetensors'), manyTensors(50, 'b').text, a.dataBytes);
    const limits = { ...SAFETENSORS_LIMITS, modelHeaderBytes: Math.floor(a.text.length * 1.5) };
    expect(() => readSafetensorsFolder(dir, limits)).toThrow(
      `${path.join(dir, 'b.safetensors')}: the folder's safetensors headers add up to more than ${limits.modelHeaderBytes} bytes, the most one model's may take`,
    );
  });
});
