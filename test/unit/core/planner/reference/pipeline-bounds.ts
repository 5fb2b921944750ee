/**
 * Two references the pipeline simulator is checked against: the planner's closed form for a
 * step, and a bound no schedule beats. Pure.
 */
import { stepUsOf } from '../../../../../src-main/core/planner/cost/plan-cost.js';
import type { SimStage } from '../../../../../src-main/core/planner/simulator/pipeline-simulator.js';

/** The planner's objective for these stages (cost/plan-cost.ts). */
export function closedFormStepUs(stages: readonly SimStage[], m: number, mode: 'training' | 'inference'): number {
  const training = mode === 'training';
  const t = stages.map((s) => s.forwardUs + (training ? s.backwardUs : 0));
  const c = stages.slice(0, -1).map((s) => s.sendUs);
  return stepUsOf({
    sumStageUs: t.reduce((a, b) => a + b, 0),
    maxStageUs: Math.max(0, ...t),
    sumCutUs: c.reduce((a, b) => a + b, 0),
    maxCutUs: Math.max(0, ...c),
    sumSyncUs: training ? stages.reduce((a, s) => a + (s.allReduceUs ?? 0), 0) : 0,
    cutFactor: training ? 2 : 1,
    microbatches: m,
  });
}

/**
 * A bound no schedule beats: one microbatch's path through every stage and link and back; and for
 * each stage k, the first activations reaching it, its m forwards and backwards, and the last
 * gradients leaving it (through the earlier stages); and each link's m messages plus the way to it.
 */
export function pipelineLowerBoundUs(stages: readonly SimStage[], m: number, mode: 'training' | 'inference'): number {
  const training = mode === 'training';
  const p = stages.length;
  const f = stages.map((s) => s.forwardUs);
  const b = stages.map((s) => (training ? s.backwardUs : 0));
  const c = stages.map((s, i) => (i < p - 1 ? s.sendUs : 0));
  const sum = (a: number[], from: number, to: number): number => a.slice(from, to).reduce((x, y) => x + y, 0);
  let bound = sum(f, 0, p) + sum(b, 0, p) + (training ? 2 : 1) * sum(c, 0, p);
  for (let k = 0; k < p; k++) {
    const before = sum(f, 0, k) + sum(c, 0, k);
    const after = training ? sum(b, 0, k) + sum(c, 0, k) : sum(c, k, p) + sum(f, k + 1, p);
    bound = Math.max(bound, before + m * ((f[k] as number) + (b[k] as number)) + after);
    if (k < p - 1) {
      const linkBefore = sum(f, 0, k + 1) + sum(c, 0, k);
      const linkAfter = training ? 0 : sum(c, k + 1, p) + sum(f, k + 1, p);
      bound = Math.max(bound, linkBefore + m * (c[k] as number) + linkAfter);
    }
  }
  return bound;
}
