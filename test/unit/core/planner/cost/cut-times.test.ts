import { describe, expect, it } from 'vitest';
import { createCostModel } from '../../../../../src-main/core/planner/cost/cost-model.js';
import { messageUs } from '../../../../../src-main/core/planner/cost/collectives.js';
import { CostTables } from '../../../../../src-main/core/planner/cost/stage-cost.js';
import type { PlanLink } from '../../../../../src-main/core/planner/types.js';
import { randomCluster } from '../random-problem.js';

describe('cut times', () => {
  it('read the listed links in one pass as the cost model reads them (the first link of a pair wins)', () => {
    const p = randomCluster(3, { machines: 3, perMachine: 2, kinds: 1, layers: 4, networkGBps: 5 });
    // A second, faster link for one pair: listed after the first, so not the one the cost model takes.
    const links: PlanLink[] = [...p.links, { ...(p.links[0] as PlanLink), gbps: 1000, alphaUs: 0 }];
    const cost = createCostModel(links);
    const tables = new CostTables({ ...p, links }, cost);
    const ids = p.devices.map((d) => d.id);
    const pairs: [number[], number[]][] = [
      [[0], [1]],
      [
        [0, 1],
        [2, 3],
      ],
      [
        [4, 5],
        [0, 2],
      ],
    ];
    for (const [from, to] of pairs) {
      let worst = 0;
      for (const a of from)
        for (const b of to) worst = Math.max(worst, cost.linkUs(ids[a] as string, ids[b] as string, 4e6));
      const bytesPerSample = p.layers[1]?.outBytesPerSample as number;
      expect(tables.cutUs(from, to, 1, 4e6 / bytesPerSample)).toBeCloseTo(worst, 9);
      expect(worst).toBeGreaterThan(messageUs({ alphaUs: 0, gbps: 1000 }, 4e6));
    }
  });
});
