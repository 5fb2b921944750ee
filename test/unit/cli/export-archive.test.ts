/** `pipedejavu export --machine a,b,c | --all` into one profile archive, and `import` of that archive. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import type { ProfileFile } from '../../../src-main/core/profile-file/schema.js';
import { cli, tempDir } from '../../helpers/cli.js';
import { gpuServerProfile } from '../../helpers/gpu-profile.js';

const HOSTS = ['node-a', 'node-b', 'node-c'];

/** Three lab nodes, each with its own machine id. */
function nodeProfile(i: number): ProfileFile {
  const f = gpuServerProfile({ hostname: HOSTS[i] as string });
  f.machine.id = `node000000000${i}`;
  return f;
}

interface BatchJson {
  imported: { file: string; profile?: number; label: string; machineId: string; action: string }[];
  unchanged: { file: string; profile?: number; reason: string }[];
  failed: { file: string; profile?: number; error: string }[];
  archives: number;
}

async function machineLabels(db: string): Promise<string[]> {
  const r = await cli(['machines', '--db', db, '--json']);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { machines: { label: string }[] }).machines.map((m) => m.label).sort();
}

const dir = tempDir();
/** The lab's store: the three nodes imported from their own files. */
const labDb = path.join(dir, 'lab.db');
const archive = path.join(dir, 'lab-archive.json');
let archiveText = '';

