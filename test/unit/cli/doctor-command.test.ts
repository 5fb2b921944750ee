/** `pipedejavu doctor`: one line per check, for people and as JSON, against recorded nvidia-smi output. */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTURES, makeFakeSmi, type FakeSmi } from '../../helpers/fake-nvidia-smi.js';
import { cli, tempDir } from '../../helpers/cli.js';
import { makeReadOnly } from '../../helpers/read-only.js';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';

interface DoctorJson {
  checks: { name: string; status: 'ok' | 'warn' | 'fail'; detail: string }[];
}

const NAMES = ['node', 'onnxruntime', 'ep cpu', 'ep cuda', 'ep webgpu', 'pytorch', 'nvidia', 'database', 'disk'];

describe.skipIf(process.platform === 'win32')('pipedejavu doctor', () => {
  let smi: FakeSmi;
  const dir = tempDir();
  beforeAll(async () => {
    smi = await makeFakeSmi();
  });
  afterAll(async () => smi.cleanup());

  it('checks runtimes, providers, PyTorch, the GPUs and the database, one line each', async () => {
    const db = path.join(dir, 'doctor.db');
    const env = { ...smi.env(CAPTURES.h100), PATH: process.env.PATH };
    const r = await cli(['doctor', '--db', db, '--nvidia-smi', smi.smiPath, '--json'], env);
    expect(r.code).toBe(0);
    const { checks } = JSON.parse(r.stdout) as DoctorJson;
    expect(checks.map((c) => c.name)).toEqual(NAMES);
    const byName = Object.fromEntries(checks.map((c) => [c.name, c]));
    expect(byName.nvidia?.detail).toMatch(/driver 590\.48\.01, CUDA 13\.\d, 1 GPU: NVIDIA H100 80GB HBM3/);
    expect(byName['ep cpu']?.status).toBe('ok');
    // This workplace has no CUDA provider (the NuGet download is skipped): a warning naming the fix.
    expect(byName['ep cuda']?.detail).toMatch(/install-cuda|cannot load|installed/);
    expect(byName.database?.detail).toContain(db);
    expect(byName.database?.status).toBe('ok');
    expect(byName.disk?.detail).toMatch(/free beside the database/);
    for (const c of checks) expect(c.detail).not.toContain('\n');

    const table = await cli(['doctor', '--db', db, '--nvidia-smi', smi.smiPath], env);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^CHECK\s+STATUS\s+DETAIL/);
    expect(table.stdout).toMatch(/\nnvidia\s+ok\s+/);
  });

  it('fails, after printing every line, when nvidia-smi hangs', async () => {
    const env = { ...smi.env(CAPTURES.h100, 'hang'), PATH: process.env.PATH };
    const r = await cli(
      ['doctor', '--db', path.join(dir, 'hang.db'), '--nvidia-smi', smi.smiPath, '--timeout', '1', '--json'],
      env,
    );
    expect(r.code).toBe(1);
    const { checks } = JSON.parse(r.stdout) as DoctorJson;
    expect(checks.find((c) => c.name === 'nvidia')?.status).toBe('fail');
    expect(r.stderr).toMatch(
      /^\{"error":\{"code":"user","message":"1 check failed: nvidia: nvidia-smi at .* failed; .*"\}\}\n$/,
    );
  });

  it('refuses a bad --timeout in one line', async () => {
    const r = await cli(['doctor', '--timeout', 'soon']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

/** The files of a folder with their sha256: what doctor must leave exactly as it found them. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { withFileTypes: true }).map((e) => [
      e.name,
      e.isFile()
        ? createHash('sha256')
            .update(readFileSync(path.join(dir, e.name)))
            .digest('hex')
        : 'folder',
    ]),
  );
}

describe.skipIf(process.platform === 'win32')('pipedejavu doctor on a database it cannot use', () => {
  // No PyTorch and no nvidia-smi: the database lines are what these tests look at.
  const env = { PIPEDEJAVU_PYTHON: '/bin/false', PATH: '/nonexistent' };
  const dir = tempDir();

  async function doctor(db: string) {
    const r = await cli(['doctor', '--db', db, '--json'], env);
    const { checks } = JSON.parse(r.stdout) as DoctorJson;
    return { ...r, database: checks.find((c) => c.name === 'database') };
  }

  it('says a text file is not a database, fails, and leaves the file alone', async () => {
    const db = path.join(dir, 'text.db');
    writeFileSync(db, 'hello, this is a text file\n');
    const before = snapshot(dir);
    const r = await doctor(db);
    expect(r.database).toEqual({
      name: 'database',
      status: 'fail',
      detail: `"${db}" is not a pipeDejavu database (file is not a database)`,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `{"error":{"code":"user","message":"1 check failed: database: \\"${db}\\" is not a pipeDejavu database (file is not a database)"}}\n`,
    );
    expect(snapshot(dir)).toEqual(before);
  });

  it('says a folder and a device are not database files', async () => {
    const folder = path.join(dir, 'folder.db');
    mkdirSync(folder);
    const f = await doctor(folder);
    expect(f.database?.status).toBe('fail');
    expect(f.database?.detail).toBe(`"${folder}" is a folder, not a database file`);
    expect(f.code).toBe(1);
    const z = await doctor('/dev/zero');
    expect(z.database?.status).toBe('fail');
    expect(z.database?.detail).toBe('"/dev/zero" is a character device, not a database file');
    expect(z.code).toBe(1);
  });

  it('says a read-only database cannot be written, without writing it', async (ctx) => {
    const sub = path.join(dir, 'ro');
    mkdirSync(sub);
    const db = path.join(sub, 'store.db');
    openDatabase(db).close();
    const ro = makeReadOnly(db);
    if ('unavailable' in ro) {
      ctx.skip(ro.unavailable);
      return;
    }
    try {
      const before = snapshot(sub);
      const r = await doctor(db);
      expect(r.database?.status).toBe('fail');
      expect(r.database?.detail).toMatch(
        new RegExp(
          `^cannot write the database "${db}": (it is read-only .*|permission denied|the file system is read-only) \\(E[A-Z]+\\)$`,
        ),
      );
      expect(r.code).toBe(1);
      expect(snapshot(sub)).toEqual(before);
    } finally {
      ro.undo();
    }
  });

  it('is ok for a database not created yet, and does not create it; ok for a good one', async () => {
    const db = path.join(dir, 'later', 'new.db');
    const r = await doctor(db);
    expect(r.database?.status).toBe('ok');
    expect(r.database?.detail).toMatch(/\(not created yet\)/);
    expect(existsSync(path.dirname(db))).toBe(false);

    const good = path.join(dir, 'good');
    mkdirSync(good);
    openDatabase(path.join(good, 'store.db')).close();
    const before = snapshot(good);
    const g = await doctor(path.join(good, 'store.db'));
    expect(g.database?.status).toBe('ok');
    expect(g.database?.detail).toMatch(/\(exists, schema version \d+\)/);
    expect(snapshot(good)).toEqual(before);
  });
});
