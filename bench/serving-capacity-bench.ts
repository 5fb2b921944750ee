/**
 * The serving capacity search's speed (issue 61's target: 10 GPU kinds x TP degrees x weight
 * formats in at most 10 s on this machine): the README's example (20 requests/s, prompts of 2,000
 * tokens, answers of 300, p90 TTFT 1 s and TPOT 50 ms) on Llama 3.1 8B and 70B over vLLM, on ten
 * rented GPU kinds, bf16, fp8, int8 and int4. Prints the time, the candidates and simulations, and
 * the cheapest deployment; writes bench/results/serving-capacity-<date>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { getCatalogEntry } from '../src-main/core/catalog/index.js';
import type { TransformerEntry } from '../src-main/core/catalog/schema.js';
import { resolveGpuName } from '../src-main/core/planner/cost/datasheets.js';
import { capacityPlan } from '../src-main/core/planner/serving/capacity-plan.js';
import { priceOf } from '../src-main/core/planner/serving/gpu-prices.js';

const GPUS = [
  'H100 SXM5',
  'H100 PCIe',
  'H200',
  'B200',
  'A100 SXM4 80GB',
  'A100 SXM4 40GB',
  'L40S',
  'L4',
  'A10',
  '4090',
];
const MODELS = ['llama-3.1-8b', 'llama-3.1-70b'];
const requests = Number(process.argv[2] ?? 200);

const rows = MODELS.map((model) => {
  const entry = getCatalogEntry(model) as TransformerEntry;
  const t0 = performance.now();
  const plan = capacityPlan({
    entry,
    engine: 'vllm',
    formats: ['bf16', 'fp8', 'int8', 'int4'],
    gpus: GPUS.map((g) => ({ sheet: resolveGpuName(g), maxPerReplica: 8 })),
    load: { rate: 20, prompt: 2000, output: 300, requests, seed: 1 },
    slo: [
      { metric: 'ttft', percentile: 'p90', ms: 1000 },
      { metric: 'tpot', percentile: 'p90', ms: 50 },
    ],
    price: (g) => priceOf(g, new Map()),
    top: 5,
  });
  const seconds = (performance.now() - t0) / 1000;
  const best = plan.deployments[0];
  const row = {
    model,
    seconds: Math.round(seconds * 100) / 100,
    candidates: plan.candidates,
    simulations: plan.simulations,
    meeting: plan.meeting,
    best: best
      ? `${best.replicas} x ${best.gpusPerReplica} ${best.gpu} ${best.weights}, $${best.perHour?.toFixed(2)}/h, breaks at ${best.breaksAt?.toFixed(1)} req/s`
      : null,
  };
  console.log(JSON.stringify(row));
  return row;
});

const date = new Date().toISOString().slice(0, 10);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  `bench/results/serving-capacity-${date}.json`,
  JSON.stringify({ date, cpu: cpus()[0]?.model, requests, gpus: GPUS, rows }, null, 2) + '\n',
);
