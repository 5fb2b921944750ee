import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src-main/cli/commands/index.js';
import { TOOL_VERSION } from '../../../src-main/core/version.js';
import { cli, tempDir } from '../../helpers/cli.js';

describe('CLI basics', () => {
  it('stops quietly with status 141 when its reader goes away (pipedejavu ... | head)', async () => {
    const db = path.join(tempDir(), 'p.db');
    const child = spawn(
      process.execPath,
      ['bin/pipedejavu.js', 'probe', '--json', '--db', db, '--nvidia-smi', '/nonexistent'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(141);
  });

  it('prints an overview listing every command', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const c of COMMANDS) expect(r.stdout).toContain(c.name);
  });

  it.each(COMMANDS.map((c) => c.name))('has --help for %s', async (name) => {
    const r = await cli([name, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Usage: pipedejavu ${name}`));
    expect(r.stdout).toContain('--json');
  });

  it('prints the version of package.json', async () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(TOOL_VERSION).toBe(pkg.version);
    expect((await cli(['--version'])).stdout).toBe(`${pkg.version}\n`);
  });

  it('fails with exit 2 and one line for an unknown command or option', async () => {
    const a = await cli(['porbe']);
    expect(a.code).toBe(2);
    expect(a.stderr).toBe(
      'pipedejavu: error: unknown command "porbe" (did you mean "probe"?); see pipedejavu --help\n',
    );
    const b = await cli(['machines', '--frobnicate']);
    expect(b.code).toBe(2);
    expect(b.stderr.trimEnd().split('\n')).toHaveLength(1);
    const c = await cli(['import']);
    expect(c.stderr).toBe('pipedejavu: error: import: missing FILE\n');
  });

  it('refuses a database file that is not a database, without touching it', async () => {
    const dir = tempDir();
    const notDb = path.join(dir, 'notes.txt');
    const content = 'my precious notes\n'.repeat(200);
    (await import('node:fs')).writeFileSync(notDb, content);
    const r = await cli(['machines', '--db', notDb]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^pipedejavu: error: .*not a pipeDejavu database/);
    expect(readFileSync(notDb, 'utf8')).toBe(content);
  });

  it('takes the database from PIPEDEJAVU_DB', async () => {
    const db = path.join(tempDir(), 'env.db');
    const r = await cli(['machines', '--json'], { PIPEDEJAVU_DB: db });
    expect(r.code).toBe(0);
    expect((await import('node:fs')).existsSync(db)).toBe(true);
  });
});
