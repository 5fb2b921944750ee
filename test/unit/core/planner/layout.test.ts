/** A given layout ("tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8") priced exactly (layout.ts). */
import { describe, expect, it } from 'vitest';
import { alphaBetaCostModel } from '../../../../src-main/core/planner/cost/cost-model.js';
import { parseLayout, priceLayout, scheduleText } from '../../../../src-main/core/planner/layout.js';
import { exportMegatron } from '../../../../src-main/core/planner/exports/megatron.js';
import { searchRanked } from '../../../../src-main/core/planner/search/plan-ranking.js';
import type { PlanProblem } from '../../../../src-main/core/planner/types.js';
import { likeGpus } from '../../../helpers/like-gpus.js';
import { TRAINING_DEFAULTS } from '../../../helpers/two-gpu-problem.js';
import { checkCommand, loadFixture } from '../../../helpers/engine-flags.js';
import { shellQuote } from '../../../../src-main/core/planner/exports/common.js';
import { timelineIn } from '../../../../src-main/core/planner/plan-timeline.js';

/** Eight like GPUs; embeddings, 8 blocks (32 heads, 8 KV heads) and a head. */
function problem(memoryGB = 80): PlanProblem {
  const { devices, links, times } = likeGpus(8, { memoryGB });
  const tensor = { divides: [32, 8], forwardAllReduces: 2, backwardAllReduces: 2 };
  const names = ['embeddings', ...Array.from({ length: 8 }, (_, i) => `block.${i}`), 'head'];
  return {
    layers: names.map((name) => ({
      name,
      forwardUs: times(1000),
      backwardUs: times(2000),
      params: 2e8,
      outBytesPerSample: 1e6,
      activationBytesPerSample: 1e8,
      ...(name.startsWith('block.')
        ? { tensor, selective: { activationBytesPerSample: 5e7, recomputeUs: times(100) } }
        : {}),
    })),
    devices,
    links,
    ...TRAINING_DEFAULTS,
    tensorDegrees: [1, 2, 4, 8],
  };
}

const price = (text: string, p = problem()) => priceLayout(p, parseLayout(text), { workload: 'toy' });

