/** --layout cp=N and ep=N: priced, held in memory, refused in one line, and exported (layout-groups.ts, layout.ts). */
import { describe, expect, it } from 'vitest';
import { parseLayout, priceLayout } from '../../../../src-main/core/planner/layout.js';
import { exportMegatron } from '../../../../src-main/core/planner/exports/megatron.js';
import { exportTorchPipelining } from '../../../../src-main/core/planner/exports/torch.js';
import type { PlanLayer, PlanProblem } from '../../../../src-main/core/planner/types.js';
import { checkCommand, loadFixture } from '../../../helpers/engine-flags.js';
import { shellQuote } from '../../../../src-main/core/planner/exports/common.js';
import { likeGpus } from '../../../helpers/like-gpus.js';

const { devices, links, times } = likeGpus(8);
const ACTIVATIONS = 1e8;

/** Eight like GPUs; embeddings, 8 blocks (32 heads, 8 KV heads) and a head; 8192 tokens a sample; MoE: 8 experts, top-2. */
function problem(opts: { moe?: boolean; batch?: number } = {}): PlanProblem {
  const tensor = { divides: [32, 8], forwardAllReduces: 2, backwardAllReduces: 2 };
  const names = ['embeddings', ...Array.from({ length: 8 }, (_, i) => `block.${i}`), 'head'];
  const block = (name: string): Partial<PlanLayer> =>
    name.startsWith('block.')
      ? {
          tensor: opts.moe
            ? { ...tensor, divides: [32, 8, 8], forwardAllReduces: 3, backwardAllReduces: 3, experts: 8 }
            : tensor,
          selective: { activationBytesPerSample: 5e7, recomputeUs: times(100) },
          kvBytesPerSample: 3.2e7,
          ...(opts.moe ? { experts: { params: 1.6e8, count: 8, topK: 2 } } : {}),
        }
      : {};
  return {
    layers: names.map((name) => ({
      name,
      forwardUs: times(1000),
      backwardUs: times(2000),
      params: 2e8,
      outBytesPerSample: 1e6,
      activationBytesPerSample: ACTIVATIONS,
      ...block(name),
    })),
    devices,
    links,
    mode: 'training',
    batch: opts.batch ?? 8,
    sequence: 8192,
    bytesPerParam: 16,
    zeroStage: 0,
    overheadBytes: 0,
    tensorDegrees: [1, 2, 4, 8],
  };
}

const price = (text: string, p = problem()) => priceLayout(p, parseLayout(text), { workload: 'toy' });
const need = (r: ReturnType<typeof price>, id = 'm/gpu:0'): number =>
  r.plan.memory.find((m) => m.device === id)?.neededBytes ?? NaN;

describe('--layout cp (context parallelism)', () => {
  it('splits each sample over cp GPUs: tp x cp x pp x dp = the GPUs, 1/cp of the activations a sample', () => {
    // One sample a GPU a microbatch with dp = 8; cp = 8 gives each GPU 1/8 of one sample.
    const dp = price('dp=8,mb=1');
    const cp = price('cp=8,mb=8');
    expect(cp.text).toBe('tp=1,pp=1,dp=1,zero=0,recompute=none,mb=8,schedule=1f1b,cp=8');
    expect(cp.plan.contextParallel).toBe(8);
    expect(need(dp) - need(cp)).toBeCloseTo(10 * ACTIVATIONS * (1 - 1 / 8), 0);
    // The same sample-work a GPU as dp = 8, plus the ring's passes: never faster.
    expect(cp.plan.stepUs).toBeGreaterThan(dp.plan.stepUs);
    // Throughput counts whole samples.
    expect(cp.plan.throughputSamplesPerS).toBeCloseTo(8 / (cp.plan.stepUs * 1e-6), 6);
    expect(cp.notes.join('\n')).toMatch(
      /context parallel: each sample's 8192 tokens split over cp=8 GPUs in 16 chunks \(causal load balance\); ring attention passes .* the gradient all-reduce runs over dp x cp/,
    );
    expect(price('tp=2,cp=2').text).toMatch(/^tp=2,pp=1,dp=2,.*,cp=2$/);
  });

  it('refuses, in one line, what does not divide: the GPUs, the sequence in 2·cp chunks, serving, a model without a sequence', () => {
    expect(() => price('tp=2,cp=2,dp=4')).toThrow(
      /--layout tp=2 x cp=2 x pp=1 x dp=4 does not use the plan's 8 devices: make tp x cp x pp x dp = 8/,
    );
    expect(() => price('cp=8', { ...problem(), sequence: 8200 })).toThrow(
      /^--layout cp=8: toy's 8200 tokens a sample do not split into 2 x cp = 16 equal chunks \(Megatron's causal load balance; cp that do: 1, 2, 4, 5, 10, 20, 25, 41, 50\)$/,
    );
    expect(() => price('cp=2', { ...problem(), mode: 'inference' })).toThrow(
      /--layout cp=2: .*leave cp out when serving/,
    );
    const { sequence: _, ...noSequence } = problem();
    expect(() => price('cp=2', noSequence)).toThrow(/--layout cp=2: toy is not a token sequence to split/);
  });

  it('exports --context-parallel-size with the data-parallel batch over dp alone, flags Megatron-LM takes; other engines say they run it as data parallel', () => {
    const r = price('tp=2,cp=2,dp=2,mb=2');
    const m = exportMegatron({ plan: r.plan, problem: r.problem });
    const arg = (flag: string) => m.args[m.args.indexOf(flag) + 1];
    expect(arg('--context-parallel-size')).toBe('2');
    expect(arg('--tensor-model-parallel-size')).toBe('2');
    // 8 samples, 2 microbatches, dp 2: 2 samples a microbatch a replica.
    expect(arg('--micro-batch-size')).toBe('2');
    expect(arg('--global-batch-size')).toBe('8');
    expect(checkCommand(['pretrain_gpt.py', ...m.args].map(shellQuote).join(' '), loadFixture('megatron-lm'))).toEqual(
      [],
    );
    expect(exportTorchPipelining({ plan: r.plan, problem: r.problem }).warnings.join('\n')).toMatch(
      /splits each sample's tokens over cp=2 GPUs \(context parallelism, Megatron-LM's\); .* as data parallelism/,
    );
  });
});

