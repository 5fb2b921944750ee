/** `pipedejavu import` of a folder of node profiles (how a cluster's nodes are gathered into one store). */
import path from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import { cli, tempDir } from '../../helpers/cli.js';
import { gpuServerProfile } from '../../helpers/gpu-profile.js';

interface BatchJson {
  imported: { file: string; label: string }[];
  unchanged: { file: string }[];
  failed: { file: string; error: string }[];
}

describe('pipedejavu import FILE|DIR ...', () => {
  it('imports every profile of a folder, names the bad one, and counts a second pass as unchanged', async () => {
    const dir = tempDir();
    const nodes = path.join(dir, 'nodes');
    mkdirSync(nodes);
    writeFileSync(path.join(nodes, 'gpu-box.json'), encodeProfile(gpuServerProfile()));
    writeFileSync(
      path.join(nodes, 'h100-box.json'),
      encodeProfile(
        gpuServerProfile({ hostname: 'h100-box', gpus: { name: 'NVIDIA H100 80GB HBM3', memoryMiB: 81559 } }),
      ),
    );
    writeFileSync(path.join(nodes, 'broken.json'), '{"format": "pipedejavu-hardware-profile", ');
    writeFileSync(path.join(nodes, 'notes.txt'), 'not a profile, not read');
    const db = path.join(dir, 'lab.db');

    const first = await cli(['import', nodes, '--db', db, '--json']);
    expect(first.code).toBe(1);
    const r = JSON.parse(first.stdout) as BatchJson;
    expect(r.imported.map((i) => i.label).sort()).toEqual(['gpu-box', 'h100-box']);
    expect(r.failed.map((f) => path.basename(f.file))).toEqual(['broken.json']);
    // Under --json the error is JSON too.
    expect(JSON.parse(first.stderr)).toEqual({
      error: { code: 'user', message: `1 of 3 files not imported: ${path.join(nodes, 'broken.json')}` },
    });

    const again = await cli([
      'import',
      path.join(nodes, 'gpu-box.json'),
      path.join(nodes, 'h100-box.json'),
      '--db',
      db,
    ]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/0 imported, 2 unchanged, 0 not imported, of 2 files/);
    const machines = await cli(['machines', '--db', db, '--json']);
    expect((JSON.parse(machines.stdout) as { machines: unknown[] }).machines).toHaveLength(2);
  });

  it('refuses --label with several files, and an empty folder, in one line', async () => {
    const dir = tempDir();
    const empty = path.join(dir, 'empty');
    mkdirSync(empty);
    const none = await cli(['import', empty, '--db', path.join(dir, 'x.db')]);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(`pipedejavu: error: ${empty} holds no .json hardware-profile files\n`);
    const label = await cli(['import', 'a.json', 'b.json', '--label', 'x', '--db', path.join(dir, 'x.db')]);
    expect(label.code).toBe(2);
    expect(label.stderr.trim().split('\n')).toHaveLength(1);
  });
});
