import { describe, expect, it } from 'vitest';
import {
  countMeasurements,
  kernelsCell,
  kernelsText,
  measurementsText,
} from '../../../../src-main/core/profiler/kernel-counts.js';

describe('one count per thing a profile measures', () => {
  it('says a run’s kernels with each origin that has any, the suite named', () => {
    expect(kernelsText({ suite: 294, calibration: 36, refinement: 0 }, 'quick')).toBe(
      '330 kernels (294 quick suite + 36 calibration nodes)',
    );
    expect(kernelsText({ suite: 294, calibration: 36, refinement: 6 }, 'quick', 'measured')).toBe(
      '336 kernels measured (294 quick suite + 36 calibration nodes + 6 refinement)',
    );
    // One origin: named, not counted twice; none: the suite.
    expect(kernelsText({ suite: 2, calibration: 0, refinement: 0 }, 'quick')).toBe('2 kernels (quick suite)');
    expect(kernelsText({ suite: 0, calibration: 1, refinement: 0 }, 'standard')).toBe('1 kernel (calibration nodes)');
    expect(kernelsText({ suite: 0, calibration: 0, refinement: 0 }, 'quick')).toBe('0 kernels (quick suite)');
  });

  it('counts stored rows as kernels, the reorders beside them and measure-model’s nodes, each apart', () => {
    const c = countMeasurements([
      { op: 'MatMul', source: 'profile' },
      { op: 'Conv', source: 'profile' },
      { op: 'ReorderInput', source: 'profile' },
      { op: 'ReorderOutput', source: 'profile' },
      { op: 'ReorderOutput', source: 'profile' },
      { op: 'Conv', source: 'model' },
    ]);
    expect(c).toEqual({ kernels: 2, reorders: 3, modelNodes: 1 });
    expect(measurementsText(c)).toBe('6 measurements (2 kernels + 3 reorders + 1 model node)');
    expect(measurementsText({ kernels: 336, reorders: 0, modelNodes: 0 })).toBe('336 measurements (336 kernels)');
    expect(kernelsCell({ kernels: 336, reorders: 119 })).toBe('336 + 119 reorders');
    // A summary stored before reorders were counted apart has none to say.
    expect(kernelsCell({ kernels: 455 })).toBe('455');
  });
});
