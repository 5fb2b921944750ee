import { describe, expect, it } from 'vitest';
import { DTYPE_BYTES, DTYPE_NAMES, FLOAT_DTYPES, PROFILED_DTYPES } from '../../../../src-main/core/domain/dtypes.js';
import { DtypeSchema } from '../../../../src-main/core/domain/measurement.js';
import { FEATURE_NAMES } from '../../../../src-main/core/predictor/features.js';

describe('the dtype table', () => {
  it('names every dtype once, in the order the file format and the features use', () => {
    expect(DTYPE_NAMES).toEqual(['fp32', 'fp16', 'bf16', 'fp8', 'int8', 'int32', 'int64']);
    expect(DtypeSchema.options).toEqual(DTYPE_NAMES);
  });

  it('gives each its size in bytes', () => {
    expect(DTYPE_BYTES).toEqual({ fp32: 4, fp16: 2, bf16: 2, fp8: 1, int8: 1, int32: 4, int64: 8 });
  });

  it('builds workloads in the floats and profiles every dtype but fp8', () => {
    expect(FLOAT_DTYPES).toEqual(['fp32', 'fp16', 'bf16', 'fp8']);
    expect(PROFILED_DTYPES).toEqual(['fp32', 'fp16', 'bf16', 'int8', 'int32', 'int64']);
  });

  it('gives the predictor one dtype feature per profiled dtype, in the table order', () => {
    expect(FEATURE_NAMES.filter((f) => f.startsWith('dtype_'))).toEqual(PROFILED_DTYPES.map((d) => `dtype_${d}`));
  });
});
