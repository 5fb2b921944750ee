/**
 * Profiles from others: an import never replaces newer data with older without --replace, an
 * archive is all-or-nothing, a folder says what it skipped, names with control characters are
 * refused, and structure sizes are checked before the profile is materialised.
 */
import path from 'node:path';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeArchive } from '../../../src-main/core/profile-file/archive.js';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import type { ProfileFile } from '../../../src-main/core/profile-file/schema.js';
import { cli, tempDir } from '../../helpers/cli.js';
import { bigProfileFile } from '../../helpers/big-profile.js';
import { sampleProfileFile } from '../../helpers/sample-profile.js';
import { SEEDED_MACHINE, seededDb } from '../../helpers/seeded-store.js';

const ID = 'c0ffee00c0ffee00';

function exported(n: number, at: string): ProfileFile {
  const f = bigProfileFile(n, ID);
  return { ...f, provenance: { ...f.provenance, exportedAt: at } };
}

async function measurementsOf(db: string, id: string): Promise<number | undefined> {
  const r = await cli(['machines', '--db', db, '--json']);
  const ms = (JSON.parse(r.stdout) as { machines: { id: string; measurementCount: number }[] }).machines;
  return ms.find((m) => m.id === id)?.measurementCount;
}

function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0] as string;
}

describe('import never replaces newer data with older without --replace', () => {
  it('refuses an older export of a stored machine in one line with both dates and counts; --replace replaces', async () => {
    const d = tempDir();
    const db = path.join(d, 'x.db');
    const newer = path.join(d, 'newer.json');
    const older = path.join(d, 'older.json');
    writeFileSync(newer, encodeProfile(exported(868, '2026-11-21T12:00:00.000Z')));
    writeFileSync(older, encodeProfile(exported(10, '2026-11-01T12:00:00.000Z')));
    expect((await cli(['import', newer, '--db', db])).code).toBe(0);

    const r = await cli(['import', older, '--db', db]);
    expect(r.code).toBe(1);
    const line = oneLine(r.stderr);
    expect(line).toContain(`"big-868" (id ${ID})`);
    expect(line).toContain('2026-11-21T12:00:00.000Z');
    expect(line).toContain('2026-11-01T12:00:00.000Z');
    expect(line).toContain('868 measurements');
    expect(line).toContain('10 measurements');
    expect(line).toContain('--replace');
    expect(await measurementsOf(db, ID)).toBe(868);

    const replaced = await cli(['import', older, '--replace', '--db', db]);
    expect(replaced.code).toBe(0);
    expect(await measurementsOf(db, ID)).toBe(10);
  });

  it('a newer export updates without --replace; different content of the same date is refused', async () => {
    const d = tempDir();
    const db = path.join(d, 'x.db');
    const a = path.join(d, 'a.json');
    const b = path.join(d, 'b.json');
    const c = path.join(d, 'c.json');
    writeFileSync(a, encodeProfile(exported(10, '2026-11-01T12:00:00.000Z')));
    writeFileSync(b, encodeProfile(exported(20, '2026-11-21T12:00:00.000Z')));
    writeFileSync(c, encodeProfile(exported(30, '2026-11-21T12:00:00.000Z')));
    expect((await cli(['import', a, '--db', db])).code).toBe(0);
    const up = await cli(['import', b, '--db', db]);
    expect(up.code).toBe(0);
    expect(up.stdout).toMatch(/^Updated /);
    expect(await measurementsOf(db, ID)).toBe(20);
    const same = await cli(['import', c, '--db', db]);
    expect(same.code).toBe(1);
    expect(oneLine(same.stderr)).toContain('--replace');
    expect(await measurementsOf(db, ID)).toBe(20);
  });
});