describe('--layout', () => {
  it('prices exactly the layout given: blocks split evenly, tp x dp devices a stage', () => {
    const r = price('tp=2,pp=2,dp=2,zero=1,recompute=full,mb=4');
    expect(r.text).toBe('tp=2,pp=2,dp=2,zero=1,recompute=full,mb=4,schedule=1f1b');
    expect(r.plan.microbatches).toBe(4);
    expect(r.plan.recompute).toBe('full');
    expect(r.plan.zeroStage).toBe(1);
    expect(r.plan.stages.map((s) => [s.from, s.to, s.devices.length, s.tp])).toEqual([
      [0, 5, 4, 2],
      [5, 10, 4, 2],
    ]);
  });

  it('fills dp from the devices left and picks the best microbatch count when mb is not given', () => {
    const r = price('tp=4');
    expect(r.text).toMatch(/^tp=4,pp=1,dp=2,zero=0,recompute=none,mb=\d+,schedule=1f1b$/);
    expect(r.plan.stages).toHaveLength(1);
  });

  it('is priced when it does not fit, with the reason', () => {
    const r = price('tp=1,pp=1,dp=8,zero=0', problem(10));
    expect(r.plan.feasible).toBe(false);
    expect(r.plan.reasons.join('\n')).toMatch(/needs .* GiB/);
  });

  it('is never faster than the search’s best when the search covers it', () => {
    const p = problem();
    const best = searchRanked(p, alphaBetaCostModel(p), {
      topN: 5,
      offload: 'no',
      settings: null,
      recompute: 'auto',
      zero: 'auto',
    }).best?.plan;
    for (const text of ['tp=2,pp=2,dp=2,zero=1', 'tp=1,pp=1,dp=8,zero=3', 'tp=8,zero=1,recompute=selective'])
      expect(price(text).plan.stepUs).toBeGreaterThanOrEqual((best?.stepUs as number) * (1 - 1e-9));
  });

  it('refuses a layout that does not fit the model or the devices in one line naming what works', () => {
    const refusals: [string, string][] = [
      ['tp=3,pp=1', 'degrees that do: 1, 2, 4, 8'],
      ['tp=1,pp=3,dp=1', 'does not use the plan'],
      ['tp=2,pp=3', 'make tp x pp x dp = 8'],
      ['tp=1,pp=8,dp=1', ''],
      ['pp=16,dp=1,tp=1', 'make tp x pp x dp = 8'],
      ['tp=2,pp=2,dp=2,zero=3', 'torchtitan runs FSDP with pipelines (give --stack torchtitan), else zero=1'],
      ['tp=2,foo=1', 'unknown key "foo"; keys: tp, pp, dp, zero, recompute, mb, schedule'],
      [
        'tp=2,mb=3',
        "mb=3 does not divide each replica's 2 samples (the batch of 8 over dp=4): a microbatch holds whole samples (mb that do: 1, 2)",
      ],
      ['tp=1,pp=1,dp=8,mb=2', "mb=2 does not divide each replica's 1 sample"],
      ['tp=two', 'tp takes a whole number'],
      ['zero=5', 'zero takes 0, 1, 2, 3, fsdp (= 3) or fsdp-grad-op (= 2)'],
    ];
    for (const [text, words] of refusals) {
      if (words === '') {
        expect(() => price(text)).not.toThrow();
        continue;
      }
      let message = '';
      try {
        price(text);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message, text).toContain(words);
      expect(message.split('\n'), text).toHaveLength(1);
    }
  });

  it('prices ZeRO-3 with a pipeline under the stack that runs it (torchtitan: FSDP with pipelines)', () => {
    const r = priceLayout(problem(), parseLayout('tp=2,pp=2,dp=2,zero=3'), { workload: 'toy', stack: 'torchtitan' });
    expect(r.plan.stages).toHaveLength(2);
    expect(r.plan.stepUs).toBeGreaterThan(0);
  });

  it('names the tensor-parallel degrees that divide the heads', () => {
    const p = { ...problem(), devices: problem().devices.slice(0, 3) };
    expect(() => price('tp=3,pp=1,dp=1', p)).toThrow(
      "must divide toy's 32 attention heads and 8 KV heads (degrees that do: 1, 2, 4, 8)",
    );
  });

  it('names the layer count when pp exceeds it', () => {
    const many = problem();
    const p = {
      ...many,
      layers: many.layers.slice(0, 4).map((l, i) => ({ ...l, name: `l${i}` })),
      devices: many.devices,
    };
    expect(() => price('tp=1,pp=8,dp=1', p)).toThrow('--layout pp=8: toy has 4 layers; give pp=4 or less');
  });

  it('searches the shape on devices of two kinds: each stage on one kind, more layers on the faster', () => {
    const p = problem();
    // Devices 4-7 are a slower GPU with less memory.
    const slow = new Set(p.devices.slice(4).map((d) => d.id));
    const mixed: PlanProblem = {
      ...p,
      devices: p.devices.map((d) => (slow.has(d.id) ? { ...d, name: 'L4', memoryBytes: 40e9 } : d)),
      layers: p.layers.map((l) => ({
        ...l,
        forwardUs: Object.fromEntries(Object.keys(l.forwardUs).map((id) => [id, slow.has(id) ? 3000 : 1000])),
        backwardUs: Object.fromEntries(Object.keys(l.backwardUs).map((id) => [id, slow.has(id) ? 6000 : 2000])),
      })),
    };
    const r = price('tp=1,pp=2,dp=4,zero=1,mb=2', mixed);
    const kinds = r.plan.stages.map((s) => new Set(s.devices.map((id) => slow.has(id))));
    expect(kinds.every((k) => k.size === 1)).toBe(true);
    const layers = (s: { from: number; to: number }): number => s.to - s.from;
    const fast = r.plan.stages.find((s) => !slow.has(s.devices[0] as string));
    const slowStage = r.plan.stages.find((s) => slow.has(s.devices[0] as string));
    expect(layers(fast as { from: number; to: number })).toBeGreaterThan(
      layers(slowStage as { from: number; to: number }),
    );
    expect(r.notes.join('\n')).toContain('of 2 kinds');
    expect(r.plan.microbatches).toBe(2);
  });
});

