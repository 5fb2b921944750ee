/**
 * One-stage plans on groups of like devices (whole-model.ts likeGroupPlans), the search ZeRO and
 * fine-tuning plans take. On a cluster of hundreds of identical GPUs every group size was priced
 * (255 on 256 H100s, each priced over all its devices: a 70B QLoRA plan took 10-13 s, issue 56);
 * past 32 replicas only powers of two and the whole class are, as dataParallelSets does.
 */
import { describe, expect, it } from 'vitest';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import { likeGroupPlans } from '../../../../../src-main/core/planner/search/whole-model.js';
import { randomCluster } from '../random-problem.js';

const sizes = (plans: readonly { stages: readonly { devices: readonly string[]; tp?: number }[] }[]): number[] =>
  plans.map((p) => (p.stages[0]?.devices.length ?? 0) / (p.stages[0]?.tp ?? 1));

const upTo = (n: number): number[] => Array.from({ length: n - 1 }, (_, i) => i + 2);

describe('like-device groups', () => {
  it('tries every replica count up to 32, then powers of two and the whole class', () => {
    const p = randomCluster(3, { machines: 32, perMachine: 8, kinds: 1, layers: 3, networkGBps: 25 });
    const plans = likeGroupPlans(plannerContext(p), { microbatches: [1] });
    expect(sizes(plans)).toEqual([...upTo(32), 64, 128, 256]);
  });

  it('keeps the whole class when it is no power of two (25 machines of 8)', () => {
    const p = randomCluster(5, { machines: 25, perMachine: 8, kinds: 1, layers: 3, networkGBps: 25 });
    expect(sizes(likeGroupPlans(plannerContext(p), { microbatches: [1] }))).toEqual([...upTo(32), 64, 128, 200]);
  });

  it('tries every size on a class of 32 or fewer', () => {
    const p = randomCluster(7, { machines: 4, perMachine: 8, kinds: 1, layers: 3, networkGBps: 25 });
    expect(sizes(likeGroupPlans(plannerContext(p), { microbatches: [1] }))).toEqual(upTo(32));
  });
});
