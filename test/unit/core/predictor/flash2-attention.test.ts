/**
 * FlashAttention-2 on Hopper (issue 59): a stack whose rule runs FlashAttention-2 (PyTorch SDPA's
 * flash backend, flash-attn 2.x) gets the architecture's `attention` fraction times FlashAttention-2's
 * rate over FlashAttention-3's (their H100 table) for its fused attention, forward and backward;
 * Megatron (Transformer Engine's cuDNN attention) keeps `attention`.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { getCatalogEntry } from '../../../../src-main/core/catalog/index.js';
import { datasheetFor, virtualDevice } from '../../../../src-main/core/planner/cost/datasheets.js';
import { datasheetCandidate } from '../../../../src-main/core/planner/problem/datasheet-candidate.js';
import { TRAINING_STACK_RULES } from '../../../../src-main/core/planner/stacks/stacks.js';
import { DatasheetPredictor } from '../../../../src-main/core/predictor/datasheet-predictor.js';
import { attentionPeakShare } from '../../../../src-main/core/engines/attention-kernels.js';
import { architectureEfficiency, memoryEfficiency } from '../../../../src-main/core/predictor/kernel-efficiency.js';
import {
  FUSED_ATTENTION_KERNELS,
  type FusedAttentionKernel,
} from '../../../../src-main/core/predictor/attention-kernels.js';
import type { OpQuery } from '../../../../src-main/core/predictor/types.js';
import { attentionQuery } from '../../../helpers/attention-query.js';
import { planWorkload, type PlanRequest } from '../../../../src-main/services/plan/plan-service.js';

const H100 = virtualDevice('H100 SXM5');
const A100 = virtualDevice('A100 SXM4 80GB');
const hopper = architectureEfficiency('Hopper');
/** Llama-style attention at 8k tokens: 32 heads of 128, compute-bound on any GPU. */
const SHAPE = { batch: 2, heads: 32, seq: 8192, headDim: 128 };
const attention = (device = H100): OpQuery => attentionQuery(device, SHAPE);
const gemm: OpQuery = {
  op: 'MatMul',
  family: 'gemm',
  shape: { B: 1, M: 8192, N: 4096, K: 4096 },
  dtype: 'bf16',
  flops: 2 * 8192 * 4096 * 4096,
  bytes: (8192 * 4096 * 2 + 4096 * 4096) * 2,
  device: H100.features,
};

function priced(device: typeof H100, fused: FusedAttentionKernel | undefined, q: OpQuery = attention(device)) {
  const p = new DatasheetPredictor(device.datasheet, {
    causalAttention: true,
    training: true,
    ...(fused ? { fusedAttention: fused } : {}),
  });
  const out = p.predict([q])[0];
  return { forward: out?.timeUs ?? NaN, backward: out?.backwardUs ?? NaN };
}

