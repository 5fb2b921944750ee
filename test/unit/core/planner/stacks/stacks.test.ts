/**
 * The training stacks' rules (core/planner/stacks/): what a request restricted to each may search,
 * the layouts each refuses, and the gradient synchronization each is priced with.
 */
import { describe, expect, it } from 'vitest';
import { SELECTIVE_KINDS } from '../../../../../src-main/core/planner/memory/op-checkpoint.js';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import { TRAINING_STACK_NAMES } from '../../../../../src-main/core/planner/stacks/stack-names.js';
import { gradientBucketBytes } from '../../../../../src-main/core/planner/stacks/stack-rule.js';
import {
  TRAINING_STACK_RULES,
  gradientSyncOf,
  stackAssumes,
  stackLayoutRefusal,
  stackOffload,
  stackRecompute,
  stackTensorDegrees,
  stackZeroStages,
} from '../../../../../src-main/core/planner/stacks/stacks.js';
import type { PlanProblem } from '../../../../../src-main/core/planner/types.js';
import { twoGpuProblem } from '../../../../helpers/two-gpu-problem.js';

const { megatron, torchtitan, fsdp, deepspeed } = TRAINING_STACK_RULES;

describe('the stack rules', () => {
  it('has one rule per name, each naming its sources and its launcher', () => {
    expect(Object.keys(TRAINING_STACK_RULES).sort()).toEqual([...TRAINING_STACK_NAMES].sort());
    for (const name of TRAINING_STACK_NAMES) {
      const rule = TRAINING_STACK_RULES[name];
      expect(rule.name).toBe(name);
      expect(rule.sources.length).toBeGreaterThan(0);
      expect(['megatron', 'torch', 'deepspeed']).toContain(rule.exports);
      // A stack pipelines only at stages it runs.
      for (const z of rule.pipelineZeroStages) expect(rule.sharding[z]).toBeDefined();
      expect(rule.pipelineParallel || rule.pipelineZeroStages.length === 0).toBe(true);
    }
  });

  it('states how each splits the vocabulary under tensor parallelism, and what its selective recomputation keeps', () => {
    for (const name of TRAINING_STACK_NAMES) {
      const rule = TRAINING_STACK_RULES[name];
      expect(rule.vocabParallel !== null).toBe(rule.tensorParallel);
      expect(Object.keys(SELECTIVE_KINDS)).toContain(rule.selective);
    }
    expect(TRAINING_STACK_RULES.torchtitan.selective).toBe('op-policy');
    expect(TRAINING_STACK_RULES.megatron.selective).toBe('attention-core');
  });

  it('searches the ZeRO stages each runs: FSDP as ZeRO-3, Megatron without ZeRO-2, DeepSpeed all four', () => {
    expect(stackZeroStages(fsdp, undefined)).toEqual([0, 2, 3]);
    expect(stackZeroStages(megatron, undefined)).toEqual([0, 1, 3]);
    expect(stackZeroStages(deepspeed, undefined)).toEqual([0, 1, 2, 3]);
    expect(stackZeroStages(torchtitan, 3)).toEqual([3]);
    expect(() => stackZeroStages(megatron, 2)).toThrow(/does not run ZeRO-2/);
    expect(() => stackZeroStages(fsdp, 1)).toThrow(/does not run ZeRO-1/);
  });

  it('keeps recomputation, tensor parallelism and offload to what each offers', () => {
    expect(stackRecompute(megatron, 'auto')).toEqual(['selective', 'full']);
    expect(stackRecompute(fsdp, 'auto')).toEqual(['full']);
    expect(stackRecompute(deepspeed, 'none')).toBe('none');
    expect(() => stackRecompute(deepspeed, 'selective')).toThrow(/selective recomputation/);
    expect(stackTensorDegrees(fsdp, undefined)).toEqual([1]);
    expect(stackTensorDegrees(megatron, [1, 2, 4])).toEqual([1, 2, 4]);
    expect(() => stackTensorDegrees(deepspeed, [1, 2])).toThrow(/tensor parallelism/);
    expect(stackOffload(torchtitan, 'auto')).toBe('no');
    expect(stackOffload(deepspeed, 'auto')).toBe('auto');
    expect(() => stackOffload(fsdp, 'yes')).toThrow(/optimizer offload/);
  });

  it('refuses a layout outside what the stack runs, and takes one inside it', () => {
    expect(stackLayoutRefusal(fsdp, { tp: 2, pp: 1 })).toMatch(/tensor parallelism/);
    expect(stackLayoutRefusal(fsdp, { tp: 1, pp: 2 })).toMatch(/pipeline parallelism/);
    expect(stackLayoutRefusal(deepspeed, { tp: 1, pp: 4, vp: 2 })).toMatch(/interleaved/);
    expect(stackLayoutRefusal(deepspeed, { tp: 1, pp: 2, zero: 3 })).toMatch(/ZeRO-3 with a pipeline/);
    expect(stackLayoutRefusal(megatron, { tp: 1, pp: 1, zero: 2 })).toMatch(/ZeRO-2/);
    expect(stackLayoutRefusal(fsdp, { tp: 1, pp: 1, recompute: 'selective' })).toMatch(/selective/);
    expect(stackLayoutRefusal(megatron, { tp: 4, pp: 8, vp: 5, zero: 1, recompute: 'selective' })).toBeNull();
    expect(stackLayoutRefusal(torchtitan, { tp: 8, pp: 1, zero: 3, recompute: 'full' })).toBeNull();
  });

  it('states what it runs and how it reduces gradients', () => {
    expect(stackAssumes(fsdp)).toMatch(/^DP at ZeRO-0\/ZeRO-2\/ZeRO-3/);
    expect(stackAssumes(megatron)).toMatch(/^TP\+PP\+DP/);
    expect(stackAssumes(deepspeed)).toMatch(/gradient reduction after the backward pass/);
    expect(stackAssumes(megatron)).toMatch(
      /tensor-parallel collectives overlapped with their GEMMs \(--tp-comm-overlap/,
    );
    expect(stackAssumes(torchtitan)).toMatch(/tensor-parallel collectives not overlapped/);
    expect(stackAssumes(torchtitan)).toMatch(
      /attention by FlashAttention-2 \(slower than cuDNN and FlashAttention-3 on Hopper\)$/,
    );
    expect(stackAssumes(megatron)).toMatch(/attention by the GPU's newest fused kernel/);
    expect(stackAssumes(fsdp)).toMatch(/optimizer step on the GPUs: 92 bytes of memory traffic a parameter/);
    expect(stackAssumes(torchtitan)).toMatch(/optimizer step on the GPUs: 40 bytes/);
    expect(stackAssumes(fsdp)).toMatch(/; ZeRO-3 gathers and reduce-scatters not hidden on Hopper and later/);
    expect(stackAssumes(torchtitan)).not.toMatch(/not hidden/);
  });

  it("sizes Megatron's bucket max(40M, 1M x DP) parameters, torch DDP's 25 MB", () => {
    expect(gradientBucketBytes(megatron.gradientSync, 8)).toBe(80e6);
    expect(gradientBucketBytes(megatron.gradientSync, 64)).toBe(128e6);
    expect(gradientBucketBytes(fsdp.gradientSync, 64)).toBe(25 * 2 ** 20);
  });
});

/** Two GPUs, four layers of 1e8 parameters (2e8 gradient bytes each), a 100 GB/s link with no latency. */
function problem(forwardUs: number, gradientSync?: PlanProblem['gradientSync']): PlanProblem {
  const p = twoGpuProblem(
    {
      forwardUs: { a: forwardUs, b: forwardUs },
      names: ['G', 'G'],
      memoryBytes: 80e9,
      link: { alphaUs: 0, gbps: 100, kind: 'NV' },
    },
    { batch: 2, zeroStage: 1 },
  );
  return gradientSync ? { ...p, gradientSync } : p;
}

// A ring all-reduce of S bytes over two devices at 100 GB/s: S / 1e5 µs.
const allReduceUs = (bytes: number): number => bytes / 1e5;
const syncUs = (p: PlanProblem): number => plannerContext(p).tables.gradientSyncUs([0, 1], 0, 4, 1, 2);

describe("each stack's gradient synchronization", () => {
  it('DeepSpeed below stage 3 (overlap_comm unset) exposes the whole reduction, whatever the backward', () => {
    expect(syncUs(problem(1000, gradientSyncOf(deepspeed)))).toBeCloseTo(allReduceUs(8e8), 6);
  });

  it("Megatron's --overlap-grad-reduce hides it but for its last bucket of 40M parameters", () => {
    // 8e8 gradient bytes against 4 x 2000 µs of backward: only the last 80 MB bucket stays.
    expect(syncUs(problem(1000, gradientSyncOf(megatron)))).toBeCloseTo(allReduceUs(80e6), 6);
  });

  it('FSDP and torchtitan price as torch DDP, as plans without a stack do', () => {
    expect(syncUs(problem(1000, gradientSyncOf(fsdp)))).toBeCloseTo(syncUs(problem(1000)), 6);
    expect(syncUs(problem(100, gradientSyncOf(torchtitan)))).toBeCloseTo(syncUs(problem(100)), 6);
  });
});
