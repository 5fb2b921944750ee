import { describe, expect, it } from 'vitest';
import { createCostModel } from '../../../../../src-main/core/planner/cost/cost-model.js';
import { CostTables } from '../../../../../src-main/core/planner/cost/stage-cost.js';
import {
  overlappedBlockUs,
  problemTensorOverlap,
  replicaOverlap,
} from '../../../../../src-main/core/planner/cost/tensor-overlap.js';
import { MEGATRON_STACK } from '../../../../../src-main/core/planner/stacks/megatron-stack.js';
import { TORCHTITAN_STACK } from '../../../../../src-main/core/planner/stacks/torchtitan-stack.js';
import type { BlockGemms, PlanLink, PlanProblem } from '../../../../../src-main/core/planner/types.js';

const ids = ['a/gpu:0', 'a/gpu:1'];
const times = (us: number): Record<string, number> => Object.fromEntries(ids.map((id) => [id, us]));
const links: PlanLink[] = [{ a: ids[0] as string, b: ids[1] as string, alphaUs: 2, gbps: 400, kind: 'NVLink' }];
const gemms: BlockGemms = { attnIn: 0.15, attnOut: 0.05, mlpIn: 0.4, mlpOut: 0.2 };

/** One training step of one sample, Adam's 16 bytes a parameter, TP 1 or 2. */
const STEP: Pick<PlanProblem, 'mode' | 'batch' | 'bytesPerParam' | 'zeroStage' | 'overheadBytes' | 'tensorDegrees'> = {
  tensorDegrees: [1, 2],
  mode: 'training',
  zeroStage: 0,
  batch: 1,
  overheadBytes: 0,
  bytesPerParam: 16,
};

/** Four dense blocks split over two H100-like GPUs (132 SMs), their output `outBytes` a sample. */
function problem(outBytes: number, overlap: boolean): PlanProblem {
  const tensor = { divides: [8, 8], forwardAllReduces: 2, backwardAllReduces: 2, gemms };
  return {
    layers: Array.from({ length: 4 }, (_, i) => ({
      name: `block.${i}`,
      forwardUs: times(1000),
      backwardUs: times(2000),
      params: 1e8,
      outBytesPerSample: outBytes,
      activationBytesPerSample: 1e7,
      tensor,
    })),
    devices: ids.map((id) => ({
      id,
      name: 'H100',
      kind: 'gpu',
      machine: 'a',
      memoryBytes: 8e10,
      estimate: 'datasheet',
    })),
    links,
    ...STEP,
    ...(overlap
      ? { tensorOverlap: { pipelineSplits: 4, commSms: 16, smCount: { [ids[0]!]: 132, [ids[1]!]: 132 } } }
      : {}),
  };
}

const stageUs = (p: PlanProblem): number => new CostTables(p, createCostModel(p.links)).stageTimeUs([0, 1], 0, 4, 1, 2);
const computeUs = (4 * (1000 + 2000)) / 2;

describe('tensor-parallel overlap with the GEMMs (Transformer Engine userbuffers)', () => {
  it('prices a TP layout faster with overlap than without, by no more than its TP communication', () => {
    for (const bytes of [4e7, 4e8]) {
      const plain = stageUs(problem(bytes, false));
      const overlapped = stageUs(problem(bytes, true));
      const comm = plain - computeUs;
      expect(comm).toBeGreaterThan(0);
      expect(overlapped).toBeLessThan(plain);
      expect(plain - overlapped).toBeLessThanOrEqual(comm);
    }
  });

  it('prices a layout whose collectives are short slower: the GEMMs beside them lose the SMs the collectives take', () => {
    const plain = stageUs(problem(4e6, false));
    const overlapped = stageUs(problem(4e6, true));
    expect(overlapped).toBeGreaterThan(plain);
    // At most the slowdown of the pipelined and bulk GEMMs (proj, fc2 forward; qkv, fc1 wgrad) of the four blocks.
    const slowedUs = 4 * 500 * (gemms.attnOut + gemms.mlpOut + gemms.attnIn + gemms.mlpIn) * (132 / 116 - 1);
    expect(overlapped - plain).toBeLessThanOrEqual(slowedUs);
  });

  it('leaves the layout unchanged without overlap, and for a replica on a device it is not turned on for', () => {
    const plain = problem(4e7, false);
    const noGemms = {
      ...plain,
      layers: plain.layers.map((l) => ({ ...l, tensor: { ...l.tensor!, gemms: undefined } })),
    };
    expect(stageUs(plain)).toBe(stageUs(noGemms));
    const partly = problem(4e7, true);
    const one = { ...partly, tensorOverlap: { ...partly.tensorOverlap!, smCount: { [ids[0]!]: 132 } } };
    expect(stageUs(one)).toBe(stageUs(plain));
  });

  it('hides an all-gather behind its GEMM chunk by chunk, and leaves the last pipelined reduce-scatter chunk exposed', () => {
    const big = { attnIn: 1, attnOut: 1, mlpIn: 1, mlpOut: 1 };
    // GEMMs far longer than the collectives, no SM taken: only each pipelined reduce-scatter's last chunk shows.
    const hidden = overlappedBlockUs(100, 1e6, big, 8, { slow: 1, splits: 4 });
    expect(hidden.forward).toBeCloseTo(2 * (50 / 4), 9);
    expect(hidden.backward).toBe(0);
    // No compute to hide behind: every collective is exposed whole (c = a/2 each, four each way).
    const bare = overlappedBlockUs(100, 0, big, 8, { slow: 1, splits: 4 });
    expect(bare.forward).toBeCloseTo(200, 9);
    expect(bare.backward).toBeCloseTo(200, 9);
    // The pipelined and bulk GEMMs run on fewer SMs: they pay the slowdown where the collective is short.
    const slowed = overlappedBlockUs(0, 1000, big, 8, { slow: 132 / 116, splits: 4 });
    expect(slowed.forward).toBeCloseTo(2 * 1000 * (132 / 116 - 1), 6);
  });

  it('is turned on for the stack’s GPU generations with a known SM count only', () => {
    const o = problemTensorOverlap(MEGATRON_STACK, [
      { id: 'h', computeCapability: '9.0', smCount: 132 },
      { id: 'a', computeCapability: '8.0', smCount: 108 },
      { id: 'x', computeCapability: '9.0', smCount: null },
    ]);
    expect(o?.smCount).toEqual({ h: 132 });
    expect(replicaOverlap(o, ['h'])?.slow).toBeCloseTo(132 / 116, 12);
    expect(replicaOverlap(o, ['h', 'a'])).toBeNull();
    expect(
      problemTensorOverlap(TORCHTITAN_STACK, [{ id: 'h', computeCapability: '9.0', smCount: 132 }]),
    ).toBeUndefined();
  });
});
