import { describe, expect, it } from 'vitest';
import { noisyPart } from '../../../../src-main/cli/render/profile.js';

describe("the profile report's noisy count", () => {
  it('says the noisy share in words that fit the count', () => {
    expect(noisyPart(0, 336)).toBe('');
    expect(noisyPart(1, 336)).toBe(' (1 of them noisy, kept with its spread)');
    expect(noisyPart(3, 336)).toBe(' (3 of them noisy, kept with their spread)');
    expect(noisyPart(1, 1)).toBe(' (noisy, kept with its spread)');
    expect(noisyPart(4, 4)).toBe(' (all noisy, kept with their spread)');
  });
});
