/**
 * A suggested change's best plan in words, as the CLI and the app both say it: serving a decoder,
 * the serving table's figures (first token, decode step, tokens/s) with the engine's band over
 * them; training, the step and samples/s. Pure.
 */
import type { SuggestedPlan } from './types.js';

/**
 * "first token 1.23 s, decode step 48.7 ms, 20.6 tokens/s a sequence; the engine's 90% band: ...",
 * or "958 ms a step, 1.0 samples/s"; durations as `time` writes them.
 */
export function suggestedPlanText(p: SuggestedPlan, time: (us: number) => string): string {
  if (!('serving' in p)) return `${time(p.stepUs)} a step, ${p.throughputSamplesPerS.toPrecision(2)} samples/s`;
  const s = p.serving;
  const [one, all] = [s.tokensPerSecondPerSequence.toFixed(1), s.tokensPerSecond.toFixed(1)];
  const band = s.band
    ? `; the engine's 90% band: measured ${s.band.low.toFixed(2)}x-${s.band.high.toFixed(2)}x these times`
    : '; no measured band for these times';
  return (
    `first token ${time(s.ttftUs)}, decode step ${time(s.decodeStepUs)}, ` +
    `${one} tokens/s a sequence${all === one ? '' : `, ${all} in all`}${band}`
  );
}
