/**
 * Structure sizes of a profile are checked on its text, before JSON.parse materialises it, so no
 * input under the byte cap can take more than about 1 GB to import (figures in bench/RESULTS.md).
 */
import { describe, expect, it } from 'vitest';
import { decodeProfile } from '../../../../src-main/core/profile-file/codec.js';
import { decodeProfileDocument } from '../../../../src-main/core/profile-file/archive.js';
import { LIMITS } from '../../../../src-main/core/profile-file/schema.js';
import { structureRefusal } from '../../../../src-main/core/profile-file/structure.js';
import { sampleProfileFile } from '../../../helpers/sample-profile.js';

const base = JSON.stringify(sampleProfileFile());
const SUMMARY = '"summary":{"peakGflopsFp32":1234.5}';

function decodeError(text: string): string {
  try {
    decodeProfile(text, 'x.json');
  } catch (e) {
    return (e as Error).message;
  }
  return 'accepted';
}

describe('profile structure sizes, checked before parsing', () => {
  it('a valid profile passes', () => {
    expect(structureRefusal(base)).toBeNull();
  });

  it('refuses a topology of 3000 labels, naming the path, the count and the limit', () => {
    const labels = JSON.stringify(Array.from({ length: 3000 }, (_, i) => `GPU${i}`));
    const text = base.replace('"labels":["GPU0","GPU1"]', `"labels":${labels}`);
    expect(decodeError(text)).toBe(
      `x.json: machine.probe.nvidia.topology.labels has 3000 entries, more than ${LIMITS.maxTopologyLabels} (LIMITS.maxTopologyLabels); not imported`,
    );
  });

  it('reads an escaped key as the key it stands for', () => {
    const labels = JSON.stringify(Array.from({ length: 300 }, (_, i) => `GPU${i}`));
    const text = base.replace('"labels":["GPU0","GPU1"]', `"lab\\u0065ls":${labels}`);
    expect(decodeError(text)).toMatch(/topology\.labels has 300 entries/);
  });

  it('checks the same paths inside an archive', () => {
    const gpus = JSON.stringify(Array.from({ length: 300 }, () => ({ link: 0, speedGBps: 1, active: true })));
    const profile = base.replace('"nvlinks":[]', `"nvlinks":${gpus}`);
    const archive = `{"format":"pipedejavu-profile-archive","formatVersion":1,"profiles":[${profile}]}`;
    expect(() => decodeProfileDocument(archive, 'lab.json')).toThrow(
      /^lab\.json: profiles\[0\]\.machine\.probe\.nvidia\.gpus\[0\]\.nvlinks has 300 entries, more than 64/,
    );
  });

  it('refuses a map with more keys than all maps may hold', () => {
    const keys = Array.from({ length: LIMITS.maxMapEntries + 100 }, (_, i) => `"k${i}":0`).join(',');
    expect(decodeError(base.replace(SUMMARY, `"summary":{${keys}}`))).toMatch(
      /^x\.json: profileRuns\[0\]\.summary has \d+\+ members; .*\(LIMITS\.maxMapEntries\)/,
    );
  });

  it('refuses more values than the limit (a long array of numbers)', () => {
    const zeros = `[${'0,'.repeat(LIMITS.maxJsonValues)}0]`;
    expect(decodeError(base.replace(SUMMARY, `"summary":{"n":${zeros}}`))).toMatch(/\(LIMITS\.maxJsonValues\)/);
  });

  it('refuses more objects and arrays than the limit', () => {
    const empties = `[${'[],'.repeat(LIMITS.maxJsonContainers)}[]]`;
    expect(decodeError(base.replace(SUMMARY, `"summary":{"n":${empties}}`))).toMatch(/\(LIMITS\.maxJsonContainers\)/);
  });

  it('refuses one string longer than the limit, naming where it is', () => {
    const long = 'x'.repeat(LIMITS.maxStringChars + 1);
    const text = base.replace('"warnings":[]', `"warnings":["${long}"]`);
    expect(decodeError(text)).toBe(
      `x.json: machine.probe.warnings[0] is a string of ${LIMITS.maxStringChars + 1} characters, more than ${LIMITS.maxStringChars} (LIMITS.maxStringChars); not imported`,
    );
  });
});
