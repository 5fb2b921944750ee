/**
 * Import is export's mirror image: `export | import -` works, importing the same file again is
 * "unchanged" (exit 0), and a machine's own backup restored onto a fresh store becomes this
 * machine again at the next probe, its measurements kept.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import type { ProfileFile } from '../../../src-main/core/profile-file/schema.js';
import { sampleProfileFile } from '../../helpers/sample-profile.js';
import { cli, tempDir } from '../../helpers/cli.js';

const dir = tempDir();
const noSmi = path.join(dir, 'no-such-nvidia-smi');
const bin = path.resolve('bin/pipedejavu.js');

interface MachinesJson {
  machines: { id: string; source: string; measurementCount: number; runCount: number }[];
}

async function machines(db: string): Promise<MachinesJson['machines']> {
  return (JSON.parse((await cli(['machines', '--db', db, '--json'])).stdout) as MachinesJson).machines;
}

/** This host's export with one profile run and two measurements in it (a backup worth restoring). */
function backupOfThisHost(exported: string): string {
  const own = JSON.parse(exported) as ProfileFile;
  const sample = sampleProfileFile();
  return encodeProfile({
    ...sample,
    machine: own.machine,
    devices: own.devices,
    links: own.links,
    profileRuns: sample.profileRuns.map((r) => ({ ...r, threads: 1 })),
    measurements: sample.measurements.map((m) => ({ ...m, deviceKey: 'cpu', threads: 1 })),
  });
}

describe('import - reads standard input', () => {
  it('imports a profile piped in, and says "unchanged" (exit 0) when it comes again', async () => {
    const db = path.join(dir, 'stdin.db');
    const text = encodeProfile(sampleProfileFile());
    const first = await cli(['import', '-', '--db', db, '--json'], {}, text);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect((JSON.parse(first.stdout) as { action: string }).action).toBe('imported');
    const again = await cli(['import', '-', '--db', db], {}, text);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Unchanged: lab-ws-01 \(a1b2c3d4e5f60718\)/);
  });

  it('gives garbage on stdin one line, and a terminal (no stdin) one line saying to pipe', async () => {
    const db = path.join(dir, 'stdin-bad.db');
    const bad = await cli(['import', '-', '--db', db], {}, 'this is not json\n{{{');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^pipedejavu: error: stdin is not JSON/);
    expect(bad.stderr.trimEnd().split('\n')).toHaveLength(1);
    const none = await cli(['import', '-', '--db', db]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/pipedejavu export \| pipedejavu import -/);
    const mixed = await cli(['import', '-', path.join(dir, 'x.json'), '--db', db], {}, 'x');
    expect(mixed.code).toBe(2);
  });

  it('the real CLI: export | import - between two stores', () => {
    const from = path.join(dir, 'pipe-from.db');
    const to = path.join(dir, 'pipe-to.db');
    const file = path.join(dir, 'pipe.json');
    writeFileSync(file, encodeProfile(sampleProfileFile()));
    expect(spawnSync(process.execPath, [bin, 'import', file, '--db', from]).status).toBe(0);
    const ex = spawnSync(process.execPath, [bin, 'export', '--machine', 'lab-ws-01', '--db', from]);
    expect(ex.status).toBe(0);
    const imp = spawnSync(process.execPath, [bin, 'import', '-', '--db', to], { input: ex.stdout, encoding: 'utf8' });
    expect(imp.stderr).toBe('');
    expect(imp.status).toBe(0);
    expect(imp.stdout).toMatch(/^Imported lab-ws-01/);
  });
});

describe("restoring this machine's own export", () => {
  let backup = '';
  const home = path.join(dir, 'home.db');

  beforeAll(async () => {
    expect((await cli(['probe', '--db', home, '--nvidia-smi', noSmi])).code).toBe(0);
    const ex = await cli(['export', '--db', home]);
    expect(ex.code).toBe(0);
    backup = backupOfThisHost(ex.stdout);
  });

  it('onto a fresh store: the next probe takes the machine back as local, measurements kept', async () => {
    const fresh = path.join(dir, 'fresh.db');
    const file = path.join(dir, 'backup.json');
    writeFileSync(file, backup);
    expect((await cli(['import', file, '--db', fresh])).code).toBe(0);
    const probe = await cli(['probe', '--db', fresh, '--nvidia-smi', noSmi]);
    expect(probe.stderr).toBe('');
    expect(probe.code).toBe(0);
    const list = await machines(fresh);
    expect(list.map((m) => [m.source, m.runCount, m.measurementCount])).toEqual([['local', 1, 2]]);
    // The store now knows the machine as local: its own export comes back as "unchanged".
    const again = await cli(['import', file, '--db', fresh]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Unchanged: /);
  });

  it('onto a store that probed first: the runs it lacks are merged in, nothing it has is replaced', async () => {
    const probed = path.join(dir, 'probed.db');
    expect((await cli(['probe', '--db', probed, '--nvidia-smi', noSmi])).code).toBe(0);
    const file = path.join(dir, 'backup2.json');
    writeFileSync(file, backup);
    const r = await cli(['import', file, '--db', probed, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { action: string }).action).toBe('merged');
    expect((await machines(probed)).map((m) => [m.source, m.runCount, m.measurementCount])).toEqual([['local', 1, 2]]);
    // An older copy of the same run (other values) replaces nothing.
    const older = JSON.parse(backup) as ProfileFile;
    const stale = encodeProfile({
      ...older,
      measurements: older.measurements.map((m) => ({ ...m, stats: { ...m.stats, medianUs: 1, p10Us: 1, p90Us: 1 } })),
    });
    const stalePath = path.join(dir, 'stale.json');
    writeFileSync(stalePath, stale);
    const s = await cli(['import', stalePath, '--db', probed]);
    expect(s.code).toBe(0);
    expect(s.stdout).toMatch(/^Unchanged: /);
    const out = JSON.parse((await cli(['export', '--db', probed])).stdout) as ProfileFile;
    expect(out.measurements.map((m) => m.stats.medianUs)).not.toContain(1);
  });
});

describe('the file a colleague gave twice', () => {
  it('importing the same file again exits 0 and says unchanged', async () => {
    const db = path.join(dir, 'twice.db');
    const file = path.join(dir, 'twice.json');
    writeFileSync(file, encodeProfile(sampleProfileFile()));
    expect((await cli(['import', file, '--db', db])).code).toBe(0);
    const again = await cli(['import', file, '--db', db, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ action: 'unchanged', machineId: 'a1b2c3d4e5f60718' });
  });
});
