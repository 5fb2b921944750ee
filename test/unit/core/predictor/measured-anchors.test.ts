import { describe, expect, it } from 'vitest';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import type { KernelOp } from '../../../../src-main/core/kernels/types.js';
import {
  AnchoredPredictor,
  anchorIndex,
  anchoredTimeUs,
} from '../../../../src-main/core/predictor/measured-anchors.js';
import type { DeviceFeatures, Predictor, Sample } from '../../../../src-main/core/predictor/types.js';
import { SYNTHETIC_DEVICES } from '../../../helpers/forest-samples.js';

const cpu: DeviceFeatures = { ...SYNTHETIC_DEVICES[1]!, l3Bytes: 32 * 2 ** 20 };
const other: DeviceFeatures = { ...cpu, deviceId: 'other/cpu/cpu/1' };

const sample = (op: KernelOp, shape: Record<string, number>, timeUs: number, device = cpu): Sample => ({
  ...makeKernel(op, 'fp32', shape),
  device,
  timeUs,
});
const query = (op: KernelOp, shape: Record<string, number>, device = cpu) => ({
  ...makeKernel(op, 'fp32', shape),
  device,
});

// Sigmoid as the 2-vCPU Zen 4 guest's quick profile timed it (run X2, 1 thread).
const SIGMOID = [
  sample('Sigmoid', { n: 1024 }, 0.42),
  sample('Sigmoid', { n: 24576 }, 7.35),
  sample('Sigmoid', { n: 1048576 }, 333.2),
];

/** A stand-in for the learned model: 1 µs for everything, band 0.5-2. */
const flat: Predictor = {
  name: 'flat',
  version: 1,
  train: () => undefined,
  predict: (qs) => qs.map(() => ({ timeUs: 1, lowUs: 0.5, highUs: 2, warning: null })),
  toJSON: () => ({ name: 'flat', version: 1 }),
};

describe('measured anchors', () => {
  it('reads a size between two measured ones off the power law through them, a measured size as measured', () => {
    const index = anchorIndex(SIGMOID);
    const t = anchoredTimeUs(index, query('Sigmoid', { n: 150_000 }));
    const exponent = Math.log(333.2 / 7.35) / Math.log(1048576 / 24576);
    expect(t).toBeCloseTo(7.35 * (150_000 / 24576) ** exponent, 6);
    expect(anchoredTimeUs(index, query('Sigmoid', { n: 24576 }))).toBe(7.35);
    expect(anchoredTimeUs(index, query('Sigmoid', { n: 1048576 }))).toBe(333.2);
  });

  it('leaves sizes outside the series, other ops, shapes and devices to the model', () => {
    const index = anchorIndex(SIGMOID);
    expect(anchoredTimeUs(index, query('Sigmoid', { n: 512 }))).toBeNull();
    expect(anchoredTimeUs(index, query('Sigmoid', { n: 2_000_000 }))).toBeNull();
    expect(anchoredTimeUs(index, query('Relu', { n: 150_000 }))).toBeNull();
    expect(anchoredTimeUs(index, query('Sigmoid', { n: 150_000 }, other))).toBeNull();
    const scalar = anchorIndex([sample('Mul', { n: 1024 }, 1), sample('Mul', { n: 1048576 }, 243)]);
    expect(anchoredTimeUs(scalar, query('Mul', { n: 4096, scalar: 1 }))).toBeNull();
    expect(anchoredTimeUs(scalar, query('Mul', { n: 4096 }))).not.toBeNull();
  });

  it('follows the series above its largest size only where both last sizes stream past the L3', () => {
    const inCache = anchorIndex([sample('Add', { n: 65536 }, 10), sample('Add', { n: 1048576 }, 122)]);
    expect(anchoredTimeUs(inCache, query('Add', { n: 4_000_000 }))).toBeNull();
    const dram = anchorIndex([sample('Add', { n: 8388608 }, 3600), sample('Add', { n: 16777216 }, 7400)]);
    expect(anchoredTimeUs(dram, query('Add', { n: 33554432 }))).toBeCloseTo(15000, 6);
  });

  it('takes the median of repeated measurements of one size', () => {
    const index = anchorIndex([
      sample('Relu', { n: 1024 }, 1),
      sample('Relu', { n: 2048 }, 2),
      sample('Relu', { n: 2048 }, 9),
      sample('Relu', { n: 2048 }, 3),
    ]);
    expect(anchoredTimeUs(index, query('Relu', { n: 2048 }))).toBe(3);
  });

  it('answers from the series and keeps the model band relative width; elsewhere the model answers', () => {
    const p = new AnchoredPredictor(flat, anchorIndex(SIGMOID));
    expect(p.name).toBe('flat');
    const [inside, outside] = p.predict([query('Sigmoid', { n: 24576 }), query('Gelu', { n: 24576 })]);
    expect(inside).toEqual({ timeUs: 7.35, lowUs: 3.675, highUs: 14.7, warning: null });
    expect(outside).toEqual({ timeUs: 1, lowUs: 0.5, highUs: 2, warning: null });
  });
});
