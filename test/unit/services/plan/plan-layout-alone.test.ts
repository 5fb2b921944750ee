/**
 * `plan --layout ... --no-search` (search: false): the layout priced alone, by the cost and memory
 * paths of a searched plan, so a layout the search finds has the same figures either way.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import type { Plan } from '../../../../src-main/core/planner/types.js';
import { planWorkload, type PlanRequest } from '../../../../src-main/services/plan/plan-service.js';

const db = openDatabase(':memory:');
const training: PlanRequest = {
  workload: 'gpt2-small',
  devices: 'none',
  mode: 'training',
  batch: 16,
  seq: 256,
  dtype: 'bf16',
  offload: 'no',
  topN: 20,
};

/**
 * The searched plan as a layout, or null when the layout's even split of the blocks is not its split,
 * or it leaves some of the `devices` idle (a --layout uses them all).
 */
function layoutOf(p: Plan, blocks: { first: number; count: number; layers: number; devices: number }): string | null {
  const pp = p.stages.length;
  const tp = p.stages[0]?.tp ?? 1;
  const width = p.stages[0]?.devices.length ?? 0;
  if (p.stages.some((s) => (s.tp ?? 1) !== tp || s.devices.length !== width) || blocks.count % pp !== 0) return null;
  if (pp * width !== blocks.devices) return null;
  const per = blocks.count / pp;
  const even = p.stages.every(
    (s, i) =>
      s.from === (i === 0 ? 0 : blocks.first + i * per) &&
      s.to === (i === pp - 1 ? blocks.layers : blocks.first + (i + 1) * per),
  );
  if (!even || p.optimizerOffload || (p.virtualStages ?? 1) > 1) return null;
  const recompute = p.recompute ?? 'none';
  return `tp=${tp},pp=${pp},dp=${width / tp},zero=${p.zeroStage ?? 0},recompute=${recompute},mb=${p.microbatches},schedule=${p.schedule}`;
}

/** What a plan is priced at: its step, throughput, shares and each device's memory. */
const figures = (p: Plan) => ({
  stepUs: p.stepUs,
  throughputSamplesPerS: p.throughputSamplesPerS,
  bubbleFraction: p.bubbleFraction,
  commFraction: p.commFraction,
  feasible: p.feasible,
  zeroStage: p.zeroStage,
  memory: p.memory,
  stages: p.stages.map((s) => ({ from: s.from, to: s.to, tp: s.tp, gpus: s.devices.length })),
});

describe('plan --layout --no-search', () => {
  it.each([['8xH100 SXM5'], ['16xA100 SXM4 80GB']])(
    'prices each layout the search lists on %s at the searched figures, with no search',
    (cluster) => {
      const searched = planWorkload(db, { ...training, virtual: [cluster] });
      const layers = searched.problem.layers.map((l) => l.name);
      const firstBlock = layers.findIndex((n) => n.startsWith('block.'));
      const blocks = {
        first: firstBlock,
        count: layers.filter((n) => n.startsWith('block.')).length,
        layers: layers.length,
        devices: searched.problem.devices.length,
      };
      const compared = searched.result.plans.flatMap((p, i) => {
        const layout = layoutOf(p, blocks);
        return layout ? [{ p, layout, timeline: searched.timelines[i] }] : [];
      });
      // Data, tensor and pipeline parallel layouts are among them.
      expect(
        new Set(compared.map(({ p }) => `${p.stages.length > 1}:${(p.stages[0]?.tp ?? 1) > 1}`)).size,
      ).toBeGreaterThan(1);
      // Recomputed ones among them: their steps are simulated with the recomputation too.
      expect(compared.some(({ p }) => p.recompute)).toBe(true);
      for (const { p, layout, timeline } of compared) {
        const alone = planWorkload(db, { ...training, virtual: [cluster], layout, search: false });
        expect(alone.result.plans, layout).toEqual([]);
        expect(alone.result.searchMs).toBe(0);
        expect(alone.layout?.vsBest).toBeNull();
        expect(figures(alone.layout?.plan as Plan), layout).toEqual(figures(p));
        expect(alone.layout?.timeline, layout).toEqual(timeline);
      }
    },
  );

  it("writes the layout's own exports and suggests nothing", () => {
    const r = planWorkload(db, { ...training, virtual: ['8xH100 SXM5'], layout: 'tp=2,pp=1,dp=4', search: false });
    expect(r.exportsOf).toBe('layout');
    expect(r.exports).not.toBeNull();
    expect(r.suggestions).toEqual([]);
    expect(r.layout?.fits).toBe(true);
  });

  it('needs a layout', () => {
    expect(() => planWorkload(db, { ...training, virtual: ['8xH100 SXM5'], search: false })).toThrow(
      /--no-search prices the --layout given, and there is none/,
    );
  });
});
