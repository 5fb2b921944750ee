/**
 * The output a scheduler reserves for its running sequences before it admits another (SGLang's
 * PrefillAdder and new_token_ratio; the rule and its source lines: OutputReserve in engine-rules.ts,
 * OUTPUT_RESERVE in sglang-engine.ts). Pure.
 */
import type { OutputReserve } from './engine-rules.js';

/** What the scheduler knows of a running sequence: its output so far and in all. */
export interface Writing {
  output: number;
  generated: number;
}

/** Tokens held back for the running sequences: each one's remaining output, clipped, times the ratio. */
export function reservedOutput(rule: OutputReserve, ratio: number, ...lists: readonly (readonly Writing[])[]): number {
  let sum = 0;
  for (const list of lists) for (const r of list) sum += Math.min(Math.max(r.output - r.generated, 0), rule.clip);
  return sum * ratio;
}

/** What a request being admitted takes from what is left: its prompt (to prefill) and its output, clipped. */
export function admissionTokens(rule: OutputReserve, prompt: number, output: number): number {
  return prompt + Math.min(output, rule.clip);
}

/** The ratio after `steps` decode steps: down by (init - min) / decaySteps a step, not below min. */
export function decayedRatio(rule: OutputReserve, ratio: number, steps: number): number {
  return Math.max(rule.minRatio, ratio - (steps * (rule.initRatio - rule.minRatio)) / rule.decaySteps);
}

/** The ratio after a preemption: (tokens written + retractSteps a sequence) over the outputs of those left, at most 1. */
export function ratioAfterRetract(rule: OutputReserve, left: readonly Writing[]): number {
  let written = 0;
  let outputs = 0;
  for (const r of left) {
    written += r.generated;
    outputs += r.output;
  }
  return outputs > 0 ? Math.min(1, (written + rule.retractSteps * left.length) / outputs) : rule.initRatio;
}