describe('archive imports are all-or-nothing', () => {
  it('one refused profile refuses the archive in one line naming it; nothing of it is written', async () => {
    const d = tempDir();
    const db = path.join(d, 'x.db');
    const stored = path.join(d, 'stored.json');
    writeFileSync(stored, encodeProfile(exported(868, '2026-11-21T12:00:00.000Z')));
    expect((await cli(['import', stored, '--db', db])).code).toBe(0);
    const fresh = sampleProfileFile();
    fresh.machine.id = 'f00df00df00df00d';
    const archive = path.join(d, 'lab.json');
    writeFileSync(archive, encodeArchive([fresh, exported(10, '2026-11-01T12:00:00.000Z')]));
    const r = await cli(['import', archive, '--db', db]);
    expect(r.code).toBe(1);
    const line = oneLine(r.stderr);
    expect(line).toContain(`${archive} profile 2`);
    expect(line).toContain('nothing of the archive was imported');
    expect(await measurementsOf(db, 'f00df00df00df00d')).toBeUndefined();
    expect(await measurementsOf(db, ID)).toBe(868);
  });

  it('a store conflict in the second profile leaves the first unimported too', async () => {
    const d = tempDir();
    const db = path.join(d, 'x.db');
    const first = sampleProfileFile();
    first.machine.id = 'aaaaaaaaaaaaaaaa';
    const clash = sampleProfileFile();
    clash.machine.id = 'bbbbbbbbbbbbbbbb';
    clash.machine.label = 'clash';
    const storedFile = path.join(d, 'stored.json');
    writeFileSync(storedFile, encodeProfile(sampleProfileFile())); // holds run-0001 already
    expect((await cli(['import', storedFile, '--db', db])).code).toBe(0);
    const other = sampleProfileFile();
    other.machine.id = 'cccccccccccccccc';
    other.profileRuns = other.profileRuns.map((r) => ({ ...r, id: 'run-cccc' }));
    other.measurements = other.measurements.map((m) => ({ ...m, runId: 'run-cccc' }));
    const archive = path.join(d, 'lab.json');
    writeFileSync(archive, encodeArchive([other, clash]));
    const r = await cli(['import', archive, '--db', db]);
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toContain(`${archive} profile 2`);
    expect(await measurementsOf(db, 'cccccccccccccccc')).toBeUndefined();
  });
});

/** A seeded store, this machine's own profile (the seeded machine's) and another machine's. */
function ownAndOther(): { d: string; db: string; own: ProfileFile; other: ProfileFile } {
  const d = tempDir();
  const db = path.join(d, 'x.db');
  seededDb(db).close();
  const own = sampleProfileFile();
  own.machine = { ...own.machine, id: SEEDED_MACHINE };
  const other = sampleProfileFile();
  other.machine = { ...other.machine, id: 'other0000000node', label: 'other-node' };
  return { d, db, own, other };
}

describe("an archive holding this machine's own profile", () => {
  it('is refused whole when a run of it belongs to another machine; nothing of it is written', async () => {
    const { d, db, own, other } = ownAndOther();
    for (const order of [
      [other, own],
      [own, other],
    ]) {
      const archive = path.join(d, 'archive.json');
      writeFileSync(archive, encodeArchive(order));
      const r = await cli(['import', archive, '--db', db]);
      expect(r.code).toBe(1);
      expect(oneLine(r.stderr)).toMatch(/archive\.json profile \d: .*run-0001.*; nothing of the archive was imported$/);
      expect(await measurementsOf(db, 'other0000000node')).toBeUndefined();
      expect(await measurementsOf(db, SEEDED_MACHINE)).toBe(54);
    }
  });

  it('adds the runs this machine lacks, all-or-nothing with the rest', async () => {
    const { d, db, own, other } = ownAndOther();
    other.profileRuns = other.profileRuns.map((r) => ({ ...r, id: 'run-other' }));
    other.measurements = other.measurements.map((m) => ({ ...m, runId: 'run-other' }));
    const archive = path.join(d, 'archive.json');
    writeFileSync(archive, encodeArchive([other, own]));
    const r = await cli(['import', archive, '--db', db]);
    expect(r.code).toBe(0);
    expect(await measurementsOf(db, 'other0000000node')).toBe(2);
    // One of the two is stored here already (same identity): the stored one is kept.
    expect(await measurementsOf(db, SEEDED_MACHINE)).toBe(55);
  });
});