describe('--layout pp that does not divide the transformer blocks', () => {
  /** The toy's 8 blocks over 3 GPUs: the ends lighter, [2, 4, 2] (embedding and head weighed one block each). */
  const uneven = (memoryGB = 80, extra = '') =>
    price(`tp=1,pp=3,dp=1,mb=4${extra}`, { ...problem(memoryGB), devices: problem(memoryGB).devices.slice(0, 3) });

  it('is priced with the ends lighter, and says how many blocks each stage holds', () => {
    const r = uneven();
    expect(r.plan.stages.map((s) => s.blocks)).toEqual([2, 4, 2]);
    expect(r.plan.stages.map((s) => [s.from, s.to])).toEqual([
      [0, 3],
      [3, 7],
      [7, 10],
    ]);
    expect(r.notes.join('\n')).toContain('stages of 2, 4, 2 blocks');
    const rows = new Set(timelineIn(r.context, r.plan).map((e) => e.device));
    expect([...rows].some((d) => d.endsWith('(4 blocks)'))).toBe(true);
  });

  it('is paced by its slowest stage: the step is at least every microbatch through it, plus the others once', () => {
    const r = uneven();
    const times = r.plan.stages.map((s) => s.timeUs);
    const slowest = Math.max(...times);
    expect(times.indexOf(slowest)).toBe(1);
    const sum = times.reduce((a, b) => a + b, 0);
    expect(r.plan.stepUs).toBeGreaterThanOrEqual((r.plan.microbatches - 1) * slowest + sum - 1e-6);
    // The middle stage's 4 blocks take longer than either end's 2 blocks and embedding or head.
    expect(slowest).toBeGreaterThan(Math.min(...times));
  });

  it('is checked for memory stage by stage: the heaviest stage decides whether it fits', () => {
    const need = (r: ReturnType<typeof uneven>, s: number) =>
      Math.max(...r.plan.memory.filter((m) => r.plan.stages[s]?.devices.includes(m.device)).map((m) => m.neededBytes));
    const roomy = uneven();
    const needs = [0, 1, 2].map((s) => need(roomy, s));
    const heaviest = needs.indexOf(Math.max(...needs));
    const second = Math.max(...needs.filter((_, s) => s !== heaviest));
    // Room for every stage but the heaviest one.
    const tight = uneven((second + Math.max(...needs)) / 2 / 1e9);
    expect(tight.plan.feasible).toBe(false);
    const named = tight.plan.reasons.join('\n');
    for (const [s, stage] of tight.plan.stages.entries())
      for (const d of stage.devices) expect(named.includes(d), `${d} of stage ${s}`).toBe(s === heaviest);
  });

  it('exports Megatron-LM first and last stage layer counts its parser takes', () => {
    const r = uneven();
    const args = exportMegatron({ plan: r.plan, problem: r.problem }).args;
    const flag = (f: string) => args[args.indexOf(f) + 1];
    expect(flag('--decoder-first-pipeline-num-layers')).toBe('2');
    expect(flag('--decoder-last-pipeline-num-layers')).toBe('2');
    expect(flag('--num-layers')).toBe('8');
    const line = ['pretrain_gpt.py', ...args].map(shellQuote).join(' ');
    expect(checkCommand(line, loadFixture('megatron-lm'))).toEqual([]);
  });

  it('refuses, in one line, a pp beyond the blocks, and blocks that do not split into pp x vp chunks', () => {
    const nine = { ...problem(), devices: likeGpus(9).devices };
    expect(() => price('tp=1,pp=9,dp=1', nine)).toThrow(
      /^--layout pp=9: toy has 8 transformer blocks, one a stage at least; give pp=8 or less$/,
    );
    expect(() => uneven(80, ',vp=2')).toThrow(
      /^--layout vp=2: toy's 8 transformer blocks do not split into pp x vp = 6/,
    );
  });
});

