/** Small ways a user's input went wrong before: each now gets one clear line. */
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { seededDb } from '../../helpers/seeded-store.js';
import { makeReadOnly } from '../../helpers/read-only.js';

const MODEL = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');

describe('CLI input hygiene', () => {
  it('an empty --db is refused instead of opening the default database', async () => {
    const r = await cli(['machines', '--db', ''], { PIPEDEJAVU_DB: path.join(tempDir(), 'never.db') });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'pipedejavu: error: --db is empty; give a database file (or leave --db out for the default one)\n',
    );
  });

  it('counts take decimal digits from 1 to a limit, the same in plan and predict-model', async () => {
    const db = path.join(tempDir(), 's.db');
    seededDb(db).close();
    for (const bad of ['1e12', '1e20', '0x10', '1.0', '0', '65537']) {
      for (const cmd of [
        ['plan', '--workload', 'gpt2-small', '--devices', 'cpu'],
        ['predict-model', 'gpt2-small', '--device', 'cpu'],
      ]) {
        const r = await cli([...cmd, '--batch', bad, '--db', db]);
        expect(r.code).toBe(2);
        expect(r.stderr).toBe(`pipedejavu: error: --batch takes a whole number from 1 to 65536, got "${bad}"\n`);
      }
    }
  });

  it('a value that starts with "-" is named with the option it was given to, not called ambiguous', async () => {
    const db = path.join(tempDir(), 's.db');
    seededDb(db).close();
    const r = await cli(['predict-model', 'gpt2-small', '--seq', '-1', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'pipedejavu: error: predict-model: --seq was given "-1", which reads as an option; write --seq=-1 to pass it as the value\n',
    );
    const asValue = await cli(['predict-model', 'gpt2-small', '--device', 'cpu', '--seq=-1', '--db', db]);
    expect(asValue.code).toBe(2);
    expect(asValue.stderr).toBe('pipedejavu: error: --seq takes a whole number from 1 to 1048576, got "-1"\n');
  });

  it('--top and --threads take the same decimal counts', async () => {
    const db = path.join(tempDir(), 's.db');
    seededDb(db).close();
    const cases: [string[], string][] = [
      [
        ['plan', '--workload', 'gpt2-small', '--devices', 'cpu', '--top', '1e2'],
        '--top takes a whole number from 1 to 50, got "1e2"',
      ],
      [
        ['predict-model', 'gpt2-small', '--device', 'cpu', '--threads', '0x4'],
        '--threads takes a whole number from 1 to 1024, got "0x4"',
      ],
      [
        ['predict', '--op', 'MatMul', '--shape', 'M=1,K=1,N=1', '--device', 'cpu', '--threads', '4.0'],
        '--threads takes a whole number from 1 to 1024, got "4.0"',
      ],
      [
        ['measure-model', 'gpt2-small', '--device', 'cpu', '--threads', '1e1'],
        '--threads takes a whole number from 1 to 1024, got "1e1"',
      ],
    ];
    for (const [args, message] of cases) {
      const r = await cli([...args, '--db', db]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`pipedejavu: error: ${message}\n`);
    }
  });

  it('probe --timeout says the range it accepts', async () => {
    const r = await cli(['probe', '--timeout', '0', '--db', path.join(tempDir(), 'p.db')]);
    expect(r.stderr).toBe('pipedejavu: error: probe: --timeout takes seconds, more than 0 and at most 600; got "0"\n');
  });

  it('a device name that is not one is not echoed back as a command to run', async () => {
    const db = path.join(tempDir(), 's.db');
    seededDb(db).close();
    const r = await cli(['plan', '--workload', 'gpt2-small', '--devices', 'cpu,$(rm -rf ~)', '--db', db]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).not.toMatch(/pipedejavu profile --device \$/);
    expect(r.stderr).toMatch(/name devices like cpu, cuda:0 or all/);
  });

  it('workload add refuses a stored name unless --replace, and catalog names always', async () => {
    const db = path.join(tempDir(), 'w.db');
    const args = ['workload', 'add', MODEL, '--input', 'x=1x3x48x192', '--db', db];
    expect((await cli(args)).code).toBe(0);
    const again = await cli(args);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^pipedejavu: error: a workload named "paddleocr-cls-mobile-v2" is stored already/);
    expect((await cli([...args, '--replace'])).code).toBe(0);
    const catalog = await cli([...args, '--name', 'gpt2-small']);
    expect(catalog.stderr).toBe(
      'pipedejavu: error: "gpt2-small" is the name of a catalog model, which would hide this workload; give another name\n',
    );
  });

  it('a read-only database file or -wal is one line naming the database, not an internal error', async (ctx) => {
    const dir = tempDir();
    const db = path.join(dir, 'ro.db');
    expect((await cli(['machines', '--db', db])).code).toBe(0);
    const add = ['workload', 'add', MODEL, '--input', 'x=1x3x48x192', '--db', db];
    const expected = `pipedejavu: error: cannot use the database "${db}": it is read-only (the file, its folder or the disk) (SQLITE_READONLY)\n`;

    const file = makeReadOnly(db);
    if ('unavailable' in file) ctx.skip(file.unavailable);
    else {
      try {
        const r = await cli(add);
        expect(r.code).toBe(1);
        expect(r.stderr).toBe(expected);
      } finally {
        file.undo();
      }
    }

    // A -wal left by another program that holds the database open.
    const holder = new BetterSqlite3(db);
    holder.pragma('wal_autocheckpoint = 0');
    holder.exec('CREATE TABLE scratch (x); DROP TABLE scratch');
    const wal = makeReadOnly(`${db}-wal`);
    if ('unavailable' in wal) {
      holder.close();
      ctx.skip(wal.unavailable);
      return;
    }
    try {
      const r = await cli(add);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(expected);
    } finally {
      wal.undo();
      holder.close();
    }
  });
});