describe('a folder import says what it skipped and why', () => {
  it('names a symbolic link and a folder ending in .json', async () => {
    const d = tempDir();
    const nodes = path.join(d, 'nodes');
    mkdirSync(nodes);
    const real = path.join(d, 'real.json');
    writeFileSync(real, encodeProfile(sampleProfileFile()));
    symlinkSync(real, path.join(nodes, 'link.json'));
    mkdirSync(path.join(nodes, 'sub.json'));
    const other = sampleProfileFile();
    other.machine.id = 'dddddddddddddddd';
    writeFileSync(path.join(nodes, 'node.json'), encodeProfile(other));
    const r = await cli(['import', nodes, '--db', path.join(d, 'x.db')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Skipped ${path.join(nodes, 'link.json')}: a symbolic link`);
    expect(r.stdout).toContain(`Skipped ${path.join(nodes, 'sub.json')}: a folder`);
    const json = await cli(['import', nodes, '--db', path.join(d, 'y.db'), '--json']);
    const parsed = JSON.parse(json.stdout) as { skipped: { file: string; reason: string }[] };
    expect(parsed.skipped.map((s) => path.basename(s.file)).sort()).toEqual(['link.json', 'sub.json']);
  });

  it('--help says so', async () => {
    const r = await cli(['import', '--help']);
    expect(r.stdout).toMatch(/symbolic link/);
  });
});

describe('names with control characters are refused at import, in one line', () => {
  const cases: [string, (f: ProfileFile) => void, string][] = [
    [
      'label LF',
      (f) => void (f.machine.label = 'lab\nsrun evil'),
      'machine label "lab\\nsrun evil" has a control character (U+000A)',
    ],
    ['label ESC', (f) => void (f.machine.label = 'lab\x1b]0;x\x07'), 'U+001B'],
    [
      'hostname CR',
      (f) => void (f.machine.probe.hostname = 'node\r1'),
      'hostname "node\\r1" has a control character (U+000D)',
    ],
    ['device NUL', (f) => void (f.devices[1]!.name = 'RTX\u0000'), 'device name'],
    ['GPU name LS', (f) => void (f.machine.probe.nvidia.gpus[0]!.name = 'RTX\u2028x'), 'U+2028'],
    ['CPU brand PS', (f) => void (f.machine.probe.cpu.brand = 'EPYC\u2029x'), 'U+2029'],
    ['label bidi', (f) => void (f.machine.label = 'lab\u202eevil'), 'U+202E'],
  ];
  for (const [name, edit, expected] of cases) {
    it(name, async () => {
      const d = tempDir();
      const f = sampleProfileFile();
      edit(f);
      const file = path.join(d, 'evil.json');
      writeFileSync(file, encodeProfile(f));
      const r = await cli(['import', file, '--db', path.join(d, 'x.db')]);
      expect(r.code).toBe(1);
      const line = oneLine(r.stderr);
      expect(line).toContain(expected);
      expect(line).not.toMatch(/[\x00-\x1f\u2028\u2029\u202e]/);
      expect(await measurementsOf(path.join(d, 'x.db'), f.machine.id)).toBeUndefined();
    });
  }

  it('--label with a newline is refused', async () => {
    const d = tempDir();
    const file = path.join(d, 'ok.json');
    writeFileSync(file, encodeProfile(sampleProfileFile()));
    const r = await cli(['import', file, '--label', 'a\nb', '--db', path.join(d, 'x.db')]);
    expect(r.code).not.toBe(0);
    expect(oneLine(r.stderr)).toContain('--label "a\\nb" has a control character (U+000A)');
  });
});

describe('structure sizes are checked before the profile is materialised', () => {
  it('refuses a topology with more labels than the limit, in one line naming it', async () => {
    const d = tempDir();
    const f = sampleProfileFile();
    const topo = f.machine.probe.nvidia.topology!;
    topo.labels = Array.from({ length: 3000 }, (_, i) => `GPU${i}`);
    const file = path.join(d, 'topo.json');
    writeFileSync(file, encodeProfile(f));
    const r = await cli(['import', file, '--db', path.join(d, 'x.db')]);
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toMatch(/machine\.probe\.nvidia\.topology\.labels has 3000 entries, more than \d+/);
  });

  it('refuses a topology row longer than the limit', async () => {
    const d = tempDir();
    const f = sampleProfileFile();
    const topo = f.machine.probe.nvidia.topology!;
    topo.matrix = [Array.from({ length: 3000 }, () => ({ kind: 'SYS' as const, nvlinks: null, raw: 'SYS' }))];
    const file = path.join(d, 'row.json');
    writeFileSync(file, encodeProfile(f));
    const r = await cli(['import', file, '--db', path.join(d, 'x.db')]);
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toMatch(/topology\.matrix\[0\] has 3000 entries, more than \d+/);
  });

  it('refuses more links between one pair of devices than a machine has', async () => {
    const d = tempDir();
    const f = sampleProfileFile();
    const l = f.links[0]!;
    f.links = Array.from({ length: 100 }, () => ({ ...l }));
    const file = path.join(d, 'links.json');
    writeFileSync(file, JSON.stringify(f));
    const r = await cli(['import', file, '--db', path.join(d, 'x.db')]);
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toMatch(/links between .* more than \d+/);
  });
});