describe('--layout vp (interleaved 1F1B)', () => {
  it('prices the interleaved bubble: rank times over v in the fill and drain, v times the cut transfers', () => {
    // dp = 1: no gradient synchronization in the step.
    const plain = price('tp=4,pp=2,dp=1,zero=1,mb=4');
    const inter = price('tp=4,pp=2,dp=1,zero=1,mb=4,vp=2');
    expect(inter.text).toBe('tp=4,pp=2,dp=1,zero=1,recompute=none,mb=4,schedule=1f1b,vp=2');
    expect(inter.plan.virtualStages).toBe(2);
    expect(inter.notes.join('\n')).toContain('rank i runs virtual stages i, i+2, ... of 2 blocks each');
    expect(plain.plan.virtualStages).toBeUndefined();
    // The same ranks, layers and stage times; only the schedule differs.
    expect(inter.plan.stages.map((s) => [s.from, s.to, s.timeUs])).toEqual(
      plain.plan.stages.map((s) => [s.from, s.to, s.timeUs]),
    );
    const t = plain.plan.stages.map((s) => s.timeUs);
    const sum = (t[0] as number) + (t[1] as number);
    const max = Math.max(...t);
    // The one cut's time c, from the plain step Σt + 2c + (m − 1)·max(t, c) (the cut is faster than a stage here).
    const c = (plain.plan.stepUs - sum - 3 * max) / 2;
    expect(c).toBeGreaterThan(0);
    expect(2 * c).toBeLessThan(max);
    // Interleaved: Σt/2 + 2·2·c + (4 − 1/2)·max.
    expect(inter.plan.stepUs).toBeCloseTo(sum / 2 + 4 * c + 3.5 * max, 6);
    expect(inter.plan.stepUs).toBeLessThan(plain.plan.stepUs);
    expect(inter.plan.bubbleFraction).toBeLessThan(plain.plan.bubbleFraction);
  });

  it('holds p + (p − 1)/v microbatches of the first rank’s activations (Korthikanti et al.)', () => {
    const batch16 = { ...problem(), batch: 16 };
    const plain = price('tp=1,pp=2,dp=4,zero=1,mb=4', batch16);
    const inter = price('tp=1,pp=2,dp=4,zero=1,mb=4,vp=2', batch16);
    const need = (r: ReturnType<typeof price>, id: string) => r.plan.memory.find((m) => m.device === id)?.neededBytes;
    // Rank 0: embeddings and 4 blocks, 1e8 bytes a sample each, 1 sample a device a microbatch: 5e8 a microbatch.
    // Plain 1F1B keeps p = 2 microbatches; interleaved 2 + 1/2.
    expect((need(inter, 'm/gpu:0') as number) - (need(plain, 'm/gpu:0') as number)).toBeCloseTo(0.5 * 5e8, 0);
    // The last rank: plain 1, interleaved (0 + 2 + 1)/2 = 1.5.
    expect((need(inter, 'm/gpu:4') as number) - (need(plain, 'm/gpu:4') as number)).toBeCloseTo(0.5 * 5e8, 0);
  });

  it('refuses, in one line, blocks that do not split into pp x vp chunks, mb not a multiple of pp, and serving', () => {
    expect(() => price('pp=2,dp=4,zero=1,vp=3')).toThrow(
      /--layout vp=3: toy's 8 transformer blocks do not split into pp x vp = 6 equal chunks \(vp that do with pp=2: 1, 2, 4\)/,
    );
    expect(() => price('pp=2,dp=4,zero=1,mb=1,vp=2')).toThrow(
      /--layout vp=2: interleaving needs mb a multiple of pp=2; got mb=1/,
    );
    expect(() => price('pp=2,dp=4,zero=1,vp=2,schedule=gpipe')).toThrow(/use schedule=1f1b/);
    expect(() => price('pp=1,dp=8,vp=2')).toThrow(/give pp=2 or more/);
    expect(() => price('pp=2,dp=4,vp=2', { ...problem(), mode: 'inference' })).toThrow(/leave vp out when serving/);
  });

  it('picks the best microbatch count among multiples of pp when mb is not given', () => {
    const r = price('tp=1,pp=2,dp=4,zero=1,vp=2');
    expect(r.plan.microbatches % 2).toBe(0);
  });

  it('names the schedule and exports Megatron-LM’s layers per virtual stage', () => {
    const r = price('tp=1,pp=2,dp=4,zero=1,mb=2,vp=2');
    expect(scheduleText(r.plan)).toBe('interleaved 1F1B, 2 virtual stages');
    expect(scheduleText(price('pp=2,dp=4,zero=1,mb=2').plan)).toBe('1F1B');
    const args = exportMegatron({ plan: r.plan, problem: r.problem }).args;
    expect(args[args.indexOf('--num-layers-per-virtual-pipeline-stage') + 1]).toBe('2');
    expect(args[args.indexOf('--pipeline-model-parallel-size') + 1]).toBe('2');
    const plainArgs = exportMegatron({ plan: price('pp=2,dp=4,zero=1,mb=2').plan, problem: r.problem }).args;
    expect(plainArgs).not.toContain('--num-layers-per-virtual-pipeline-stage');
  });
});

