import { describe, expect, it } from 'vitest';
import { noisyPart, renderProfileReport } from '../../../../src-main/cli/render/profile.js';
import type { ProfileReport } from '../../../../src-main/services/profile/profiler-types.js';

describe("the profile report's noisy count", () => {
  it('says the noisy share in words that fit the count', () => {
    expect(noisyPart(0, 336)).toBe('');
    expect(noisyPart(1, 336)).toBe(', 1 of them noisy and kept with its spread');
    expect(noisyPart(3, 336)).toBe(', 3 of them noisy and kept with their spread');
    expect(noisyPart(1, 1)).toBe(', noisy and kept with its spread');
    expect(noisyPart(4, 4)).toBe(', all noisy and kept with their spread');
  });
});

describe("the profile report's line", () => {
  const report: ProfileReport = {
    runId: 'r',
    deviceKey: 'cpu',
    executionProvider: 'cpu',
    threads: 1,
    suite: 'quick',
    status: 'complete',
    measured: 336,
    byOrigin: { suite: 294, calibration: 36, refinement: 6 },
    reorders: 119,
    alreadyMeasured: 0,
    failures: [],
    noisy: ['a', 'b'],
    elapsedMs: 186_000,
    summary: null,
    notes: [],
  };

  it('counts the kernels by origin as the start line does, and the reorders apart from them', () => {
    expect(renderProfileReport(report)).toBe(
      'cpu (1 thread): complete; 336 kernels measured (294 quick suite + 36 calibration nodes + 6 refinement), ' +
        '2 of them noisy and kept with their spread; 119 reorders stored beside them; 0 failed; 3m06s',
    );
  });

  it('says what was stored already, and no reorders where none were stored', () => {
    const resumed = { ...report, measured: 2, byOrigin: { suite: 2, calibration: 0, refinement: 0 }, reorders: 0 };
    expect(renderProfileReport({ ...resumed, noisy: [], alreadyMeasured: 328 })).toMatch(
      /^cpu \(1 thread\): complete; 2 kernels measured \(quick suite\); 328 kernels already stored; 0 failed; /,
    );
  });
});
