/** The changes suggested when nothing fits: verified searches, bounded in number and in time. */
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../../src-main/core/planner/types.js';
import {
  MAX_SUGGESTION_SEARCHES,
  SUGGESTION_TIME_MS,
  suggestChanges,
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
});
