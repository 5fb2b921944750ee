/** A given layout ("tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8") priced exactly (layout.ts). */
import { describe, expect, it } from 'vitest';
import { alphaBetaCostModel } from '../../../../src-main/core/planner/cost/cost-model.js';
import { parseLayout, priceLayout } from '../../../../src-main/core/planner/layout.js';
import { searchRanked } from '../../../../src-main/core/planner/search/plan-ranking.js';
import type { PlanProblem } from '../../../../src-main/core/planner/types.js';

/** Eight like GPUs; embeddings, 8 blocks (32 heads, 8 KV heads) and a head. */
function problem(memoryGB = 80): PlanProblem {
  const ids = Array.from({ length: 8 }, (_, i) => `m/gpu:${i}`);
  const times = (us: number): Record<string, number> => Object.fromEntries(ids.map((id) => [id, us]));
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
    devices: ids.map((id) => ({
      id,
      name: 'H100',
      kind: 'gpu',
      machine: 'm',
      memoryBytes: memoryGB * 1e9,
      estimate: 'datasheet',
    })),
    links: ids.flatMap((a, i) => ids.slice(i + 1).map((b) => ({ a, b, alphaUs: 5, gbps: 200, kind: 'NV' }))),
    mode: 'training',
    batch: 8,
    bytesPerParam: 16,
    zeroStage: 0,
    overheadBytes: 0,
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
      ['tp=2,pp=2,dp=2,zero=3', 'DeepSpeed runs ZeRO stages 2 and 3 without pipeline parallelism; use zero=1'],
      ['tp=2,foo=1', 'unknown key "foo"; keys: tp, pp, dp, zero, recompute, mb, schedule'],
      ['tp=2,mb=3', 'mb=3 does not divide the batch of 8 (mb that do: 1, 2, 4, 8)'],
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

  it('names the transformer blocks when pp does not divide them', () => {
    const p = { ...problem(), devices: problem().devices.slice(0, 3) };
    expect(() => price('tp=1,pp=3,dp=1', p)).toThrow(
      "--layout pp=3 does not divide toy's 8 transformer blocks evenly (pp that do: 1, 2, 4, 8)",
    );
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
    const r = price('tp=1,pp=2,dp=4,zero=1,mb=4', mixed);
    const kinds = r.plan.stages.map((s) => new Set(s.devices.map((id) => slow.has(id))));
    expect(kinds.every((k) => k.size === 1)).toBe(true);
    const layers = (s: { from: number; to: number }): number => s.to - s.from;
    const fast = r.plan.stages.find((s) => !slow.has(s.devices[0] as string));
    const slowStage = r.plan.stages.find((s) => slow.has(s.devices[0] as string));
    expect(layers(fast as { from: number; to: number })).toBeGreaterThan(
      layers(slowStage as { from: number; to: number }),
    );
    expect(r.notes.join('\n')).toContain('of 2 kinds');
    expect(r.plan.microbatches).toBe(4);
  });
});
