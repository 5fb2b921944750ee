/**
 * Rooms a reader can hold: no file in src-main/services over 400 lines, none in src-main/core over
 * 600 except the rule tables and data named below, each with its reason (issue 58's targets).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

/** Long on purpose: one table a reader scans, not logic to hold. */
const LONG_TABLES: Record<string, string> = {
  'src-main/core/workload/node-cost-ops.ts': 'the cost rule of every ONNX op, one row an op',
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

function longerThan(dir: string, limit: number): string[] {
  return tsFiles(join(ROOT, dir))
    .map((path) => ({ path: relative(ROOT, path), lines: readFileSync(path, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > limit && !(f.path in LONG_TABLES))
    .map((f) => `${f.path}: ${f.lines} lines`);
}

describe('file sizes', () => {
  it.each([
    { layer: 'src-main/services', limit: 400 },
    { layer: 'src-main/core', limit: 600 },
  ])('no file in $layer is over $limit lines', ({ layer, limit }) => {
    expect(longerThan(layer, limit)).toEqual([]);
  });

  it('names only long tables that exist and are long', () => {
    for (const path of Object.keys(LONG_TABLES)) {
      expect(readFileSync(join(ROOT, path), 'utf8').split('\n').length - 1, path).toBeGreaterThan(600);
    }
  });
});
