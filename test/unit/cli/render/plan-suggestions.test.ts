/** "What would fit" as text: a served decoder's changes in the serving table's figures, training's in samples/s. */
import { describe, expect, it } from 'vitest';
import { suggestionLines } from '../../../../src-main/cli/render/plan-suggestions.js';
import type { PlanSuggestion, SuggestedServing } from '../../../../src-main/core/planner/types.js';

const servedPlan: SuggestedServing = {
  kind: 'tensor-parallel',
  serving: {
    ttftUs: 1_230_000,
    decodeStepUs: 48_656,
    tokensPerSecondPerSequence: 20.55,
    tokensPerSecond: 20.55,
    requestUs: 13_700_000,
    band: { low: 0.7, high: 1.89, cells: 12 },
  },
};
const served: PlanSuggestion = { change: '4-bit weights', option: '--weights q4_k', plan: servedPlan };

describe('suggestionLines', () => {
  it("writes a served decoder's change with its first token, decode step and tokens/s, and no samples/s", () => {
    const [, line] = suggestionLines([served]);
    expect(line).toBe(
      "- 4-bit weights: --weights q4_k (best plan tensor-parallel: first token 1.23 s, decode step 48.656 ms, 20.6 tokens/s a sequence; the engine's 90% band: measured 0.70x-1.89x these times)",
    );
    expect(line).not.toMatch(/samples\/s|a step/);
  });

  it('adds the tokens/s of the whole batch where it differs, and says when no band is measured', () => {
    const { band: _band, ...unbanded } = servedPlan.serving;
    const batch = { ...served, plan: { kind: 'single', serving: { ...unbanded, tokensPerSecond: 82.2 } } } as const;
    expect(suggestionLines([batch])[1]).toMatch(
      /: first token 1\.23 s, decode step 48\.656 ms, 20\.6 tokens\/s a sequence, 82\.2 in all; no measured band for these times\)$/,
    );
  });

  it('writes a training change with its step and samples/s', () => {
    const [, line] = suggestionLines([
      {
        change: 'a batch of 4 instead of 8',
        option: '--batch 4',
        plan: { kind: 'pipeline', stepUs: 957_849, throughputSamplesPerS: 4.18 },
      },
    ]);
    expect(line).toBe('- a batch of 4 instead of 8: --batch 4 (best plan pipeline: 957.849 ms a step, 4.2 samples/s)');
  });

  it('says when no change tried fits', () => {
    expect(suggestionLines([])).toEqual([expect.stringMatching(/^No change tried fits either/)]);
  });
});
