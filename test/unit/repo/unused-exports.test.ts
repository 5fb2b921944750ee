/**
 * The unused-export check (scripts/check-unused-exports.mjs, run by `npm run lint`) on a small
 * project: what it refuses, what it lets through, and that its allowlist stays true.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = path.resolve(import.meta.dirname, '../../../scripts/check-unused-exports.mjs');
const ALLOWLIST = 'scripts/unused-exports-allowlist.txt';

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', strict: true, noEmit: true } }),
  'package.json': JSON.stringify({ type: 'module' }),
  'src-main/unit.ts': [
    'export interface Options { n: number }',
    'export type Orphan = string;',
    'export const used = (o: Options): number => o.n;',
    'export const internal = (): number => 1;',
    'export const deadAlone = (): number => 2;',
    'export const reachedByTest = (): number => internal() + 3;',
    'export const deadButTested = (): number => 4;',
    'export const total = (): number => reachedByTest();',
  ].join('\n'),
  'src-main/barrel.ts': "export { used, internal } from './unit.js';",
  'src-main/main.ts': "import { used } from './barrel.js';\nconsole.log(used({ n: 1 }));",
  'test/unit.test.ts':
    "import { reachedByTest, deadButTested } from '../src-main/unit.js';\nreachedByTest();\ndeadButTested();",
};

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function check(allowlist: string, ...args: string[]): { status: number | null; out: string; err: string } {
  dir = mkdtempSync(path.join(tmpdir(), 'unused-exports-'));
  for (const [file, text] of Object.entries({ ...FILES, [ALLOWLIST]: allowlist })) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const r = spawnSync(process.execPath, [SCRIPT, '--root', dir, ...args], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

describe('check-unused-exports', () => {
  it('refuses exports nobody imports, dead code only a test calls and a re-export nobody imports', () => {
    const { status, err } = check('');
    expect(status).toBe(1);
    const findings = err.split('\n').filter((l) => l.startsWith('src-main/'));
    expect(findings.map((l) => l.split('  ')[0]).sort()).toEqual([
      'src-main/barrel.ts:internal',
      'src-main/unit.ts:Orphan',
      'src-main/unit.ts:deadAlone',
      'src-main/unit.ts:deadButTested',
      'src-main/unit.ts:internal',
      'src-main/unit.ts:total',
    ]);
    expect(err).toContain('src-main/unit.ts:internal  not imported anywhere: un-export it');
    expect(err).toContain('src-main/unit.ts:deadButTested  only tests use it (test/unit.test.ts)');
    expect(err).toContain('src-main/unit.ts:total  not used anywhere: delete it');
    expect(err).toContain('src-main/barrel.ts:internal  not used anywhere: drop the re-export');
  });

  it('lets through a type its module names, and an internal a test reaches (listed with --test-only)', () => {
    const { err, out } = check('', '--test-only');
    expect(err).not.toContain('unit.ts:Options');
    expect(err).not.toContain('unit.ts:reachedByTest');
    expect(out).toContain('src-main/unit.ts:reachedByTest  used in its module; imported only by test/unit.test.ts');
  });

  it('passes with the rest allowlisted, and refuses an entry without a reason or matching nothing', () => {
    const rest = ['barrel.ts:internal', 'unit.ts:Orphan', 'unit.ts:deadAlone', 'unit.ts:internal', 'unit.ts:total'];
    const entries = rest.map((k) => `src-main/${k}  kept for the test`).join('\n');
    const ok = check(`# why each is kept\n${entries}\nsrc-main/unit.ts:deadButTested  a tested public helper`);
    expect(ok.status, ok.err).toBe(0);
    const bad = check(`${entries}\nsrc-main/unit.ts:deadButTested\nsrc-main/unit.ts:gone  was removed`);
    expect(bad.status).toBe(1);
    expect(bad.err).toContain(`${ALLOWLIST}: src-main/unit.ts:deadButTested needs a reason`);
    expect(bad.err).toContain(`${ALLOWLIST}: src-main/unit.ts:gone matches no finding any more: remove the entry`);
  });
});
