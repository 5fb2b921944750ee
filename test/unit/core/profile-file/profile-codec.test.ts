import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeProfile, encodeProfile, ProfileFileError } from '../../../../src-main/core/profile-file/codec.js';
import { profileJsonSchema, SCHEMA_FILE } from '../../../../scripts/json-schema.js';
import { sampleProfileFile } from '../../../helpers/sample-profile.js';

type Mutable = Record<string, unknown> & { [k: string]: unknown };
function mutated(fn: (f: Mutable) => void): string {
  const f = JSON.parse(encodeProfile(sampleProfileFile())) as Mutable;
  fn(f);
  return JSON.stringify(f);
}
function decodeError(text: string): string {
  try {
    decodeProfile(text, 'lab.json');
  } catch (e) {
    expect(e).toBeInstanceOf(ProfileFileError);
    const msg = (e as Error).message;
    expect(msg.split('\n')).toHaveLength(1);
    return msg;
  }
  throw new Error('expected decodeProfile to reject the file');
}

describe('hardware-profile codec', () => {
  it('decodes what it encodes, and re-encodes byte for byte', () => {
    const text = encodeProfile(sampleProfileFile());
    const again = encodeProfile(decodeProfile(text));
    expect(again).toBe(text);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('canonicalises key order and whitespace', () => {
    const text = encodeProfile(sampleProfileFile());
    const reverseKeys = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reverseKeys)
        : v !== null && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reverseKeys(x)]),
            )
          : v;
    const reordered = JSON.stringify(reverseKeys(JSON.parse(text)));
    expect(reordered.startsWith('{"predictors"')).toBe(true);
    expect(encodeProfile(decodeProfile(reordered))).toBe(text);
  });

  it('keeps floating-point values exact', () => {
    const f = decodeProfile(encodeProfile(sampleProfileFile()));
    expect(f.measurements[1]?.stats.medianUs).toBe(0.1 + 0.2);
  });

  it('rejects files that are not JSON, naming the file', () => {
    expect(decodeError('{"format": "pipedejavu-hardware-pro')).toMatch(/^lab\.json is not JSON/);
    expect(decodeError('')).toMatch(/is not JSON/);
    expect(decodeError('\u0000\u0001PNG')).toMatch(/is not JSON/);
  });

  it('rejects foreign JSON', () => {
    expect(decodeError('[1,2,3]')).toMatch(/not a pipeDejavu hardware profile/);
    expect(decodeError('{"name": "my-package", "version": "1.0.0"}')).toMatch(/not a pipeDejavu hardware profile/);
    expect(decodeError('null')).toMatch(/not a pipeDejavu hardware profile/);
  });

  it('rejects a newer or unknown format version', () => {
    expect(decodeError(mutated((f) => (f.formatVersion = 2)))).toMatch(/newer than this pipeDejavu reads/);
    expect(decodeError(mutated((f) => (f.formatVersion = 0)))).toMatch(/unknown format version 0/);
    expect(decodeError(mutated((f) => (f.formatVersion = '1')))).toMatch(/no numeric formatVersion/);
  });

  it('rejects missing fields and wrong types with the path of the problem', () => {
    expect(decodeError(mutated((f) => delete f.machine))).toMatch(/machine: /);
    expect(decodeError(mutated((f) => ((f.devices as Mutable[])[0]!.memoryBytes = '16 GB')))).toMatch(
      /devices\[0\]\.memoryBytes/,
    );
    expect(decodeError(mutated((f) => ((f.machine as Mutable).probe = 'x')))).toMatch(/machine\.probe/);
  });

  it('rejects negative, zero and absurd times and sizes', () => {
    const stat = (f: Mutable): Mutable => (f.measurements as Mutable[])[0]!.stats as Mutable;
    expect(decodeError(mutated((f) => (stat(f).medianUs = -3)))).toMatch(/measurements\[0\]\.stats\.medianUs/);
    expect(decodeError(mutated((f) => (stat(f).medianUs = 0)))).toMatch(/medianUs/);
    expect(decodeError(mutated((f) => (stat(f).medianUs = 1e12)))).toMatch(/absurd time/);
    expect(decodeError(mutated((f) => (stat(f).medianUs = null)))).toMatch(/medianUs/);
    expect(decodeError(mutated((f) => ((f.devices as Mutable[])[1]!.memoryBytes = 1e20)))).toMatch(/absurd memory/);
    expect(decodeError(mutated((f) => (((f.measurements as Mutable[])[0]!.shape as Mutable).M = 2 ** 45)))).toMatch(
      /absurd dimension/,
    );
  });

  it('refuses 50k-deep JSON inside a predictor with one line instead of overflowing the stack', () => {
    const f = sampleProfileFile();
    const deep = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    const predictor = JSON.stringify({
      name: 'forest',
      version: 1,
      kind: 'forest',
      trainedAt: '2026-01-01T00:00:00.000Z',
      trainingSet: {},
      report: null,
      model: { x: 0 },
    }).replace('{"x":0}', deep);
    const text = JSON.stringify({ ...f, predictors: [] }).replace('"predictors":[]', `"predictors":[${predictor}]`);
    expect(() => decodeProfile(text, 'deep.json')).toThrow(
      'deep.json nests objects deeper than 64 levels; not a pipeDejavu hardware profile',
    );
  });

  it('bounds every list in the file: runs, links and predictors too', () => {
    const f = sampleProfileFile();
    const run = f.profileRuns[0]!;
    const runs = Array.from({ length: 100_001 }, (_, i) => ({ ...run, id: `r${i}` }));
    const text = JSON.stringify({ ...f, profileRuns: runs, measurements: [] });
    // Counted on the text, before it is parsed.
    expect(() => decodeProfile(text, 'many.json')).toThrow(
      /^many\.json: profileRuns has 100001 entries, more than 100000 \(LIMITS\.maxRuns\)/,
    );
    const predictors = Array.from({ length: 1001 }, () => ({
      name: 'roofline',
      version: 1,
      kind: 'roofline',
      trainedAt: '2026-01-01T00:00:00.000Z',
      trainingSet: {},
      report: null,
      model: {},
    }));
    expect(() => decodeProfile(JSON.stringify({ ...f, predictors }), 'p.json')).toThrow(
      /predictors has 1001 entries, more than 1000/,
    );
  });

  it('rejects NaN written as a string and inconsistent statistics', () => {
    const stat = (f: Mutable): Mutable => (f.measurements as Mutable[])[0]!.stats as Mutable;
    expect(decodeError(mutated((f) => (stat(f).p90Us = 'NaN')))).toMatch(/p90Us/);
    expect(decodeError(mutated((f) => (stat(f).p10Us = 5000)))).toMatch(/p10 <= median <= p90/);
  });

  it('rejects references to devices and runs that the file does not hold', () => {
    expect(decodeError(mutated((f) => ((f.measurements as Mutable[])[0]!.runId = 'nope')))).toMatch(
      /unknown profile run "nope"/,
    );
    expect(decodeError(mutated((f) => ((f.profileRuns as Mutable[])[0]!.deviceKey = 'cuda:7')))).toMatch(
      /unknown device "cuda:7"/,
    );
  });

  it('counts further problems in the one line', () => {
    const msg = decodeError(
      mutated((f) => {
        f.links = 3;
        f.devices = 'x';
      }),
    );
    expect(msg).toMatch(/and 1 more problem\)$/);
  });

  it('ships a JSON Schema file equal to the one generated from the zod schema', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(profileJsonSchema());
  });
});
