/**
 * Two processes writing one store: each waits for the other's write transaction
 * (BEGIN IMMEDIATE + busy timeout) instead of failing with "database is locked".
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { MachineRepo } from '../../../../src-main/adapters/store/machine-repo.js';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import { encodeProfile } from '../../../../src-main/core/profile-file/codec.js';
import { bigProfileFile } from '../../../helpers/big-profile.js';
import { tempDir } from '../../../helpers/cli.js';

interface Run {
  code: number | null;
  out: string;
}

function pipedejavu(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/pipedejavu.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('two processes writing one store', () => {
  it('two imports of the same 10k-measurement file: one imports, the other finds it there', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'store.db');
    const file = path.join(dir, 'big.json');
    writeFileSync(file, encodeProfile(bigProfileFile(10_000)));
    openDatabase(db).close();
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0) expect((await pipedejavu(['machines', 'remove', 'b16b16b16b16b16b', '--db', db])).code).toBe(0);
      const runs = await Promise.all([
        pipedejavu(['import', file, '--db', db]),
        pipedejavu(['import', file, '--db', db]),
      ]);
      const text = runs.map((r) => r.out).join('\n');
      expect(text).not.toMatch(/locked|internal error|this is a bug/);
      expect(runs.filter((r) => r.code === 0 && /^Imported big-10000/.test(r.out))).toHaveLength(1);
      expect(runs.filter((r) => r.code === 0 && /^Unchanged: .*already imported/.test(r.out))).toHaveLength(1);
      const check = openDatabase(db);
      expect(new ProfileRepo(check).listMeasurements({ machineId: 'b16b16b16b16b16b' })).toHaveLength(10_000);
      check.close();
    }
  }, 120_000);

  it('two imports of different machines at once both land whole', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'store.db');
    const files = ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb'].map((id) => {
      const f = path.join(dir, `${id}.json`);
      writeFileSync(f, encodeProfile(bigProfileFile(8_000, id)));
      return f;
    });
    openDatabase(db).close();
    const runs = await Promise.all(files.map((f) => pipedejavu(['import', f, '--db', db])));
    expect(runs.map((r) => r.code)).toEqual([0, 0]);
    const check = openDatabase(db);
    const machines = new MachineRepo(check).listMachines();
    expect(machines.map((m) => m.measurementCount).sort()).toEqual([8_000, 8_000]);
    check.close();
  }, 120_000);
});
