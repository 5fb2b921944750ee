/**
 * Names from outside (a model folder's name, a stored workload's name, a machine label) printed in
 * a command's text output stay on their line: a newline, a carriage return, U+2028, an ESC sequence
 * or a bidi override in them is shown as a visible escape (shown), so a folder name cannot fake lines
 * of terminal output. Each command prints as many lines for a hostile name as for a plain one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { seededDb } from '../../helpers/seeded-store.js';
import { LLAMA_31_8B } from '../../helpers/hf-configs.js';
import { sampleProfileFile } from '../../helpers/sample-profile.js';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';
import { MachineRepo } from '../../../src-main/adapters/store/machine-repo.js';
import { shown } from '../../../src-main/core/text/shown.js';

/** Named hostile names, each with a payload that would read as a line of its own. */
const NAMES: [string, string][] = [
  ['newline', 'llama\nBest plan: FAKE'],
  ['carriage return', 'llama\rFAKE'],
  ['CRLF', 'llama\r\nwarning: FAKE'],
  ['line separator U+2028', 'llama\u2028FAKE'],
  ['paragraph separator U+2029', 'llama\u2029FAKE'],
  ['ESC sequences', 'llama\x1b[2J\x1b[31mFAKE\x1b]0;title\x07'],
  ['bidi override', 'llama\u202eEKAF'],
  ['tab', 'llama\tFAKE'],
];

/** Every control character but the output's own newlines. */
const RAW_CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const rawControlExceptNewline = (text: string): boolean => RAW_CONTROL.test(text.replace(/\n/g, ''));
const lineCount = (text: string): number => text.trimEnd().split('\n').length;

function freshDb(): { dir: string; db: string } {
  const dir = tempDir();
  const db = path.join(dir, 's.db');
  seededDb(db).close();
  return { dir, db };
}

/** A Hugging Face model folder (config.json only) named `name`. */
function modelFolder(dir: string, name: string): string {
  const folder = path.join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'config.json'), JSON.stringify(LLAMA_31_8B));
  return folder;
}

/** The output of `args` for a plain folder name and for `name`, each on a fresh store. */
async function plainAndHostile(
  name: string,
  args: (folder: string, db: string) => string[][],
): Promise<{ plain: string; hostile: string }> {
  const run = async (folderName: string): Promise<string> => {
    const { dir, db } = freshDb();
    const folder = modelFolder(dir, folderName);
    let out = '';
    for (const a of args(folder, db)) {
      const r = await cli([...a, '--db', db]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      out += r.stdout;
    }
    return out;
  };
  return { plain: await run('llama'), hostile: await run(name) };
}

function expectOneLineName(plain: string, hostile: string, name: string): void {
  expect(rawControlExceptNewline(hostile)).toBe(false);
  expect(hostile).toContain(shown(name));
  expect(lineCount(hostile)).toBe(lineCount(plain));
}

describe('plan: a model folder name stays on the summary line', () => {
  it.each(NAMES)('%s', async (_what, name) => {
    const { plain, hostile } = await plainAndHostile(name, (folder) => [
      ['plan', '--workload', folder, '--devices', 'none', '--virtual', 'RTX 4090', '--mode', 'inference'],
    ]);
    expectOneLineName(plain, hostile, name);
    // The summary line names the folder, escaped, the next says what the plan assumes, then the blank one.
    const lines = hostile.split('\n');
    expect(lines[0]?.startsWith(`${shown(name)}: inference, batch 1,`)).toBe(true);
    expect(lines[1]).toMatch(/^Assumes: prompt /);
    expect(lines[2]).toBe('');
    // The warnings built from the name are one line each as well.
    expect(lines.filter((l) => l.startsWith(`warning: ${shown(name)}:`)).length).toBeGreaterThan(0);
  });
});

describe('fit: a model folder name stays on the first line', () => {
  it.each(NAMES)('%s', async (_what, name) => {
    const { plain, hostile } = await plainAndHostile(name, (folder) => [['fit', folder, '--gpus', 'RTX 4090']]);
    expectOneLineName(plain, hostile, name);
    expect(hostile.split('\n')[0]?.startsWith(`${shown(name)}: 8.03 B parameters`)).toBe(true);
  });
});

describe('workload add and list: a stored name stays in its line and its cell', () => {
  it.each(NAMES)('%s', async (_what, name) => {
    const { plain, hostile } = await plainAndHostile(name, (folder) => [
      ['workload', 'add', folder, '--seq', '128'],
      ['workload', 'list'],
      ['workload', 'remove', path.basename(folder)],
    ]);
    expectOneLineName(plain, hostile, name);
    expect(hostile).toContain(`Added ${shown(name)}: `);
    expect(hostile).toContain(`Removed workload ${shown(name)}\n`);
  });
});

describe('machines: a stored label stays in its cell and its line', () => {
  it.each(NAMES)('%s', async (_what, label) => {
    const run = async (l: string): Promise<string> => {
      const { db } = freshDb();
      const f = sampleProfileFile();
      // Stored as it is, as an import before labels were checked did.
      const store = openDatabase(db);
      try {
        new MachineRepo(store).insertImportedMachine({
          id: f.machine.id,
          label: l,
          probe: f.machine.probe,
          devices: f.devices,
          links: f.links,
          contentHash: 'stored-before-labels-were-checked',
          provenance: f.provenance,
        });
      } finally {
        store.close();
      }
      let out = '';
      for (const a of [['machines'], ['machines', 'remove', f.machine.id]]) {
        const r = await cli([...a, '--db', db]);
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        out += r.stdout;
      }
      return out;
    };
    const [plain, hostile] = [await run('lab'), await run(label)];
    expectOneLineName(plain, hostile, label);
    expect(hostile.split('\n').some((l) => l.startsWith(`Removed ${shown(label)} (`))).toBe(true);
  });
});
