import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import { sampleProfileFile } from '../../helpers/sample-profile.js';
import { cli, tempDir } from '../../helpers/cli.js';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';
import { MachineRepo } from '../../../src-main/adapters/store/machine-repo.js';
import type { ProfileFile } from '../../../src-main/core/profile-file/schema.js';

/** A machine stored with the file's label as it is (as an import before labels were checked did). */
function storeLabelled(dbPath: string, f: ProfileFile): void {
  const db = openDatabase(dbPath);
  try {
    new MachineRepo(db).insertImportedMachine({
      id: f.machine.id,
      label: f.machine.label,
      probe: f.machine.probe,
      devices: f.devices,
      links: f.links,
      contentHash: 'stored-before-labels-were-checked',
      provenance: f.provenance,
    });
  } finally {
    db.close();
  }
}

// Two stores stand for two machines: the lab server that exports, the desktop that imports.
const dir = tempDir();
const serverDb = path.join(dir, 'server.db');
const desktopDb = path.join(dir, 'desktop.db');
const noSmi = path.join(dir, 'no-such-nvidia-smi');

describe('export and import of hardware profiles (CLI)', () => {
  let exported = '';

  beforeAll(async () => {
    const probe = await cli(['probe', '--db', serverDb, '--nvidia-smi', noSmi]);
    expect(probe.code).toBe(0);
    const file = path.join(dir, 'server.json');
    const ex = await cli(['export', '--db', serverDb, '--out', file]);
    expect(ex.code).toBe(0);
    exported = readFileSync(file, 'utf8');
  });

  it('export refuses to run before any probe, with one line saying what to do', async () => {
    const r = await cli(['export', '--db', path.join(dir, 'empty.db')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'pipedejavu: error: no machine recorded yet: run `pipedejavu probe` first (or name one with --machine)\n',
    );
  });

  it('round-trips export -> import -> export byte for byte', async () => {
    const file = path.join(dir, 'server.json');
    const imp = await cli(['import', file, '--db', desktopDb, '--json']);
    expect(imp.code).toBe(0);
    const result = JSON.parse(imp.stdout) as { machineId: string; action: string };
    expect(result.action).toBe('imported');
    const again = await cli(['export', '--db', desktopDb, '--machine', result.machineId]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(exported);
  });

  it('lists an imported machine beside the local one', async () => {
    const db = path.join(dir, 'workstation.db');
    const file = path.join(dir, 'lab-for-list.json');
    writeFileSync(file, encodeProfile(sampleProfileFile()));
    expect((await cli(['probe', '--db', db, '--nvidia-smi', noSmi])).code).toBe(0);
    expect((await cli(['import', file, '--db', db, '--label', 'lab server'])).code).toBe(0);
    const r = await cli(['machines', '--db', db, '--json']);
    const { machines } = JSON.parse(r.stdout) as {
      machines: { source: string; label: string; measurementCount: number }[];
    };
    expect(machines.map((m) => [m.source, m.label]).sort()).toEqual([
      ['imported', 'lab server'],
      ['local', expect.any(String)],
    ]);
    expect(machines.find((m) => m.source === 'imported')?.measurementCount).toBe(2);
    const table = await cli(['machines', '--db', db]);
    expect(table.stdout).toMatch(/lab server \(id a1b2c3d4e5f60718\)\s+imported\s+3\s+1\s+2/);
  });

  it("counts a duplicate import and the machine's own profile as unchanged (exit 0)", async () => {
    const file = path.join(dir, 'server.json');
    const dup = await cli(['import', file, '--db', desktopDb]);
    expect(dup.code).toBe(0);
    expect(dup.stdout).toMatch(/^Unchanged: .*already imported/);
    const own = await cli(['import', file, '--db', serverDb]);
    expect(own.code).toBe(0);
    expect(own.stdout).toMatch(/^Unchanged: .*profile of this machine itself .* every run of it is here already/);
  });

  it('imports a file with runs and measurements, and keeps every value', async () => {
    const file = path.join(dir, 'lab.json');
    const text = encodeProfile(sampleProfileFile());
    writeFileSync(file, text);
    const db = path.join(dir, 'third.db');
    expect((await cli(['import', file, '--db', db])).code).toBe(0);
    const out = await cli(['export', '--db', db, '--machine', 'lab-ws-01']);
    expect(out.stdout).toBe(text);
  });

  it('gives one line and writes nothing for each bad file', async () => {
    const db = path.join(dir, 'bad.db');
    const good = JSON.parse(encodeProfile(sampleProfileFile())) as Record<string, unknown>;
    const cases: [string, string, RegExp][] = [
      ['garbage.json', 'this is not json\n{{{', /is not JSON/],
      ['truncated.json', encodeProfile(sampleProfileFile()).slice(0, 500), /is not JSON/],
      ['foreign.json', '{"name": "left-pad"}', /not a pipeDejavu hardware profile/],
      ['newer.json', JSON.stringify({ ...good, formatVersion: 9 }), /newer than this pipeDejavu reads/],
      ['missing.json', JSON.stringify({ ...good, devices: undefined }), /devices/],
      [
        'negative.json',
        encodeProfile(sampleProfileFile()).replace('"medianUs": 812.5', '"medianUs": -812.5'),
        /medianUs/,
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
    const missing = await cli(['import', path.join(dir, 'nope.json'), '--db', db]);
    expect(missing.stderr).toBe(`pipedejavu: error: no such file: ${path.join(dir, 'nope.json')}\n`);
    const list = await cli(['machines', '--db', db, '--json']);
    expect(JSON.parse(list.stdout)).toEqual({ machines: [] });
  });
});

describe('untrusted text reaches the terminal escaped', () => {
  it('a label with an OSC title sequence and a bidi override is refused at import, and shown escaped when stored', async () => {
    const d = tempDir();
    const db = path.join(d, 'x.db');
    const f = sampleProfileFile();
    f.machine.label = 'lab\x1b]0;pwned\x07\u202eevil\x1b[31m';
    const file = path.join(d, 'evil.json');
    writeFileSync(file, encodeProfile(f));
    const imported = await cli(['import', file, '--db', db]);
    expect(imported.code).toBe(1);
    expect(imported.stderr).toContain(
      'machine label "lab\\u001b]0;pwned\\u0007\\u202eevil\\u001b[31m" has a control character (U+001B)',
    );
    // A label stored before imports refused them is still printed as visible escapes.
    storeLabelled(db, f);
    for (const args of [['machines'], ['machines', '--json'], ['export', '--machine', f.machine.id]]) {
      const r = await cli([...args, '--db', db]);
      expect(r.stdout + r.stderr).not.toMatch(/[\x1b\x07\u202e]/);
    }
    const shown = await cli(['machines', '--db', db]);
    expect(shown.stdout).toContain('lab\\u001b]0;pwned\\u0007\\u202eevil\\u001b[31m');
    const json = await cli(['machines', '--json', '--db', db]);
    const parsed = JSON.parse(json.stdout) as { machines: { label: string }[] };
    expect(parsed.machines.map((m) => m.label)).toContain(f.machine.label);
  });

  it('a newline in a label or a file name cannot add a table row or a line to an error', async () => {
    const d = tempDir();
    const db = path.join(d, 'x.db');
    const f = sampleProfileFile();
    f.machine.label = 'lab\nfake-id  fake-label';
    const file = path.join(d, 'nl.json');
    writeFileSync(file, encodeProfile(f));
    const refused = await cli(['import', file, '--db', db]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    storeLabelled(db, f);
    const shown = await cli(['machines', '--db', db]);
    expect(shown.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(shown.stdout).toContain('lab\\nfake-id  fake-label');
    const missing = await cli(['import', path.join(d, 'no\nsuch.json'), '--db', db]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('no\\nsuch.json');
  });
});

describe('import refuses what is not a regular file', () => {
  it('/dev/zero and a FIFO get one line at once, without reading or blocking', async () => {
    const d = tempDir();
    const db = path.join(d, 'x.db');
    const zero = await cli(['import', '/dev/zero', '--db', db]);
    expect(zero.code).not.toBe(0);
    expect(zero.stderr).toBe(
      'pipedejavu: error: /dev/zero is not a regular file (a device, pipe or socket); save the hardware-profile to a file first\n',
    );
    const fifo = path.join(d, 'profile.fifo');
    spawnSync('mkfifo', [fifo]);
    const r = await cli(['import', fifo, '--db', db]);
    expect(r.stderr).toMatch(/profile\.fifo is not a regular file/);
  });
});

describe('trained predictors travel with the hardware profile when asked', () => {
  it('exports the newest predictor of each name and imports it for the other machine', async () => {
    const { seededDb } = await import('../../helpers/seeded-store.js');
    const dir2 = tempDir();
    const db = path.join(dir2, 'trained.db');
    seededDb(db).close();
    expect((await cli(['train', '--db', db, '--predictor', 'analytical'])).code).toBe(0);
    expect((await cli(['train', '--db', db, '--predictor', 'linear'])).code).toBe(0);
    expect((await cli(['train', '--db', db, '--predictor', 'linear'])).code).toBe(0);
    const plain = await cli(['export', '--db', db]);
    expect((JSON.parse(plain.stdout) as { predictors: unknown[] }).predictors).toEqual([]);
    const out = path.join(dir2, 'trained.json');
    expect((await cli(['export', '--db', db, '--out', out, '--with-predictors'])).code).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8')) as { predictors: { name: string }[] };
    expect(file.predictors.map((p) => p.name)).toEqual(['analytical', 'linear']);
    const other = path.join(dir2, 'other.db');
    expect((await cli(['import', out, '--db', other])).code).toBe(0);
    const again = await cli(['export', '--db', other, '--machine', 'seeded0000000001', '--with-predictors']);
    expect(again.stdout).toBe(readFileSync(out, 'utf8'));
  });
});
