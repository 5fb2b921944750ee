/**
 * Planner benchmark (issue 6 targets; the two-process reality check is not here yet).
 * Run: npm run bench:planner
 * - Exactness: random small instances (up to 12 layers, 4 devices): DP best vs brute force.
 * - Search speed: 128 layers on 8 heterogeneous devices (target < 100 ms), pipeline DP and planAll.
 * - Gain: datasheet H100 SXM5 + RTX 4090 + RTX 3090 with per-layer times from the roofline of
 *   each datasheet: the best plan against an equal-layer split over the same devices, and against
 *   the plan a planner assuming identical devices would choose (Alpa-like: every device as the
 *   slowest, with the smallest memory), both priced on the real heterogeneous costs.
 * - Search quality: MCMC and relaxation against the DP optimum, with their search times.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { bruteForce } from '../test/unit/core/planner/reference/brute-force.js';
import { pricePlan } from '../src-main/core/planner/cost/plan-cost.js';
import { mcmcSearch } from '../src-main/core/planner/search/mcmc.js';
import { pipelineSearch } from '../src-main/core/planner/search/pipeline-search.js';
import { plannerContext } from '../src-main/core/planner/problem/problem.js';
import { relaxationSearch } from '../src-main/core/planner/search/relaxation.js';
import { planAll } from '../src-main/core/planner/search/index.js';
import { virtualDevice } from '../src-main/core/planner/cost/datasheets.js';
import { buildPlanLinks } from '../src-main/core/planner/cost/links.js';
import { createCostModel } from '../src-main/core/planner/cost/cost-model.js';
import type { PlanLayer, PlanProblem } from '../src-main/core/planner/types.js';
import { catalogWorkload } from '../src-main/core/catalog/index.js';
import { randomProblem } from '../test/unit/core/planner/random-problem.js';
import { datasheetLayers } from './datasheet-layers.js';

const lines: string[] = [
  `Machine: ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}; Node ${process.version}; date ${new Date().toISOString().slice(0, 10)}`,
  '',
];

// Exactness.
let same = 0;
let total = 0;
let worst = 0;
for (let seed = 1; seed <= 200; seed++) {
  const problem = randomProblem(seed, { layers: 2 + (seed % 11), devices: 2 + (seed % 3) });
  const ctx = plannerContext(problem);
  const dp = pipelineSearch(ctx, {}).best;
  const bf = bruteForce(ctx, {}).best;
  if (!dp && !bf) continue;
  total++;
  if (dp && bf) {
    const rel = Math.abs(dp.stepUs - bf.stepUs) / bf.stepUs;
    worst = Math.max(worst, rel);
    if (rel < 1e-9) same++;
  }
}
lines.push(
  `Exactness: DP best equals brute force on ${same} of ${total} random instances with a feasible plan (2-12 layers, 2-4 devices); largest relative difference ${worst.toExponential(1)}.`,
);

// Speed.
const big = randomProblem(7, { layers: 128, devices: 8, mode: 'training', batch: 64, memoryShare: [0.3, 0.9] });
const times: number[] = [];
const allTimes: number[] = [];
for (let i = 0; i < 3; i++) {
  const ctx = plannerContext(big);
  let t = performance.now();
  pipelineSearch(ctx, {});
  times.push(performance.now() - t);
  t = performance.now();
  planAll(big);
  allTimes.push(performance.now() - t);
}
lines.push(
  `Search speed, 128 layers x 8 heterogeneous devices, batch 64 (7 microbatch counts): pipeline DP ${times.map((t) => t.toFixed(0)).join(', ')} ms; planAll ${allTimes.map((t) => t.toFixed(0)).join(', ')} ms (target < 100 ms).`,
);

// Gain on real GPU specifications.
const workload = catalogWorkload('gpt2-medium', { batch: 1, seq: 1024, dtype: 'fp16', mode: 'training' });
const gpus = ['H100 SXM5', 'RTX 4090', 'RTX 3090'].map((name, index) => virtualDevice(name, { machine: 'ws', index }));
const layers: PlanLayer[] = datasheetLayers(workload, gpus);
const { links } = buildPlanLinks(gpus.map((g) => g.device));
const problem: PlanProblem = {
  layers,
  devices: gpus.map((g) => g.device),
  links,
  mode: 'training',
  batch: 16,
  bytesPerParam: 16,
  zeroStage: 0,
  overheadBytes: 2 ** 30,
};
const cost = createCostModel(links);
const ctx = plannerContext(problem, cost);
const best = planAll(problem, cost).plans.find((p) => p.feasible);
const order = best?.stages.flatMap((s) => s.devices) ?? gpus.map((g) => g.device.id);
const L = layers.length;
const equalStages = order.map((d, i) => ({
  from: Math.round((i * L) / order.length),
  to: Math.round(((i + 1) * L) / order.length),
  devices: [d],
}));
const equal = pricePlan(ctx, { stages: equalStages, microbatches: best?.microbatches ?? 8, schedule: '1f1b' });
// Identical-device assumption: every GPU priced as the slowest with the smallest memory.
const slowest = gpus
  .map((g) => g.device.id)
  .reduce((a, b) =>
    layers.reduce((s, l) => s + (l.forwardUs[b] ?? 0), 0) > layers.reduce((s, l) => s + (l.forwardUs[a] ?? 0), 0)
      ? b
      : a,
  );
const minMem = Math.min(...gpus.map((g) => g.device.memoryBytes));
const uniform: PlanProblem = {
  ...problem,
  devices: problem.devices.map((d) => ({ ...d, memoryBytes: minMem })),
  layers: layers.map((l) => ({
    ...l,
    forwardUs: Object.fromEntries(gpus.map((g) => [g.device.id, l.forwardUs[slowest] ?? 0])),
    backwardUs: Object.fromEntries(gpus.map((g) => [g.device.id, l.backwardUs[slowest] ?? 0])),
  })),
};
const uniformPick = planAll(uniform, createCostModel(links)).plans.find((p) => p.feasible && p.kind === 'pipeline');
const uniformReal = uniformPick
  ? pricePlan(ctx, {
      stages: uniformPick.stages.map((s) => ({ from: s.from, to: s.to, devices: s.devices })),
      microbatches: uniformPick.microbatches,
      schedule: uniformPick.schedule,
    })
  : null;
lines.push(
  `Gain, gpt2-medium training (seq 1024, fp16, batch 16) on datasheet H100 SXM5 + RTX 4090 + RTX 3090: best plan (${best?.kind}) ${best ? (best.stepUs / 1000).toFixed(1) : '-'} ms/step; equal-layer split over the same devices ${(equal.stepUs / 1000).toFixed(1)} ms${equal.feasible ? '' : ' (does not fit)'} = ${best ? (equal.stepUs / best.stepUs).toFixed(2) : '-'}x; identical-device planner's pipeline priced on the real devices ${uniformReal ? `${(uniformReal.stepUs / 1000).toFixed(1)} ms = ${best ? (uniformReal.stepUs / best.stepUs).toFixed(2) : '-'}x` : '-'}.`,
);

// MCMC and relaxation against the DP optimum.
const bigCtx = plannerContext(big);
const opt = pipelineSearch(bigCtx, {}).best;
let t = performance.now();
const mc = mcmcSearch(bigCtx, { seed: 1 });
const mcMs = performance.now() - t;
t = performance.now();
const rx = relaxationSearch(bigCtx, { seed: 1 });
const rxMs = performance.now() - t;
lines.push(
  `Searches on 128 x 8 against the DP optimum (${opt ? (opt.stepUs / 1000).toFixed(2) : '-'} ms/step, ${times[0]?.toFixed(0)} ms): MCMC ${mc && opt ? (mc.stepUs / opt.stepUs).toFixed(3) : '-'}x in ${mcMs.toFixed(0)} ms; relaxation ${rx && opt ? (rx.stepUs / opt.stepUs).toFixed(3) : '-'}x in ${rxMs.toFixed(0)} ms.`,
);

const text = lines.join('\n');
console.log(text);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  `bench/results/planner-${new Date().toISOString().slice(0, 10)}.json`,
  `${JSON.stringify({ text }, null, 2)}\n`,
);