describe('--layout microbatches (each replica’s share of the batch)', () => {
  /** 128 like GPUs; 64 blocks; a batch of 1,024: 512 samples a replica at pp=64, dp=2. */
  function deep(batch = 1024): PlanProblem {
    const { devices, links, times } = likeGpus(128);
    const names = ['embeddings', ...Array.from({ length: 64 }, (_, i) => `block.${i}`), 'head'];
    return {
      layers: names.map((name) => ({
        name,
        forwardUs: times(100),
        backwardUs: times(200),
        params: 1e6,
        outBytesPerSample: 1e5,
        activationBytesPerSample: 1e6,
      })),
      devices,
      links,
      mode: 'training',
      batch,
      bytesPerParam: 16,
      zeroStage: 0,
      overheadBytes: 0,
      tensorDegrees: [1],
    };
  }

  it('runs 512 microbatches of one sample on 64 stages when each replica has 512 samples (Megatron-LM’s global / (micro-batch x dp))', () => {
    const r = price('tp=1,pp=64,dp=2,zero=1', deep());
    expect(r.plan.microbatches).toBe(512);
    expect(r.text).toBe('tp=1,pp=64,dp=2,zero=1,recompute=none,mb=512,schedule=1f1b');
    const args = exportMegatron({ plan: r.plan, problem: r.problem }).args;
    expect(args[args.indexOf('--micro-batch-size') + 1]).toBe('1');
    expect(args[args.indexOf('--global-batch-size') + 1]).toBe('1024');
  });

  it('tries every count that divides the share, and refuses a share that is not whole or a count that does not divide it', () => {
    // 96 samples a replica: 96 microbatches is past the search's 64 and divides the share.
    expect(price('tp=1,pp=64,dp=2,zero=1,mb=96', deep(192)).plan.microbatches).toBe(96);
    expect(() => price('tp=1,pp=64,dp=2,zero=1', deep(1023))).toThrow(
      /^--layout dp=2 does not divide the batch of 1023: each replica runs whole samples; give a batch that is a multiple of 2$/,
    );
    expect(() => price('tp=1,pp=64,dp=2,zero=1,mb=64', deep(192))).toThrow(
      "--layout mb=64 does not divide each replica's 96 samples (the batch of 192 over dp=2): a microbatch holds whole samples (mb that do: 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 96)",
    );
  });
});
