import { describe, expect, it } from 'vitest';
import {
  COMPUTE_FAMILIES,
  KERNEL_FAMILIES,
  KERNEL_FAMILY_BOUND,
  MEMORY_FAMILIES,
  OP_FAMILY,
} from '../../../../src-main/core/kernels/types.js';
import { FEATURE_NAMES } from '../../../../src-main/core/predictor/features.js';

describe('the kernel family table (one definition)', () => {
  it('keeps the order stored predictors read their family features in', () => {
    expect(KERNEL_FAMILIES).toEqual([
      'gemm',
      'conv',
      'elementwise',
      'reduction',
      'softmax',
      'layernorm',
      'attention',
      'datamove',
      'copy',
    ]);
    expect(FEATURE_NAMES.filter((n) => n.startsWith('family_'))).toEqual(KERNEL_FAMILIES.map((f) => `family_${f}`));
  });

  it('splits the families into compute-bound, memory-bound and copies, none in two', () => {
    expect([...COMPUTE_FAMILIES].sort()).toEqual(['attention', 'conv', 'gemm']);
    expect([...MEMORY_FAMILIES].sort()).toEqual(['datamove', 'elementwise', 'layernorm', 'reduction', 'softmax']);
    expect(KERNEL_FAMILIES.filter((f) => KERNEL_FAMILY_BOUND[f] === 'copy')).toEqual(['copy']);
  });

  it('names every family some kernel op belongs to', () => {
    expect(new Set(Object.values(OP_FAMILY))).toEqual(new Set(KERNEL_FAMILIES));
  });
});
