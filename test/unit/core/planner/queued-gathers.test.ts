/**
 * ZeRO-3 collectives queued behind persistent GEMMs (cost/sharded-sync.ts): a stack that issues them on
 * default-priority streams (FSDP1) hides none of them on Hopper and later; FSDP2's high-priority streams,
 * Ampere's per-tile GEMMs and FSDP1's hybrid sharding keep the prefetch overlap.
 */
import { describe, expect, it } from 'vitest';
import type { CostModel } from '../../../../src-main/core/planner/cost/cost-model.js';
import {
  gathersQueued,
  queuedGatherDevices,
  shardedExposedUs,
} from '../../../../src-main/core/planner/cost/sharded-sync.js';
import { plannerContext } from '../../../../src-main/core/planner/problem/problem.js';
import { FSDP_STACK } from '../../../../src-main/core/planner/stacks/fsdp-stack.js';
import { TORCHTITAN_STACK } from '../../../../src-main/core/planner/stacks/torchtitan-stack.js';
import { MEGATRON_STACK } from '../../../../src-main/core/planner/stacks/megatron-stack.js';
import type { PlanProblem } from '../../../../src-main/core/planner/types.js';
import { likeGpuTraining } from '../../../helpers/like-gpus.js';

const hopper = { id: 'h', computeCapability: '9.0', smCount: 132 };
const ampere = { id: 'a', computeCapability: '8.0', smCount: 108 };
const blackwell = { id: 'b', computeCapability: '10.0', smCount: 148 };

describe('queuedGatherDevices', () => {
  it('lists the Hopper and later GPUs of a stack on default-priority streams, not Ampere', () => {
    expect(queuedGatherDevices(FSDP_STACK, [hopper, ampere, blackwell])).toEqual({
      devices: ['h', 'b'],
      sharded: true,
      hybrid: false,
    });
  });

  it('is none for high-priority streams (FSDP2), an unstated priority, or Ampere alone', () => {
    expect(queuedGatherDevices(TORCHTITAN_STACK, [hopper])).toBeUndefined();
    expect(queuedGatherDevices(MEGATRON_STACK, [hopper])).toBeUndefined();
    expect(queuedGatherDevices(FSDP_STACK, [ampere])).toBeUndefined();
    expect(queuedGatherDevices(FSDP_STACK, [{ id: 'x', computeCapability: null, smCount: null }])).toBeUndefined();
  });

  it('keeps the overlap under hybrid sharding, where FSDP1 raises its streams', () => {
    const queuedGathers = { devices: ['h'], sharded: true, hybrid: false };
    expect(gathersQueued({ queuedGathers }, ['h', 'a'])).toBe(true);
    expect(gathersQueued({ queuedGathers, shardGroup: 4 }, ['h', 'a'])).toBe(false);
    expect(gathersQueued({ queuedGathers }, ['a'])).toBe(false);
    expect(gathersQueued({}, ['h'])).toBe(false);
  });
});

describe('shardedExposedUs, queued', () => {
  it('adds every gather twice and every reduce-scatter once, whatever the compute', () => {
    const g = [10, 20, 30];
    const r = [5, 6, 7];
    const f = [1000, 1000, 1000];
    const b = [2000, 2000, 2000];
    // Prefetched: the first gather of each pass and the last reduce-scatter only.
    expect(shardedExposedUs(g, r, f, b)).toBe(10 + 30 + 5);
    expect(shardedExposedUs(g, r, f, b, true)).toBe(2 * 60 + 18);
  });
});

describe('a ZeRO-3 step with queued collectives', () => {
  /** Eight like GPUs, four layers of 1e9 parameters, each collective 100 µs. */
  function problem(over: Partial<PlanProblem> = {}): PlanProblem {
    return likeGpuTraining({ zeroStage: 3, ...over });
  }
  const cost: CostModel = {
    linkUs: () => 0,
    allReduceUs: () => 100,
    allGatherUs: () => 100,
    reduceScatterUs: () => 100,
  };
  const sync = (p: PlanProblem) => plannerContext(p, cost).tables.gradientSyncUs([0, 1, 2, 3, 4, 5, 6, 7], 0, 4, 1, 8);
  const queuedGathers = { devices: ['m/gpu:3'], sharded: true, hybrid: false };

  it('hides all but the first gathers and the last reduce-scatter behind compute when not queued', () => {
    expect(sync(problem())).toBe(3 * 100);
  });

  it('exposes every collective of a shard group with one queued device', () => {
    expect(sync(problem({ queuedGathers }))).toBe(4 * (2 * 100 + 100));
  });
});
