/**
 * fp8 GEMMs in a training step as Transformer Engine's Linear runs them (issue 59): the forward
 * casts its bf16 input to fp8 with the transpose the weight gradient reads (4 bytes an element of
 * X); the backward casts the output gradient dY the same way (4 bytes an element of dY) before its
 * two GEMMs, and does not cast X again. Serving casts the input once (3 bytes an element).
 */
import { describe, expect, it } from 'vitest';
import { virtualDevice } from '../../../../src-main/core/planner/cost/datasheets.js';
import { DatasheetPredictor } from '../../../../src-main/core/predictor/datasheet-predictor.js';
import { architectureEfficiency, memoryEfficiency } from '../../../../src-main/core/predictor/kernel-efficiency.js';
import type { OpQuery } from '../../../../src-main/core/predictor/types.js';

const H100 = virtualDevice('H100 SXM5');
const hopper = architectureEfficiency('Hopper');
const bytesPerUs = H100.datasheet.memory.bandwidthGBps * memoryEfficiency(H100.datasheet.memory.type) * 1e3;
/** Llama-3 8B's gate-and-up projection over 8192 tokens: dY is 7x the size of X. */
const [M, N, K] = [8192, 28672, 4096];
const fc1 = (dtype: OpQuery['dtype']): OpQuery => ({
  op: 'MatMul',
  family: 'gemm',
  shape: { B: 1, M, N, K },
  dtype,
  flops: 2 * M * N * K,
  bytes: (M * K + K * N) * (dtype === 'fp8' ? 1 : 2) + M * N * 2,
  device: H100.features,
});
const predict = (opts: { training?: boolean; fp8Inputs?: boolean }, dtype: OpQuery['dtype'] = 'fp8') =>
  new DatasheetPredictor(H100.datasheet, opts).predict([fc1(dtype)])[0];

describe('fp8 casts of a training step', () => {
  it("casts the forward's input with its transpose: 4 bytes an element of X, one kernel", () => {
    const gemmAlone = predict({ training: true, fp8Inputs: true })?.timeUs ?? NaN;
    const withCast = predict({ training: true })?.timeUs ?? NaN;
    expect(withCast - gemmAlone).toBeCloseTo((M * K * 4) / bytesPerUs + hopper.kernelUs, 6);
  });

  it('casts only the output gradient in the backward: two GEMMs and 4 bytes an element of dY', () => {
    const gemmAlone = predict({ training: true, fp8Inputs: true })?.timeUs ?? NaN;
    const backward = predict({ training: true })?.backwardUs ?? NaN;
    expect(backward - 2 * gemmAlone).toBeCloseTo((M * N * 4) / bytesPerUs + hopper.kernelUs, 6);
  });

  it('keeps the serving cast at 3 bytes an element of X, with no backward of its own', () => {
    const gemmAlone = predict({ fp8Inputs: true })?.timeUs ?? NaN;
    const served = predict({});
    expect((served?.timeUs ?? NaN) - gemmAlone).toBeCloseTo((M * K * 3) / bytesPerUs + hopper.kernelUs, 6);
    expect(served?.backwardUs).toBeUndefined();
  });

  it('leaves bf16 GEMMs and benchmark fp8 inputs to the default backward (twice the forward)', () => {
    expect(predict({ training: true }, 'bf16')?.backwardUs).toBeUndefined();
    expect(predict({ training: true, fp8Inputs: true })?.backwardUs).toBeUndefined();
  });
});