beforeAll(async () => {
  for (const i of [0, 1, 2]) {
    const file = path.join(dir, `${HOSTS[i]}.json`);
    writeFileSync(file, encodeProfile(nodeProfile(i)));
    expect((await cli(['import', file, '--db', labDb])).code).toBe(0);
  }
  const r = await cli(['export', '--db', labDb, '--machine', 'node-a,node-b,node-c', '--out', archive]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  archiveText = readFileSync(archive, 'utf8');
});

describe('pipedejavu export of several machines', () => {
  it('writes one archive holding each machine exactly as its own export, one line per machine', async () => {
    const parsed = JSON.parse(archiveText) as { format: string; formatVersion: number; profiles: unknown[] };
    expect(parsed.format).toBe('pipedejavu-profile-archive');
    expect(parsed.formatVersion).toBe(1);
    expect(parsed.profiles).toHaveLength(3);
    for (const [i, host] of HOSTS.entries()) {
      const single = await cli(['export', '--db', labDb, '--machine', host]);
      expect(single.code).toBe(0);
      // The single export is unchanged: one profile, byte for byte the file the node was imported from.
      expect(single.stdout).toBe(readFileSync(path.join(dir, `${host}.json`), 'utf8'));
      expect(parsed.profiles[i]).toEqual(JSON.parse(single.stdout));
    }
    const again = await cli(['export', '--db', labDb, '--machine', 'node-a,node-b,node-c', '--out', archive]);
    expect(again.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^Exported node-a \(node0000000000\): 3 devices, 2 profile runs, (\d+) measurements \(\1 kernels\)$/,
      ),
      expect.stringMatching(/^Exported node-b \(node0000000001\): /),
      expect.stringMatching(/^Exported node-c \(node0000000002\): /),
      `3 machines -> ${archive}`,
    ]);
  });

  it('--all takes every machine; --json says what went in; stdout without --out', async () => {
    const out = path.join(dir, 'all.json');
    const r = await cli(['export', '--db', labDb, '--all', '--out', out, '--json']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as { file: string; machines: { label: string; devices: number }[] };
    expect(summary.file).toBe(out);
    expect(summary.machines.map((m) => m.label).sort()).toEqual(HOSTS);
    expect(summary.machines.every((m) => m.devices === 3)).toBe(true);
    const toStdout = await cli(['export', '--db', labDb, '--machine', 'node-a,node-b,node-c']);
    expect(toStdout.stdout).toBe(archiveText);
  });

  it('refuses an unknown machine, --all with --machine, and --all on an empty store, in one line', async () => {
    const out = path.join(dir, 'never.json');
    const unknown = await cli(['export', '--db', labDb, '--machine', 'node-a,no-such-node', '--out', out]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('pipedejavu: error: no machine "no-such-node" in the store; see pipedejavu machines\n');
    expect(existsSync(out)).toBe(false);
    const both = await cli(['export', '--db', labDb, '--all', '--machine', 'node-a']);
    expect(both.code).toBe(2);
    expect(both.stderr.trimEnd().split('\n')).toHaveLength(1);
    const empty = await cli(['export', '--db', path.join(dir, 'empty.db'), '--all']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/^pipedejavu: error: no machines in the store to export[^\n]*\n$/);
  });

  it('--help names --all and the archive', async () => {
    const r = await cli(['export', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--all');
    expect(r.stdout).toContain('pipedejavu-profile-archive');
    const imp = await cli(['import', '--help']);
    expect(imp.stdout).toContain('profile archive');
  });
});

describe('pipedejavu import of a profile archive', () => {
  it('round-trips three machines into a fresh store, one line each, byte for byte', async () => {
    const fresh = path.join(tempDir(), 'fresh.db');
    const r = await cli(['import', archive, '--db', fresh]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      `Imported node-a (node0000000000) from ${archive} profile 1`,
      `Imported node-b (node0000000001) from ${archive} profile 2`,
      `Imported node-c (node0000000002) from ${archive} profile 3`,
      `3 imported, 0 unchanged, 0 not imported, of 3 profiles in 1 file`,
    ]);
    expect(await machineLabels(fresh)).toEqual(HOSTS);
    const back = await cli(['export', '--db', fresh, '--machine', 'node-a,node-b,node-c']);
    expect(back.stdout).toBe(archiveText);

    // Each machine is stored as its own file would be: that file is already here.
    const single = await cli(['import', path.join(dir, 'node-b.json'), '--db', fresh]);
    expect(single.code).toBe(0);
    expect(single.stdout).toMatch(/^Unchanged: node-b .*already imported \(same content as machine "node-b"/);

    // The archive again: everything unchanged, nothing fails.
    const again = await cli(['import', archive, '--db', fresh, '--json']);
    expect(again.code).toBe(0);
    const j = JSON.parse(again.stdout) as BatchJson;
    expect(j.imported).toEqual([]);
    expect(j.unchanged.map((u) => u.profile)).toEqual([1, 2, 3]);
    expect(j.unchanged[0]?.reason).toBe(
      `${archive} profile 1 was already imported (same content as machine "node-a", id node0000000000); nothing to do`,
    );
  });

  it('imports the machines an archive adds to what is stored, counting the rest unchanged', async () => {
    const db = path.join(tempDir(), 'partial.db');
    expect((await cli(['import', path.join(dir, 'node-a.json'), '--db', db])).code).toBe(0);
    const r = await cli(['import', archive, '--db', db, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as BatchJson;
    expect(j.imported.map((i) => [i.label, i.profile, i.action])).toEqual([
      ['node-b', 2, 'imported'],
      ['node-c', 3, 'imported'],
    ]);
    expect(j.unchanged.map((u) => u.profile)).toEqual([1]);
    expect(j.archives).toBe(1);
  });

  it('refuses an archive with one bad profile in one line, and imports nothing of it', async () => {
    const db = path.join(tempDir(), 'bad.db');
    const broken = JSON.parse(archiveText) as { profiles: { devices: unknown[] }[] };
    (broken.profiles[1] as { devices: unknown[] }).devices = [];
    const file = path.join(dir, 'one-bad.json');
    writeFileSync(file, JSON.stringify(broken));
    const r = await cli(['import', file, '--db', db]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^pipedejavu: error: [^\n]*one-bad\.json profile 2: invalid hardware profile: devices: /);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(await machineLabels(db)).toEqual([]);
  });

  it('refuses a truncated archive, garbage, and a machine twice, in one line each, importing nothing', async () => {
    const db = path.join(tempDir(), 'truncated.db');
    const doubled = JSON.parse(archiveText) as { profiles: unknown[] };
    doubled.profiles.push(doubled.profiles[0]);
    const cases: [string, string, RegExp][] = [
      ['truncated.json', archiveText.slice(0, Math.floor(archiveText.length / 2)), /truncated\.json is not JSON/],
      ['zeros.json', '\0'.repeat(4096), /zeros\.json is not JSON/],
      ['doubled.json', JSON.stringify(doubled), /holds machine node0000000000 twice \(profiles 1 and 4\)/],
      [
        'newer.json',
        JSON.stringify({ ...JSON.parse(archiveText), formatVersion: 2 }),
        /profile-archive format version 2, newer than this pipeDejavu reads/,
      ],
      [
        'empty.json',
        JSON.stringify({ format: 'pipedejavu-profile-archive', formatVersion: 1, profiles: [] }),
        /invalid profile archive: profiles: an archive holds at least one profile/,
      ],
    ];
    for (const [name, content, pattern] of cases) {
      const file = path.join(dir, name);
      writeFileSync(file, content);
      const r = await cli(['import', file, '--db', db]);
      expect(r.code, name).toBe(1);
      expect(r.stderr, name).toMatch(pattern);
      expect(r.stderr.trimEnd().split('\n'), name).toHaveLength(1);
    }
    expect(await machineLabels(db)).toEqual([]);
  });

  it('a folder may hold archives beside profile files; a damaged archive costs only itself', async () => {
    const d = tempDir();
    const nodes = path.join(d, 'nodes');
    mkdirSync(nodes);
    writeFileSync(path.join(nodes, 'a-archive.json'), archiveText);
    writeFileSync(path.join(nodes, 'b-broken-archive.json'), archiveText.slice(0, 1000));
    const fourth = gpuServerProfile({ hostname: 'node-d' });
    fourth.machine.id = 'node0000000003';
    writeFileSync(path.join(nodes, 'c-node-d.json'), encodeProfile(fourth));
    const db = path.join(d, 'folder.db');
    const r = await cli(['import', nodes, '--db', db]);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[3]).toBe(`Imported node-d (node0000000003) from ${path.join(nodes, 'c-node-d.json')}`);
    expect(lines[4]).toMatch(/^Not imported: .*b-broken-archive\.json is not JSON/);
    expect(lines[5]).toBe('4 imported, 0 unchanged, 1 not imported, of 5 profiles in 3 files');
    expect(r.stderr).toBe(
      `pipedejavu: error: 1 of 5 profiles not imported: ${path.join(nodes, 'b-broken-archive.json')}\n`,
    );
    expect(await machineLabels(db)).toEqual([...HOSTS, 'node-d']);
  });

  it('refuses --label with an archive (it names one machine)', async () => {
    const db = path.join(tempDir(), 'label.db');
    const r = await cli(['import', archive, '--db', db, '--label', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `pipedejavu: error: import: --label names one machine; ${archive} is an archive of several\n`,
    );
    expect(await machineLabels(db)).toEqual([]);
  });
});
