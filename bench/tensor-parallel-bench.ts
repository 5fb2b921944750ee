/**
 * Tensor-parallel planning benchmark (issue 15). Run: npm run bench:tensor-parallel
 * - Exactness: the DP with tensor-parallel groups (degrees 1/2/4) against brute force on random
 *   small instances (2-12 layers, 4 devices; like devices in the hybrid space, unlike GPUs of a
 *   machine in the mixed space).
 * - Search time: 128 layers on 8 heterogeneous GPUs with tensor, pipeline and data parallelism and
 *   activation recomputation (none, selective, full) searched and ranked together (target < 200 ms).
 * - Published anchor: GPT-3 175B on 64 datasheet A100 SXM4 80GB (8 nodes of 8, NVLink inside a node,
 *   200 Gb/s InfiniBand between), Megatron-LM's configuration TP 8 x PP 8, microbatch 1, 96
 *   microbatches per pipeline (global batch 1536 over data-parallel 16), full recomputation, priced
 *   by the cost model from roofline layer times; TFLOP/s per GPU by Narayanan et al.'s formula
 *   96·B·s·l·h²(1 + s/6h + V/16lh) against the 138 TFLOP/s the issue quotes (target within 20%).
 * - Memory: the KV cache of Llama 3.1 8B at bf16 and 8k tokens, and the parameter counts of the
 *   new catalog decoders (hand-computed in test/unit/core/catalog).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { bruteForce } from '../test/unit/core/planner/reference/brute-force.js';
import { randomProblem } from '../test/unit/core/planner/random-problem.js';
import { pricePlan, type StageSpec } from '../src-main/core/planner/cost/plan-cost.js';
import { pipelineSearch } from '../src-main/core/planner/search/pipeline-search.js';
import { hybridSpace, mixedSpace } from '../src-main/core/planner/search/group-space.js';
import { plannerContext } from '../src-main/core/planner/problem/problem.js';
import { searchRanked } from '../src-main/core/planner/search/plan-ranking.js';
import { createCostModel } from '../src-main/core/planner/cost/cost-model.js';
import { buildPlanLinks } from '../src-main/core/planner/cost/links.js';
import { virtualDevice } from '../src-main/core/planner/cost/datasheets.js';
import { recomputeProblem } from '../src-main/core/planner/memory/recompute.js';
import { entryWorkload, getCatalogEntry, kvBytesPerToken } from '../src-main/core/catalog/index.js';
import type { CatalogEntry } from '../src-main/core/catalog/schema.js';
import type { PlanProblem } from '../src-main/core/planner/types.js';
import { datasheetLayers } from './datasheet-layers.js';
import { tensorParallelProblem } from './search-scale/tp-problem.js';
import { isBlockName } from '../src-main/core/catalog/block-names.js';

const lines: string[] = [
  `Machine: ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}; Node ${process.version}; date ${new Date().toISOString().slice(0, 10)}`,
  '',
];
const results: Record<string, unknown> = {};

// Exactness.
let same = 0;
let total = 0;
let withTp = 0;
let worst = 0;
for (let seed = 1000; seed < 1160; seed++) {
  const mixed = seed % 4 === 0;
  const problem = randomProblem(seed, {
    layers: 2 + (seed % 11),
    devices: mixed ? 3 : 4,
    twins: !mixed,
    tensor: true,
    batch: 4,
  });
  const ctx = plannerContext(problem);
  const space = mixed ? mixedSpace(problem) : hybridSpace(problem);
  const dp = pipelineSearch(ctx, { space }).best;
  const bf = bruteForce(ctx, { space, maxPlans: 6e6 }).best;
  if (!dp && !bf) continue;
  total++;
  if (dp?.stages.some((s) => (s.tp ?? 1) > 1)) withTp++;
  if (dp && bf) {
    const rel = Math.abs(dp.stepUs - bf.stepUs) / bf.stepUs;
    worst = Math.max(worst, rel);
    if (rel < 1e-9) same++;
  }
}
lines.push(
  `Exactness with TP 1/2/4: DP best equals brute force on ${same} of ${total} random instances with a feasible plan (2-12 layers, 3-4 devices); ${withTp} optima use tensor parallelism; largest relative difference ${worst.toExponential(1)}.`,
);
results.exactness = { same, total, withTp, worst };

// Search time.
const big = tensorParallelProblem();
const kinds = new Set(big.devices.map((d) => d.name)).size;
const bigCost = createCostModel(big.links);
const searchMs: number[] = [];
let bestKind = '';
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const r = searchRanked(big, bigCost, { topN: 5, offload: 'no', settings: null, recompute: 'auto' });
  searchMs.push(performance.now() - t);
  const best = r.best?.plan;
  bestKind = best
    ? `${best.kind}, ${best.stages.length} stages, TP ${best.stages.map((s) => s.tp ?? 1).join('/')}, recompute ${best.recompute ?? 'none'}`
    : 'none';
}
lines.push(
  `Search time, 128 layers x 8 GPUs of ${kinds} kinds, batch 64 (7 microbatch counts), TP 1/2/4 x PP x DP x recomputation none/selective/full: ${searchMs.map((t) => t.toFixed(0)).join(', ')} ms (target < 200 ms); best: ${bestKind}.`,
);
results.searchMs = searchMs;

// Published anchor: GPT-3 175B, Megatron-LM TP 8 x PP 8 on A100s.
const gpt2 = getCatalogEntry('gpt2-xl');
if (gpt2.kind !== 'transformer') throw new Error('gpt2-xl is a transformer');
const gpt3: CatalogEntry = {
  ...gpt2,
  name: 'gpt3-175b',
  title: 'GPT-3 175B',
  layers: 96,
  hidden: 12288,
  heads: 96,
  ffn: 4 * 12288,
  context: 2048,
  dropout: false,
  defaults: { batch: 1, seq: 2048, dtype: 'bf16' },
};
const seq = 2048;
const workload = entryWorkload(gpt3, { batch: 1, seq, dtype: 'bf16', mode: 'training' });
const a100s = Array.from({ length: 64 }, (_, i) =>
  virtualDevice('A100 SXM4 80GB', { machine: `node${Math.floor(i / 8)}`, index: i % 8 }),
);
const { links } = buildPlanLinks(
  a100s.map((g) => g.device),
  { network: '200Gb-IB' },
);
const split = { divides: [96, 96], forwardAllReduces: 2, backwardAllReduces: 2 };
const anchorBase: PlanProblem = {
  layers: datasheetLayers(workload, a100s).map((l) => (isBlockName(l.name) ? { ...l, tensor: split } : l)),
  devices: a100s.map((g) => g.device),
  links,
  mode: 'training',
  batch: 96,
  bytesPerParam: 16,
  zeroStage: 1,
  overheadBytes: 2 ** 30,
  tensorDegrees: [1, 8],
};
const anchor = recomputeProblem(anchorBase, 'full') ?? anchorBase;
const blockIndex = anchor.layers.map((l, i) => (isBlockName(l.name) ? i : -1)).filter((i) => i >= 0);
const stages: StageSpec[] = Array.from({ length: 8 }, (_, p) => {
  const firstBlock = blockIndex[p * 12] as number;
  const nextBlock = blockIndex[(p + 1) * 12];
  return {
    from: p === 0 ? 0 : firstBlock,
    to: nextBlock ?? anchor.layers.length,
    devices: a100s.slice(p * 8, p * 8 + 8).map((g) => g.device.id),
    tp: 8,
  };
});
const priced = pricePlan(plannerContext(anchor, createCostModel(links)), {
  stages,
  microbatches: 96,
  schedule: '1f1b',
});
const h = 12288;
const l = 96;
const V = gpt2.vocab ?? 50257;
const flopsPerSample = 96 * seq * l * h * h * (1 + seq / (6 * h) + V / (16 * l * h));
const tflopsPerGpu = (flopsPerSample * 96) / (priced.stepUs * 1e-6) / 64 / 1e12;
const published = 138;
lines.push(
  `Published anchor, GPT-3 175B on 64 datasheet A100 SXM4 80GB (TP 8 x PP 8, 96 microbatches of 1, full recomputation): step ${(priced.stepUs / 1e6).toFixed(2)} s, bubble ${(priced.bubbleFraction * 100).toFixed(1)}%, comm ${(priced.commFraction * 100).toFixed(1)}%, feasible ${priced.feasible} (largest need ${(Math.max(...priced.memory.map((m) => m.neededBytes)) / 2 ** 30).toFixed(1)} GiB); ${tflopsPerGpu.toFixed(0)} TFLOP/s per GPU against ${published} published: ${(((tflopsPerGpu - published) / published) * 100).toFixed(1)}% (target within 20%).`,
);
results.anchor = {
  stepUs: priced.stepUs,
  tflopsPerGpu,
  published,
  feasible: priced.feasible,
  reasons: priced.reasons,
  bubble: priced.bubbleFraction,
  comm: priced.commFraction,
};

// Memory.
const llama8 = getCatalogEntry('llama-3.1-8b');
if (llama8.kind === 'transformer') {
  const kv = kvBytesPerToken(llama8, 'bf16') * 8192;
  lines.push(
    `Memory: Llama 3.1 8B KV cache at bf16 and 8192 tokens: ${kv.toLocaleString('en-US')} B per sequence (1.07 GB).`,
  );
  results.kvLlama8b8k = kv;
}

for (const line of lines) console.log(line);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  `bench/results/tensor-parallel-${new Date().toISOString().slice(0, 10)}.json`,
  `${JSON.stringify({ lines, results }, null, 2)}\n`,
);
