/**
 * `plan --emit DIR` overwrites nothing without intent: a new or empty folder, or `--force`
 * (then only the files it emits are replaced); a symlink in DIR is never written through.
 */
import path from 'node:path';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { seededDb } from '../../helpers/seeded-store.js';

let db = '';

beforeAll(async () => {
  db = path.join(tempDir(), 'plan.db');
  seededDb(db).close();
  expect((await cli(['train', '--db', db, '--predictor', 'analytical'])).code).toBe(0);
});

function plan(out: string, ...extra: string[]): ReturnType<typeof cli> {
  return cli([
    'plan',
    '--workload',
    'bert-base',
    '--seq',
    '128',
    '--batch',
    '8',
    '--virtual',
    'RTX 4090,RTX 3090',
    '--emit',
    out,
    '--db',
    db,
    ...extra,
  ]);
}

describe('plan --emit DIR overwrites nothing without intent', () => {
  it('refuses a folder that is not empty in one line, naming what is there, and changes nothing', async () => {
    const out = path.join(tempDir(), 'out');
    mkdirSync(out);
    writeFileSync(path.join(out, 'README.txt'), 'mine\n');
    writeFileSync(path.join(out, 'hostfile'), 'node-1 slots=8\n');
    const r = await plan(out);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(
      `${out} is not empty (README.txt, hostfile); pass --force to replace the files it emits`,
    );
    expect(readdirSync(out).sort()).toEqual(['README.txt', 'hostfile']);
    expect(readFileSync(path.join(out, 'README.txt'), 'utf8')).toBe('mine\n');
  });

  it('writes into a new folder and into an empty one', async () => {
    const fresh = path.join(tempDir(), 'a', 'b');
    expect((await plan(fresh)).code).toBe(0);
    expect(readdirSync(fresh)).toContain('job.sbatch');
    const empty = path.join(tempDir(), 'empty');
    mkdirSync(empty);
    expect((await plan(empty)).code).toBe(0);
    expect(readdirSync(empty)).toContain('hostfile');
  });

  it('with --force replaces only the files it emits; the rest of the folder stays', async () => {
    const out = path.join(tempDir(), 'out');
    mkdirSync(out);
    writeFileSync(path.join(out, 'hostfile'), 'old\n');
    writeFileSync(path.join(out, 'notes.md'), 'keep me\n');
    const r = await plan(out, '--force');
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(out, 'hostfile'), 'utf8')).not.toBe('old\n');
    expect(readFileSync(path.join(out, 'notes.md'), 'utf8')).toBe('keep me\n');
    // No temporary file is left behind.
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('never writes through a symlink named like an emitted file, even with --force', async () => {
    const d = tempDir();
    const outside = path.join(d, 'victim.txt');
    writeFileSync(outside, 'precious\n');
    const out = path.join(d, 'out');
    mkdirSync(out);
    symlinkSync(outside, path.join(out, 'README.txt'));
    symlinkSync(path.join(d, 'dangling-target'), path.join(out, 'hostfile'));
    const refused = await plan(out);
    expect(refused.code).toBe(1);
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
    const forced = await plan(out, '--force');
    expect(forced.code).toBe(0);
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
    expect(existsSync(path.join(d, 'dangling-target'))).toBe(false);
    expect(lstatSync(path.join(out, 'README.txt')).isFile()).toBe(true);
    expect(lstatSync(path.join(out, 'hostfile')).isFile()).toBe(true);
  });

  it('refuses a folder named like an emitted file, with --force, before writing anything', async () => {
    const out = path.join(tempDir(), 'out');
    mkdirSync(path.join(out, 'job.sbatch'), { recursive: true });
    const r = await plan(out, '--force');
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('job.sbatch is a folder');
    expect(readdirSync(out)).toEqual(['job.sbatch']);
  });

  it('--help names --force', async () => {
    const r = await cli(['plan', '--help']);
    expect(r.stdout).toMatch(/--force/);
  });
});
