/** The writer behind `export --out`, `predictor export --out` and the app's save dialog. */
import { spawn, spawnSync } from 'node:child_process';
import { linkSync, lstatSync, readFileSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../../src-main/adapters/files/write-file-atomic.js';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { cli, tempDir } from '../../../helpers/cli.js';
import { seededDb } from '../../../helpers/seeded-store.js';

function store(): { dir: string; db: string } {
  const dir = tempDir();
  const db = path.join(dir, 'store.db');
  seededDb(db).close();
  return { dir, db };
}

describe('export --out', () => {
  it('refuses the database itself, its -wal and -shm, and links to them; the store stays whole', async () => {
    const { dir, db } = store();
    const hard = path.join(dir, 'hard.json');
    linkSync(db, hard);
    const soft = path.join(dir, 'soft.json');
    symlinkSync(db, soft);
    for (const out of [db, `${db}-wal`, `${db}-shm`, hard, soft, path.join(dir, '.', 'store.db')]) {
      const r = await cli(['export', '--db', db, '--out', out]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/refusing to write .*: it is the pipeDejavu database/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    const check = openDatabase(db);
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
    expect(lstatSync(soft).isSymbolicLink()).toBe(true);
  });

  it('writes through a symlink to its target and keeps the link; `-` is stdout', async () => {
    const { dir, db } = store();
    const real = path.join(dir, 'real.json');
    writeFileSync(real, 'old');
    const link = path.join(dir, 'link.json');
    symlinkSync(real, link);
    expect((await cli(['export', '--db', db, '--out', link])).code).toBe(0);
    expect(readlinkSync(link)).toBe(real);
    expect(readFileSync(real, 'utf8')).toMatch(/"format": "pipedejavu-hardware-profile"/);
    const dash = await cli(['export', '--db', db, '--out', '-']);
    expect(dash.stdout).toMatch(/^\{\n {2}"format"/);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')(
    'writes straight into a FIFO instead of replacing it with a file',
    async () => {
      const dir = tempDir();
      const fifo = path.join(dir, 'pipe');
      spawnSync('mkfifo', [fifo]);
      // The reader is another process: opening a FIFO for writing blocks until one opens it.
      const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'ignore'] });
      let got = '';
      reader.stdout.on('data', (c: Buffer) => (got += c.toString()));
      const reading = new Promise<void>((resolve) => reader.on('close', () => resolve()));
      writeFileAtomic(fifo, 'through the pipe\n');
      await reading;
      expect(got).toBe('through the pipe\n');
      expect(lstatSync(fifo).isFIFO()).toBe(true);
    },
  );

  it('a character device (/dev/full) is written to, not replaced, and its error is one line', () => {
    expect(() => writeFileAtomic('/dev/full', 'x'.repeat(10_000))).toThrow(/^cannot write \/dev\/full: .*ENOSPC/);
    expect(lstatSync('/dev/full').isCharacterDevice()).toBe(true);
  });
});
