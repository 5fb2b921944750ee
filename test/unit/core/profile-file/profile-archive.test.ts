import { describe, expect, it } from 'vitest';
import { decodeProfileDocument, encodeArchive } from '../../../../src-main/core/profile-file/archive.js';
import { decodeProfile, encodeProfile, ProfileFileError } from '../../../../src-main/core/profile-file/codec.js';
import type { ProfileFile } from '../../../../src-main/core/profile-file/schema.js';
import { sampleProfileFile } from '../../../helpers/sample-profile.js';
import { gpuServerProfile } from '../../../helpers/gpu-profile.js';

function twoMachines(): ProfileFile[] {
  return [sampleProfileFile(), gpuServerProfile()];
}

function decodeError(text: string): string {
  try {
    decodeProfileDocument(text, 'lab.json');
  } catch (e) {
    expect(e).toBeInstanceOf(ProfileFileError);
    const msg = (e as Error).message;
    expect(msg.split('\n')).toHaveLength(1);
    return msg;
  }
  throw new Error('expected decodeProfileDocument to reject the file');
}

type Archive = { format: string; formatVersion: number; profiles: Record<string, unknown>[] };
function mutated(fn: (a: Archive) => void): string {
  const a = JSON.parse(encodeArchive(twoMachines())) as Archive;
  fn(a);
  return JSON.stringify(a);
}

describe('profile archive codec', () => {
  it('decodes what it encodes, re-encodes byte for byte, each profile as its own file', () => {
    const text = encodeArchive(twoMachines());
    expect(text.endsWith('\n')).toBe(true);
    const doc = decodeProfileDocument(text);
    expect(doc.kind).toBe('archive');
    if (doc.kind !== 'archive') return;
    expect(doc.profiles.map((p) => p.machine.label)).toEqual(['lab-ws-01', 'gpu-box']);
    expect(encodeArchive(doc.profiles)).toBe(text);
    for (const [i, p] of doc.profiles.entries()) expect(encodeProfile(p)).toBe(encodeProfile(twoMachines()[i]!));
  });

  it('tells a single profile from an archive, and decodeProfile names an archive for what it is', () => {
    const single = decodeProfileDocument(encodeProfile(sampleProfileFile()), 'one.json');
    expect(single.kind).toBe('profile');
    expect(() => decodeProfile(encodeArchive(twoMachines()), 'lab.json')).toThrow(
      'lab.json is an archive of several hardware profiles, not one; import it with `pipedejavu import`',
    );
  });

  it('refuses a damaged archive with one line naming the profile at fault', () => {
    expect(decodeError(encodeArchive(twoMachines()).slice(0, 2000))).toMatch(/^lab\.json is not JSON/);
    expect(
      decodeError(
        mutated((a) => {
          a.profiles[1]!.devices = [];
        }),
      ),
    ).toMatch(/^lab\.json profile 2: invalid hardware profile: devices: /);
    expect(
      decodeError(
        mutated((a) => {
          a.profiles[0]!.format = 'something-else';
        }),
      ),
    ).toMatch(/^lab\.json profile 1 is not a pipeDejavu hardware profile/);
    expect(
      decodeError(
        mutated((a) => {
          a.profiles[1] = 'not an object' as unknown as Record<string, unknown>;
        }),
      ),
    ).toBe('lab.json profile 2 is not a pipeDejavu hardware profile (expected a JSON object)');
    expect(
      decodeError(
        mutated((a) => {
          a.profiles = 'none' as unknown as Record<string, unknown>[];
        }),
      ),
    ).toMatch(/^lab\.json: invalid profile archive: profiles: /);
    expect(
      decodeError(
        mutated((a) => {
          a.formatVersion = 7;
        }),
      ),
    ).toMatch(/uses profile-archive format version 7, newer than this pipeDejavu reads \(1\)/);
    expect(
      decodeError(
        mutated((a) => {
          a.profiles.push(a.profiles[0]!);
        }),
      ),
    ).toBe('lab.json holds machine a1b2c3d4e5f60718 twice (profiles 1 and 3)');
  });

  it('keeps nesting and the number of profiles bounded', () => {
    const deep = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    const text = encodeArchive(twoMachines()).replace('"predictors": []', `"predictors": [${deep}]`);
    expect(decodeError(text)).toBe(
      'lab.json profile 1 nests objects deeper than 64 levels; not a pipeDejavu hardware profile',
    );
    const many = JSON.stringify({
      format: 'pipedejavu-profile-archive',
      formatVersion: 1,
      profiles: Array.from({ length: 4097 }, () => ({})),
    });
    expect(decodeError(many)).toMatch(
      /^lab\.json: profiles has 4097 entries, more than 4096 \(ARCHIVE_LIMITS\.maxProfiles\)/,
    );
  });

  it('encodeArchive refuses one machine twice', () => {
    expect(() => encodeArchive([sampleProfileFile(), sampleProfileFile()])).toThrow(/appears twice/);
  });
});
