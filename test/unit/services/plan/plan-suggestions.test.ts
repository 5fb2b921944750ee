/** The changes suggested when nothing fits: verified searches, bounded in number and in time. */
import { describe, expect, it } from 'vitest';
import type { Plan, PlanDevice } from '../../../../src-main/core/planner/types.js';
import { datasheetFor } from '../../../../src-main/core/planner/cost/datasheets.js';
import type { ServingFigures } from '../../../../src-main/core/planner/serving/serving.js';
import {
  MAX_SUGGESTION_SEARCHES,
  SUGGESTION_TIME_MS,
  suggestChanges,
  suggestedPlan,
  type SuggestionInput,
} from '../../../../src-main/services/plan/plan-suggestions.js';

const input: SuggestionInput = {
  req: {
    workload: 'llama-3.1-70b',
    devices: 'none',
    virtual: ['8xNVIDIA H100 SXM5 80GB'],
    mode: 'training',
    batch: 64,
    seq: 8192,
  },
  seq: 8192,
  bytesPerParam: 2,
  devices: [],
};

describe('suggestChanges', () => {
  it('stops at MAX_SUGGESTION_SEARCHES searches when none fits', () => {
    let searches = 0;
    const r = suggestChanges(input, () => {
      searches++;
      return null;
    });
    expect(r).toEqual({ suggestions: [], searched: searches, cut: false });
    expect(searches).toBeLessThanOrEqual(MAX_SUGGESTION_SEARCHES);
  });

  it('stops once SUGGESTION_TIME_MS has passed, however many searches are left, and says so', () => {
    let now = 0;
    let searches = 0;
    const slowSearch = (): Plan | null => {
      searches++;
      now += 2_000; // each search of a huge request takes seconds
      return null;
    };
    const r = suggestChanges(input, slowSearch, () => now);
    expect(searches).toBe(Math.ceil(SUGGESTION_TIME_MS / 2_000));
    expect(r).toEqual({ suggestions: [], searched: searches, cut: true });
  });

  it('suggests 4-bit weights for serving as the --weights option that gives them', () => {
    const fits = { kind: 'tensor-parallel', stepUs: 1000, throughputSamplesPerS: 1 } as Plan;
    const serving = { ...input, req: { ...input.req, mode: 'inference' as const, batch: 1 } };
    const r = suggestChanges(serving, (req) => (req.weights === 'q4_k' ? fits : null));
    expect(r.suggestions.map((x) => x.option)).toEqual(['--weights q4_k']);
  });

  describe('more GPUs, as a person would buy them', () => {
    const rtx4090 = {
      id: 'virtual/rtx-4090:0',
      name: 'NVIDIA GeForce RTX 4090',
      kind: 'gpu',
      memoryBytes: 24 * 2 ** 30,
    } as PlanDevice;
    const box = { ...input, req: { ...input.req, virtual: ['2x4090'] }, devices: [rtx4090, rtx4090] };
    const fits = { kind: 'pipeline', stepUs: 1000, throughputSamplesPerS: 1 } as Plan;
    /** Every GPU try's --virtual list, in order, when none fits. */
    const virtualTries = (): string[][] => {
      const tried: string[][] = [];
      suggestChanges({ ...box, req: { ...box.req, batch: 1 }, seq: 1 }, (req) => {
        if (req.virtual !== box.req.virtual) tried.push(req.virtual ?? []);
        return null;
      });
      return tried;
    };

    it('raises the count of the GPU already listed, in the name typed ("2x4090" and 4 more is "6x4090")', () => {
      const r = suggestChanges(box, (req) => (req.virtual?.[0] === '6x4090' ? fits : null));
      expect(r.suggestions.map((x) => x.option)).toEqual(['--virtual "6x4090"']);
      expect(virtualTries().slice(0, 4)).toEqual([['3x4090'], ['4x4090'], ['6x4090'], ['10x4090']]);
    });

    it('offers beside PCIe cards only a PCIe card (no SXM module beside a 4090)', () => {
      const others = virtualTries()
        .slice(4)
        .map((v) => datasheetFor(v.at(-1)?.replace(/^\d+x/, '') ?? ''));
      expect(others.length).toBeGreaterThan(0);
      for (const g of others) expect(g?.formFactor).toBe('pcie');
    });
  });
});

describe('suggestedPlan', () => {
  const plan = { kind: 'tensor-parallel', stepUs: 900_000, throughputSamplesPerS: 4.4, recompute: 'full' } as Plan;
  const band = { low: 0.88, high: 1.42, cells: 30 };
  const shown = {
    ttftUs: 9e5,
    decodeStepUs: 4e4,
    tokensPerSecondPerSequence: 25,
    tokensPerSecond: 100,
    requestUs: 1e7,
  };
  const figures = { ...shown, maxContext: 8192, maxBatch: 12, band } as ServingFigures;

  it("carries a served decoder's first token, decode step and tokens/s with the engine's band, and no step or samples/s", () => {
    expect(suggestedPlan(plan, figures)).toEqual({ kind: 'tensor-parallel', serving: { ...shown, band } });
  });

  it("carries a training plan's step and samples/s", () => {
    expect(suggestedPlan(plan, undefined)).toEqual({
      kind: 'tensor-parallel',
      stepUs: 900_000,
      throughputSamplesPerS: 4.4,
      recompute: 'full',
    });
  });
});
