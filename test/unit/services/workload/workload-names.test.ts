/**
 * Which a workload spec is, a file or a name: a catalog model or a stored workload wins over a
 * same-named file or folder in the working folder unless the spec is written as a path (a / or \,
 * a leading dot, absolute); a bare name that only a file has is still read as that file (the CLI).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import {
  addWorkload,
  describedEntry,
  isExplicitPath,
  isWorkloadName,
  readDescribedFile,
  resolveWorkload,
} from '../../../../src-main/services/workload/workload-service.js';
import { tinyLlama } from '../../../helpers/hf-configs.js';
import { tempDir } from '../../../helpers/cli.js';

const ONNX = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');

const tiny = tinyLlama;

function folder(dir: string, name: string, config: unknown): string {
  const f = path.join(dir, name);
  mkdirSync(f, { recursive: true });
  writeFileSync(path.join(f, 'config.json'), JSON.stringify(config));
  return f;
}

const params = (db: Database, spec: string): number =>
  resolveWorkload(db, spec, { seq: 8 }).workload.nodes.reduce((s, n) => s + n.params, 0);

let cwd: string;
let db: Database;
let storedParams: number;
let fileParams: number;
const before = process.cwd();

beforeAll(() => {
  const root = tempDir('pdjv-names-');
  cwd = path.join(root, 'work');
  mkdirSync(cwd);
  db = openDatabase(':memory:');
  // Stored as `workload add ../elsewhere/tiny` stores it: under the folder's name, with its absolute path.
  process.chdir(root);
  folder(root, 'elsewhere/tiny', tiny(64));
  addWorkload(db, 'elsewhere/tiny', { seq: 8 });
  process.chdir(cwd);
  // The working folder holds a different model of each name, and a config.json of its own.
  folder(cwd, 'tiny', tiny(128));
  folder(cwd, 'bert-base', tiny(128));
  folder(cwd, 'only-here', tiny(128));
  writeFileSync(path.join(cwd, 'config.json'), JSON.stringify(tiny(128)));
  storedParams = resolveWorkload(db, 'tiny', { seq: 8 }).workload.nodes.reduce((s, n) => s + n.params, 0);
  fileParams = params(db, './tiny');
});

afterAll(() => {
  process.chdir(before);
  db.close();
});

describe('workload names and files', () => {
  it('stores a folder added by a relative path under its name, with its absolute path', () => {
    const [row] = db.prepare<[], { name: string; file_path: string }>('SELECT name, file_path FROM workloads').all();
    expect(row?.name).toBe('tiny');
    expect(path.isAbsolute(row?.file_path ?? '')).toBe(true);
    expect(row?.file_path).not.toContain(cwd);
  });

  it('tells paths from names without looking at the filesystem', () => {
    for (const p of ['.', '..', './tiny', '.hidden', 'a/b', 'a\\b', '/abs', 'config.json/'])
      expect(isExplicitPath(p)).toBe(true);
    for (const n of ['tiny', 'bert-base', 'config.json', 'model.onnx']) expect(isExplicitPath(n)).toBe(false);
    expect(isWorkloadName(db, 'tiny')).toBe(true);
    expect(isWorkloadName(db, 'bert-base')).toBe(true);
    expect(isWorkloadName(db, 'only-here')).toBe(false);
    expect(isWorkloadName(db, 'config.json')).toBe(false);
  });

  it('reads a stored name from the store, not from a same-named folder in the working folder', async () => {
    expect(storedParams).toBeGreaterThan(0);
    expect(fileParams).toBeGreaterThan(storedParams);
    expect(describedEntry(db, 'tiny')).toMatchObject({ kind: 'transformer', hidden: 64, name: 'tiny' });
    // The stored folder's description (hidden 64), never the working folder's (hidden 128).
    expect((await readDescribedFile(db, 'tiny'))?.entry).toMatchObject({ hidden: 64, name: 'tiny' });
  });

  it('reads a catalog name from the catalog, not from a same-named folder', async () => {
    expect(resolveWorkload(db, 'bert-base').workload.name).toBe('bert-base');
    expect(describedEntry(db, 'bert-base')).toMatchObject({ name: 'bert-base' });
    expect(await readDescribedFile(db, 'bert-base')).toBeNull();
    expect(params(db, './bert-base')).toBe(fileParams);
  });

  it('still reads explicit paths and bare names only a file has, as the CLI did', async () => {
    expect(params(db, './tiny')).toBe(fileParams);
    expect(params(db, path.join(cwd, 'tiny'))).toBe(fileParams);
    expect(params(db, 'only-here')).toBe(fileParams);
    expect(params(db, 'config.json')).toBe(fileParams);
    expect(params(db, '.')).toBe(fileParams);
    expect(describedEntry(db, 'only-here')).toMatchObject({ hidden: 128 });
    expect((await readDescribedFile(db, './tiny'))?.entry).toMatchObject({ hidden: 128 });
    expect((await readDescribedFile(db, 'only-here'))?.entry).toMatchObject({ hidden: 128 });
  });

  it('reads a stored ONNX workload by its name even where a file of that name is garbage', () => {
    addWorkload(db, ONNX, { name: 'cls.onnx', inputs: { x: [1, 3, 48, 192] } });
    writeFileSync(path.join(cwd, 'cls.onnx'), 'not a model');
    expect(resolveWorkload(db, 'cls.onnx').filePath).toBe(ONNX);
    expect(() => resolveWorkload(db, './cls.onnx')).toThrow(/cls\.onnx/);
  });
});
