import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { MachineRepo } from '../../../../src-main/adapters/store/machine-repo.js';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import { makeDevices, makeLinks, makeMeasurement, tempDir } from '../../../helpers/store-fixtures.js';
import { serverProbe } from '../../../helpers/sample-probe.js';

const CHILD = fileURLToPath(new URL('./fixtures/kill-mid-transaction.mjs', import.meta.url));

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => {
  tmp.cleanup();
});

describe('a process killed in the middle of a transaction', () => {
  it('leaves no partial rows and a healthy database', () => {
    const path = join(tmp.dir, 'crash.db');
    const setup = openDatabase(path);
    new MachineRepo(setup).upsertLocalMachine(serverProbe(), 'm1', makeDevices(0), makeLinks(0));
    const run = new ProfileRepo(setup).createRun({
      id: 'run-1',
      machineId: 'm1',
      deviceKey: 'cpu',
      suite: 'quick',
      executionProvider: 'CPUExecutionProvider',
      threads: null,
      runtimeVersion: '1.20.0',
    });
    setup.close();

    const committed = 25;
    const uncommitted = 5000;
    const child = spawnSync(process.execPath, [CHILD, path, run.id, 'm1', String(committed), String(uncommitted)], {
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stderr).toBe('');
    expect(child.signal).toBe('SIGKILL');
    const { walBefore, walAfter } = JSON.parse(child.stdout.trim()) as { walBefore: number; walAfter: number };
    // The uncommitted transaction really reached the disk before the kill.
    expect(walAfter).toBeGreaterThan(walBefore);

    const db = openDatabase(path);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    const profiles = new ProfileRepo(db);
    expect(profiles.listMeasurements({ runId: run.id })).toHaveLength(committed);
    expect(profiles.getRun(run.id)?.status).toBe('running');

    // The database keeps working: the interrupted work can be stored now.
    const res = profiles.insertMeasurements(run.id, [makeMeasurement(run.id, 0, { deviceKey: 'cpu' })]);
    expect(res.inserted).toBe(1);
    expect(db.prepare('SELECT count(*) FROM measurements').pluck().get()).toBe(committed + 1);
    db.close();
  });
});