describe('--layout ep (expert parallelism)', () => {
  const moe = problem({ moe: true });

  it('holds expertParams/ep a GPU, with the experts’ optimizer state over tp·R/ep ranks', () => {
    const base = price('dp=8,zero=0,mb=1', moe);
    const spread = price('dp=8,zero=0,mb=1,ep=8', moe);
    expect(spread.plan.expertParallel).toBe(8);
    // 8 blocks of 1.6e8 expert parameters, 16 bytes each: 1/8 of them held.
    expect(need(base) - need(spread)).toBeCloseTo(8 * 1.6e8 * 16 * (1 - 1 / 8), -2);
    // ZeRO-1: the dense parameters' 12 bytes of optimizer state shard over the 8 replicas (embeddings, head and
    // 8 blocks' 4e7 dense: 7.2e8); the experts' over tp·8/ep = 1 expert-data-parallel rank, so not at all.
    const zero1 = price('dp=8,zero=1,mb=1,ep=8', moe);
    expect(need(zero1) - need(spread)).toBeCloseTo(-7.2e8 * 12 * (1 - 1 / 8), -2);
  });

  it('prices 2 + 2 all-to-alls a MoE block and names them', () => {
    const spread = price('dp=8,zero=0,mb=1,ep=8', moe);
    const local = price('dp=8,zero=0,mb=1,ep=1', moe);
    expect(spread.plan.stages[0]?.timeUs).toBeGreaterThan(local.plan.stages[0]?.timeUs ?? Infinity);
    expect(spread.notes.join('\n')).toMatch(
      /expert parallel: each MoE block's 8 experts over ep=8 GPUs \(1 node\), 1 a GPU; tokens dispatched and combined by all-to-alls of .* \(top-2\), 2 forward and 2 backward a block/,
    );
  });

  it('refuses, in one line, a dense model, ep not dividing the experts, not a multiple of tp, or not dividing a stage', () => {
    expect(() => price('dp=8,ep=2')).toThrow(
      /^--layout ep=2: toy has no mixture-of-experts blocks to spread; leave ep out for a dense model$/,
    );
    expect(() => price('dp=8,ep=3', moe)).toThrow(
      /--layout ep=3: ep must divide toy's 8 experts \(ep that do: 1, 2, 4, 8\)/,
    );
    expect(() => price('tp=4,dp=2,ep=2', moe)).toThrow(/--layout ep=2: ep must be a multiple of tp=4/);
    expect(() => price('tp=2,pp=2,dp=2,ep=8', moe)).toThrow(
      /--layout ep=8: ep=8 does not divide a stage's tp x cp x dp = 4 GPUs \(ep that do: 2, 4\)/,
    );
  });

  it('exports --num-experts, --moe-router-topk and --expert-model-parallel-size, flags Megatron-LM takes', () => {
    const r = price('tp=2,dp=4,mb=2,ep=8', moe);
    const m = exportMegatron({ plan: r.plan, problem: r.problem });
    const arg = (flag: string) => m.args[m.args.indexOf(flag) + 1];
    expect(arg('--num-experts')).toBe('8');
    expect(arg('--moe-router-topk')).toBe('2');
    expect(arg('--expert-model-parallel-size')).toBe('8');
    expect(arg('--expert-tensor-parallel-size')).toBe('1');
    expect(checkCommand(['pretrain_gpt.py', ...m.args].map(shellQuote).join(' '), loadFixture('megatron-lm'))).toEqual(
      [],
    );
    // Without ep: the experts over the tensor-parallel group, as before.
    const folded = exportMegatron({ plan: price('tp=2,dp=4,mb=2', moe).plan, problem: r.problem }).args;
    expect(folded[folded.indexOf('--expert-model-parallel-size') + 1]).toBe('2');
  });
});
