/** A suggested change's best plan in the words the CLI and the app share. */
import { describe, expect, it } from 'vitest';
import { suggestedPlanText } from '../../../../src-main/core/planner/suggested-plan-text.js';

describe('suggestedPlanText', () => {
  const time = (us: number): string => `<${us}>`;

  it('writes serving in first-token time, decode step and tokens/s, durations as the caller writes them', () => {
    const serving = { ttftUs: 5, decodeStepUs: 2, tokensPerSecondPerSequence: 12, tokensPerSecond: 12, requestUs: 9 };
    expect(suggestedPlanText({ kind: 'single', serving }, time)).toBe(
      'first token <5>, decode step <2>, 12.0 tokens/s a sequence; no measured band for these times',
    );
  });

  it('writes training in its step and samples/s', () => {
    expect(suggestedPlanText({ kind: 'single', stepUs: 7, throughputSamplesPerS: 3 }, time)).toBe(
      '<7> a step, 3.0 samples/s',
    );
  });
});
