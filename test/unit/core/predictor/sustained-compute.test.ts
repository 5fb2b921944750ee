/**
 * Sustained compute in a training step (issue 59): a step holds the board at its power limit, so
 * compute runs at the architecture's `sustained` share of the burst rate the GEMM and attention
 * fractions were measured at (mamf-finder's MSMF over MAMF); memory-bound kernels keep their rate.
 */
import { describe, expect, it } from 'vitest';
import { virtualDevice } from '../../../../src-main/core/planner/cost/datasheets.js';
import { DatasheetPredictor } from '../../../../src-main/core/predictor/datasheet-predictor.js';
import {
  architectureEfficiency,
  KERNEL_EFFICIENCIES,
  type KernelEfficiencies,
} from '../../../../src-main/core/predictor/kernel-efficiency.js';
import type { OpQuery } from '../../../../src-main/core/predictor/types.js';
import { attentionQuery } from '../../../helpers/attention-query.js';

const H100 = virtualDevice('H100 SXM5');
const B200 = virtualDevice('NVIDIA B200');
const L40S = virtualDevice('NVIDIA L40S');

/** A large bf16 GEMM (compute-bound on any of these GPUs). */
const gemm = (device = H100): OpQuery => ({
  op: 'MatMul',
  family: 'gemm',
  shape: { B: 1, M: 8192, N: 8192, K: 8192 },
  dtype: 'bf16',
  flops: 2 * 8192 ** 3,
  bytes: 3 * 8192 * 8192 * 2,
  device: device.features,
});
/** A residual add of 256 MiB: memory-bound. */
const add = (device = H100): OpQuery => ({
  op: 'Add',
  family: 'elementwise',
  shape: { n: 2 ** 26 },
  dtype: 'bf16',
  flops: 2 ** 26,
  bytes: 3 * 2 ** 27,
  device: device.features,
});
const SHAPE = { batch: 1, heads: 32, seq: 8192, headDim: 128 };
const attention = (device = H100): OpQuery => attentionQuery(device, SHAPE);

function priced(device: typeof H100, q: OpQuery, opts: { training?: boolean } = {}) {
  const out = new DatasheetPredictor(device.datasheet, { causalAttention: true, ...opts }).predict([q])[0];
  return { us: out?.timeUs ?? NaN, backwardUs: out?.backwardUs ?? NaN };
}

describe('sustained compute in a training step', () => {
  it('prices a compute-bound GEMM at the sustained share of its burst rate on Hopper and Blackwell', () => {
    for (const device of [H100, B200]) {
      const arch = architectureEfficiency(device.datasheet.architecture);
      const launch = arch.kernelUs;
      const burst = priced(device, gemm(device)).us - launch;
      const step = priced(device, gemm(device), { training: true }).us - launch;
      expect(arch.sustained).toBeLessThan(1);
      expect(step / burst).toBeCloseTo(1 / (arch.sustained ?? NaN), 6);
    }
  });

  it("slows fused attention's forward and backward alike", () => {
    const arch = architectureEfficiency('Hopper');
    const table: KernelEfficiencies = {
      ...KERNEL_EFFICIENCIES,
      architectures: { ...KERNEL_EFFICIENCIES.architectures, Hopper: { ...arch, sustained: 1 } },
    };
    const step = priced(H100, attention(), { training: true });
    const atBoost = new DatasheetPredictor(H100.datasheet, { causalAttention: true, training: true, table }).predict([
      attention(),
    ])[0];
    const launch = arch.kernelUs;
    const slower = 1 / (arch.sustained ?? NaN);
    expect((step.us - launch) / ((atBoost?.timeUs ?? NaN) - launch)).toBeCloseTo(slower, 6);
    expect((step.backwardUs - launch) / ((atBoost?.backwardUs ?? NaN) - launch)).toBeCloseTo(slower, 6);
  });

  it('leaves memory-bound kernels at their rate', () => {
    expect(priced(H100, add(), { training: true }).us).toBe(priced(H100, add()).us);
  });

  it('changes nothing where the architecture has no sustained measurement', () => {
    expect(architectureEfficiency('Ada').sustained).toBeUndefined();
    expect(priced(L40S, gemm(L40S), { training: true }).us).toBe(priced(L40S, gemm(L40S)).us);
  });

  it("ships Hopper's and Blackwell's shares as mamf-finder's MSMF over MAMF, with no fitted training share", () => {
    for (const name of ['Hopper', 'Blackwell']) {
      const arch = architectureEfficiency(name);
      expect(arch.training).toBeUndefined();
      const quoted = (arch.sustainedFrom ?? []).join(' ').match(/MSMF ([\d.]+) \/ MAMF ([\d.]+) = ([\d.]+)/);
      expect(quoted).not.toBeNull();
      const [msmf, mamf, share] = (quoted ?? []).slice(1).map(Number);
      expect((msmf ?? NaN) / (mamf ?? NaN)).toBeCloseTo(share ?? NaN, 3);
      expect(arch.sustained).toBe(share);
    }
  });
});
