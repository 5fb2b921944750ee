import { spawnSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { globMatches, isGlob } from '../../../../src-main/core/text/glob.js';

/** Runs `globMatches(pattern, name)` in a child node that is killed after 20 s: a backtracking matcher fails cleanly. */
function matchInChild(pattern: string, name: string): string {
  const bundle = buildSync({
    entryPoints: ['src-main/core/text/glob.ts'],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    write: false,
  }).outputFiles[0]!.text;
  const script = `${bundle}\nconst [p, n] = JSON.parse(require('fs').readFileSync(0, 'utf8'));\nprocess.stdout.write(String(module.exports.globMatches(p, n)));`;
  const run = spawnSync(process.execPath, ['-e', script], {
    input: JSON.stringify([pattern, name]),
    encoding: 'utf8',
    timeout: 20_000,
  });
  return run.signal ? `killed by ${run.signal}` : run.stdout;
}

describe('globMatches', () => {
  it('matches * as any run and ? as one character, over the whole name', () => {
    expect(globMatches('gpu-*', 'gpu-node1')).toBe(true);
    expect(globMatches('gpu-*', 'cpu-node1')).toBe(false);
    expect(globMatches('n?de', 'node')).toBe(true);
    expect(globMatches('n?de', 'nde')).toBe(false);
    expect(globMatches('*', '')).toBe(true);
    expect(globMatches('a*b*c', 'axxbyyc')).toBe(true);
    expect(globMatches('a*b*c', 'axxbyy')).toBe(false);
    expect(globMatches('*a', 'banana')).toBe(true);
    expect(globMatches('*ana', 'banana')).toBe(true);
    expect(globMatches('b*n?n*', 'banana')).toBe(true);
    expect(globMatches('a.b', 'axb')).toBe(false);
    expect(globMatches('(x)[y]+$', '(x)[y]+$')).toBe(true);
    expect(globMatches('Node', 'node')).toBe(false);
    expect(globMatches('', '')).toBe(true);
    expect(globMatches('', 'a')).toBe(false);
    expect(globMatches('**a**', 'xa')).toBe(true);
  });

  it('agrees with a reference regular expression on every short pattern and name over a small alphabet', () => {
    const reference = (glob: string, name: string): boolean =>
      new RegExp(`^${glob.replace(/\*/g, '[^]*').replace(/\?/g, '[^]')}$`).test(name);
    const words = (alphabet: string, most: number): string[] => {
      const all = [''];
      for (let i = 0; i < all.length; i++) if (all[i]!.length < most) for (const c of alphabet) all.push(all[i]! + c);
      return all;
    };
    const names = words('ab', 5);
    let compared = 0;
    for (const glob of words('ab*?', 4))
      for (const name of names) {
        expect(globMatches(glob, name), `${glob} ~ ${name}`).toBe(reference(glob, name));
        compared++;
      }
    expect(compared).toBe(341 * 63);
  });

  it('matches across line breaks like any other character', () => {
    expect(globMatches('a*b', 'a\nb')).toBe(true);
    expect(globMatches('a?b', 'a\nb')).toBe(true);
  });

  it('answers at once for a hostile pattern: 60 stars and a letter (the 72-byte links file of issue 45)', () => {
    expect(matchInChild(`${'*'.repeat(60)}b`, 'a'.repeat(40))).toBe('false');
  });

  it('answers at once for 10k stars and letters against a 10k name', () => {
    const pattern = `${'*a'.repeat(5000)}b`;
    expect(matchInChild(pattern, 'a'.repeat(10_000))).toBe('false');
    expect(matchInChild(`${'*'.repeat(10_000)}a`, 'a'.repeat(10_000))).toBe('true');
  });

  it('tells a wildcard from a plain name', () => {
    expect(isGlob('gpu-*')).toBe(true);
    expect(isGlob('n?de')).toBe(true);
    expect(isGlob('node')).toBe(false);
  });
});