describe('FlashAttention-2 on Hopper', () => {
  it("takes FlashAttention-2's rate over FlashAttention-3's from their H100 table at the sequence's keys", () => {
    const ratio = (keys: number): number =>
      (attentionPeakShare('Hopper', 'fa2', keys, true) ?? NaN) /
      (attentionPeakShare('Hopper', 'fa3', keys, true) ?? NaN);
    // FlashAttention-3's paper, Figure 5, causal, head dim 128: 298 and 521 TFLOP/s at 2k, 333 and 602 at 8k.
    expect(ratio(2048)).toBeCloseTo(298 / 521, 6);
    expect(ratio(8192)).toBeCloseTo(333 / 602, 6);
    expect(attentionPeakShare('Ampere', 'fa2', 2048, true)).toBeUndefined();
  });

  it("prices a Hopper stack's FlashAttention-2 forward and backward at FlashAttention-3's rate over its own the time", () => {
    const newest = priced(H100, 'newest');
    const flash2 = priced(H100, 'flash-attention-2');
    const ratio =
      (attentionPeakShare('Hopper', 'fa3', SHAPE.seq, true) ?? NaN) /
      (attentionPeakShare('Hopper', 'fa2', SHAPE.seq, true) ?? NaN);
    expect(ratio).toBeCloseTo(602 / 333, 6);
    const launch = hopper.kernelUs;
    expect((flash2.forward - launch) / (newest.forward - launch)).toBeCloseTo(ratio, 6);
    expect((flash2.backward - launch) / (newest.backward - launch)).toBeCloseTo(ratio, 6);
    expect(priced(H100, undefined)).toEqual(newest);
  });

  it('changes nothing on Ampere, nor any other kernel', () => {
    expect(priced(A100, 'flash-attention-2')).toEqual(priced(A100, 'newest'));
    expect(priced(H100, 'flash-attention-2', gemm).forward).toBe(priced(H100, 'newest', gemm).forward);
  });

  it("is what a datasheet candidate prices in training only, and what each stack's rule names", () => {
    const model = getCatalogEntry('llama-3.1-8b');
    const time = (mode: 'training' | 'inference', fused?: FusedAttentionKernel): number => {
      const c = datasheetCandidate(H100, { model, mode, fusedAttention: fused }, undefined);
      return (c.predictor as DatasheetPredictor).predict([attention()])[0]?.timeUs ?? NaN;
    };
    expect(time('training', 'flash-attention-2')).toBeGreaterThan(time('training', 'newest'));
    expect(time('inference', 'flash-attention-2')).toBe(time('inference'));
    for (const s of Object.values(TRAINING_STACK_RULES)) expect(FUSED_ATTENTION_KERNELS).toContain(s.attention.fused);
    expect(TRAINING_STACK_RULES.megatron.attention.fused).toBe('newest');
    for (const s of ['fsdp', 'torchtitan', 'deepspeed'] as const)
      expect(TRAINING_STACK_RULES[s].attention.fused).toBe('flash-attention-2');
  });

  it('makes the same layout on datasheet H100s slower under --stack fsdp than without a stack, not on A100s', () => {
    const db = openDatabase(':memory:');
    const req = (gpu: string, stack?: 'fsdp'): PlanRequest => ({
      workload: 'gpt2-medium',
      devices: 'none',
      virtual: [`8x${gpu}`],
      mode: 'training',
      batch: 16,
      seq: 1024,
      dtype: 'bf16',
      offload: 'no',
      ...(stack ? { stack } : {}),
      layout: 'tp=1,pp=1,dp=8,zero=0,recompute=none,mb=1',
      search: false,
    });
    // The fsdp rule reduces gradients in DDP's 25 MB buckets, as a plan without a stack does. It differs in
    // its attention kernel and in its optimizer step on the GPUs (cost/optimizer-step.ts: 92 B a parameter
    // against the 80 of the script a plan without a stack emits), a memory-bound pass at each GPU's achieved
    // bandwidth: on A100s the attention is the same, so the difference is that step alone, and on H100s
    // that step, scaled by the bandwidths, leaves the attention's share (about 2.6% of a step that now holds
    // both optimizer steps).
    const step = (gpu: string, stack?: 'fsdp'): number => planWorkload(db, req(gpu, stack)).layout?.stepUs ?? NaN;
    const rate = (gpu: string): number => {
      const ds = datasheetFor(gpu);
      return ds ? ds.memory.bandwidthGBps * memoryEfficiency(ds.memory.type) : NaN;
    };
    const a100Optimizer = step('A100 SXM4 80GB', 'fsdp') - step('A100 SXM4 80GB');
    expect(a100Optimizer).toBeGreaterThan(0);
    const h100Optimizer = (a100Optimizer * rate('A100 SXM4 80GB')) / rate('H100 SXM5');
    expect(step('H100 SXM5', 'fsdp') - h100Optimizer).toBeGreaterThan(step('H100 SXM5') * 1.02);
  });
});
