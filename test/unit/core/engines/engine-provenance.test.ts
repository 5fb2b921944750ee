/**
 * The calibration rule, checked: every source an engine's rules were fitted on is a calibration
 * source of bench/engines first-party to that engine (its own publication) — never a held-out
 * (third-party) one, never another engine's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allEngineRules } from '../../../../src-main/core/engines/engines.js';

interface Source {
  id: string;
  set: 'calibration' | 'held-out';
  engine?: string;
  kernel?: string;
}

const dir = path.join('bench', 'engines');
const sources = new Map<string, Source>(
  readdirSync(dir)
    .filter((f) => /^cells-.*\.json$/.test(f))
    .flatMap((f) => (JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { sources: Source[] }).sources)
    .map((s) => [s.id, s]),
);

describe('engine calibration provenance', () => {
  const cases = allEngineRules().flatMap((r) => r.from.map((id) => [r.name, r.since, id] as const));

  it('has fitted sources to check', () => {
    expect(cases.length).toBeGreaterThan(10);
  });

  it.each(cases)('%s %s was fitted on %s: a first-party calibration source of that engine', (engine, _since, id) => {
    const s = sources.get(id);
    expect(s, `${id} is not a source of bench/engines`).toBeDefined();
    expect(s?.set).toBe('calibration');
    expect(s?.engine).toBe(engine);
  });
});
