/**
 * "1 devices", "1 threads": a number written straight before a plural noun in a template
 * (`${n} devices`) or a "device(s)" reads wrong for one of them. Printed counts go through
 * count() (src-main/core/text/plural.ts). This test reads the sources of what the CLI, the
 * services and the app print and lists every such template.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['src-main/cli', 'src-main/services', 'src-main/app', 'src-renderer/src'];

const NOUNS = [
  'device',
  'thread',
  'kernel',
  'node',
  'run',
  'measurement',
  'warning',
  'plan',
  'layer',
  'model',
  'sample',
  'machine',
  'predictor',
  'shape',
  'fold',
  'pass',
  'reorder',
  'token',
  'step',
  'file',
  'core',
  'GPU',
  'retry',
];

const plural = (n: string): string =>
  /(s|x|ch|sh)$/.test(n) ? `${n}es` : /[^aeiou]y$/.test(n) ? `${n.slice(0, -1)}ies` : `${n}s`;
/** `${expr} nouns` (not a rate such as tokens/s) and `noun(s)`. */
const TEMPLATE = new RegExp(`\\$\\{[^{}]*\\}\\)? (?:${NOUNS.map(plural).join('|')})\\b(?!/)`);
const MAYBE_PLURAL = new RegExp(`\\b(?:${NOUNS.join('|')})\\(s\\)`);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.(ts|svelte)$/.test(name) ? [p] : [];
  });
}

/** Lines outside comments that print a count before a plural noun. */
export function pluralTemplates(text: string): string[] {
  return text
    .split('\n')
    .map((line, i) => ({ line: line.trim(), at: i + 1 }))
    .filter(({ line }) => !/^(\*|\/\/|\/\*)/.test(line))
    .filter(({ line }) => TEMPLATE.test(line) || MAYBE_PLURAL.test(line))
    .map(({ line, at }) => `${at}: ${line.slice(0, 160)}`);
}

describe('counts in printed text', () => {
  it('finds the patterns it is meant to find', () => {
    expect(pluralTemplates('ctx.print(`${n} devices`);')).toHaveLength(1);
    expect(pluralTemplates('x(`from ${first?.devices ?? 0} device(s)`);')).toHaveLength(1);
    expect(pluralTemplates('`(${count(n, "device")}, ${p.threads} threads)`')).toHaveLength(1);
    expect(pluralTemplates('`${count(n, "device")}, ${rate} tokens/s`')).toEqual([]);
    expect(pluralTemplates(' * `${n} devices` in a comment')).toEqual([]);
  });

  it('no printed "N things" bypasses count(): one of them reads "1 thing"', () => {
    const found: string[] = [];
    for (const root of ROOTS)
      for (const file of sources(root)) {
        for (const hit of pluralTemplates(readFileSync(file, 'utf8'))) found.push(`${file}:${hit}`);
      }
    expect(found).toEqual([]);
  });
});
