/**
 * The search-scale cases (issue 59, item 4), built and timed the same way against any tree: the
 * driver (bench/search-scale-bench.ts) bundles this file once over this checkout and once over an
 * older one, and alternates them. Each case returns a run: one full search as `plan` runs it.
 * - tp: 128 layers on 8 GPUs of 4 kinds (the tensor-parallel bench's problem), TP 1/2/4 x PP x DP
 *   x recomputation none/selective/full.
 * - cluster:N: Llama 3.1 70B training (seq 4096, 8 samples a node) on N datasheet nodes of 8 H100
 *   SXM5 80GB over 200Gb InfiniBand, TP 1/2/4/8 x PP x DP x ZeRO 1/2/3 x recomputation
 *   (cluster:256 is 2,048 GPUs, cluster:2048 16,384; the links are built before the clock starts: a
 *   link per pair inside a node and one node-level link between nodes, 57,345 at 16,384 GPUs, where
 *   trees before issue 59's node-level links list a link per pair, 2.1 million at 2,048).
 */
import { tensorParallelProblem } from './tp-problem.js';
import { searchRanked } from '../../src-main/core/planner/search/plan-ranking.js';
import { createCostModel } from '../../src-main/core/planner/cost/cost-model.js';
import { virtualDevice } from '../../src-main/core/planner/cost/datasheets.js';
import { buildPlanLinks } from '../../src-main/core/planner/cost/links.js';
import { entryWorkload, getCatalogEntry } from '../../src-main/core/catalog/index.js';
import { isBlockName } from '../../src-main/core/catalog/block-names.js';
import { datasheetLayers } from '../datasheet-layers.js';
import type { PlanProblem } from '../../src-main/core/planner/types.js';
import type { RankedPlans } from '../../src-main/core/planner/search/plan-ranking.js';

export interface CaseRun {
  /** The best plan's step (µs; NaN when none) and a line describing it. */
  step: number;
  text: string;
}

function described(r: RankedPlans): CaseRun {
  const p = r.best?.plan;
  if (!p) return { step: NaN, text: 'none' };
  const stages = p.stages.map((s) => `${s.devices.length}/tp${s.tp ?? 1}:${s.from}-${s.to}`).join(' ');
  return {
    step: p.stepUs,
    text: `${p.kind} ZeRO-${p.zeroStage ?? 0} recompute ${p.recompute ?? 'none'} m${p.microbatches} ${stages}`,
  };
}

export function tpCase(): () => CaseRun {
  const big = tensorParallelProblem();
  return () =>
    described(
      searchRanked(big, createCostModel(big.links), { topN: 5, offload: 'no', settings: null, recompute: 'auto' }),
    );
}

export function clusterCase(nodes: number): () => CaseRun {
  const perNode = 8;
  const workload = entryWorkload(getCatalogEntry('llama-3.1-70b'), {
    batch: 1,
    seq: 4096,
    dtype: 'bf16',
    mode: 'training',
  });
  const gpus = Array.from({ length: nodes * perNode }, (_, i) =>
    virtualDevice('H100 SXM5 80GB', { machine: `node${Math.floor(i / perNode)}`, index: i % perNode }),
  );
  const { links } = buildPlanLinks(
    gpus.map((g) => g.device),
    { network: '200Gb-IB' },
  );
  const split = { divides: [64, 8], forwardAllReduces: 2, backwardAllReduces: 2 };
  // Every GPU takes the first one's datasheet times (they are alike).
  const same = (rec: Record<string, number>): Record<string, number> => {
    const t = Object.values(rec)[0] as number;
    return Object.fromEntries(gpus.map((g) => [g.device.id, t]));
  };
  const problem: PlanProblem = {
    layers: datasheetLayers(workload, gpus.slice(0, 1)).map((l) => ({
      ...l,
      forwardUs: same(l.forwardUs),
      backwardUs: same(l.backwardUs),
      ...(isBlockName(l.name) ? { tensor: split } : {}),
    })),
    devices: gpus.map((g) => g.device),
    links,
    mode: 'training',
    batch: 8 * nodes,
    bytesPerParam: 16,
    zeroStage: 1,
    overheadBytes: 2 ** 30,
    tensorDegrees: [1, 2, 4, 8],
  };
  return () =>
    described(
      searchRanked(problem, createCostModel(problem.links), {
        topN: 5,
        offload: 'no',
        settings: null,
        recompute: 'auto',
        zero: 'auto',
      }),
    );
}
