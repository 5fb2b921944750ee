/**
 * Held-out latency-vs-rate (issue 61 item 4). Run: npm run bench:serving-rate
 * Every published cell of bench/engines/cells-*.json that gives a latency (TTFT, TPOT, ITL, E2E)
 * at a numeric request rate is simulated with the core's serve(): Poisson arrivals at the cell's
 * rate, the cell's request count, on the deployment the engine bench prices the cell on (its GPU,
 * engine version, weights, TP and stated caps: cellQuery), and the predicted statistic (median or
 * mean, as the source names it) is compared with the published one. Nothing is fitted here.
 * Lengths: fixed when the cell states them; for ShareGPT (sglang.bench_serving / vLLM
 * benchmark_serving, which drop prompts over 1024 tokens and prompt+output over 2048) a lognormal
 * with sigma 1 (assumed), clamped to 1024, whose draws average the dataset's mean output of 194 tokens
 * (SGLang's own offline table: 4281.51 output tok/s / 22.03 req/s) and an assumed mean prompt of 215
 * tokens (no source here states it); sigma and the prompt mean are assumptions, not fitted. Where a
 * run states its total input and generated tokens, those give its means. A `--dataset-name random`
 * prompt on Llama 3's or Qwen's tokenizer is served as the server re-encodes it (bench/lib/bench-workload.ts:
 * 1.046x + BOS tokens at 6.16 bytes a token, or 1.051x at 5.99, measured).
 * Each cell is run on SEEDS seeds and the median prediction kept. Where a source gives a curve (3 or
 * more rates of one setting), the rate where it breaks an SLO of 3x its lowest-rate published value
 * is found on the published and on the predicted curve by one rule: both read at the published
 * rates only, first crossing, linear between the two rates around it (breakRate).
 * Writes bench/results/serving-rate-DATE.json and prints markdown.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getCatalogEntry } from '../src-main/core/catalog/index.js';
import type { TransformerEntry } from '../src-main/core/catalog/schema.js';
import { engineDeployment } from '../src-main/core/engines/engine-deployment.js';
import { serve, type ServingLoad, type ServingRun } from '../src-main/core/engines/engine-figures.js';
import type { EngineRules } from '../src-main/core/engines/engine-rules.js';
import { engineRules } from '../src-main/core/engines/engines.js';
import { engineAllReduce } from '../src-main/core/engines/plan-deployment.js';
import { createCostModel } from '../src-main/core/planner/cost/cost-model.js';
import { virtualDevice } from '../src-main/core/planner/cost/datasheets.js';
import { buildPlanLinks } from '../src-main/core/planner/cost/links.js';
import type { LengthSpec } from '../src-main/core/serving/lengths.js';
import type { LatencySummary } from '../src-main/core/serving/serving-metrics.js';
import { servedFormat } from '../src-main/services/plan/serving-engine.js';
import type { PlanRequest } from '../src-main/services/plan/plan-request.js';
import { loadEngineTable, type EngineCell } from './engines/cells.js';
import { medianForMean, randomPromptOf, randomPromptTokens } from './lib/bench-workload.js';
import { cellQuery, expressed } from './engines/engine-cell.js';
import { exactGpu } from './lib/published-model.js';

const SEEDS = [1, 2, 3, 4, 5];
const SHAREGPT = {
  prompt: { kind: 'lognormal', median: 138, sigma: 1, max: 1024 } as LengthSpec,
  output: { kind: 'lognormal', median: 123, sigma: 1, max: 1024 } as LengthSpec,
  note: 'ShareGPT as lognormal sigma 1 clamped to 1024: prompt median 138 (mean 214, assumed), output median 123 (mean 193; SGLang offline table: 194)',
};
/** Requests when the source states none. */
const DEFAULT_REQUESTS = 1000;

const num = (c: EngineCell, k: string): number | undefined => {
  const v = c.config[k];
  return typeof v === 'number' ? v : undefined;
};

/** --num-scheduler-steps N where the cell's quoted launch (its note or quote) states it. */
function stepsStated(c: EngineCell): number | undefined {
  const m = /--num[-_]scheduler[-_]steps[ =](\d+)/.exec(`${c.quote} ${c.note ?? ''}`);
  return m ? Number(m[1]) : undefined;
}

/** The engine's rules at the cell's version with the caps its launch states (services' withSettings). */
function rulesOf(req: PlanRequest): EngineRules {
  const r = engineRules(req.engine as Exclude<PlanRequest['engine'], 'auto' | 'ideal' | undefined>, {
    ...(req.engineVersion !== undefined ? { version: req.engineVersion } : {}),
  });
  const s = req.engineSettings ?? {};
  return {
    ...r,
    ...(s.flashAttention === true && r.flashAttention ? { attention: r.flashAttention } : {}),
    batching: {
      ...r.batching,
      ...(s.maxNumSeqs !== undefined ? { maxNumSeqs: s.maxNumSeqs } : {}),
      ...(s.maxBatchedTokens !== undefined ? { maxBatchedTokens: s.maxBatchedTokens } : {}),
      ...(s.schedulerSteps !== undefined ? { schedulerSteps: s.schedulerSteps } : {}),
    },
    memory: {
      ...r.memory,
      ...(s.memoryUtilization !== undefined ? { utilization: s.memoryUtilization, utilizationByTp: [] } : {}),
      ...(s.kvShareOfFree !== undefined ? { kvShareOfFree: s.kvShareOfFree } : {}),
    },
  };
}

/**
 * The cell's requests as the server sees them (bench-workload.ts): ShareGPT lengths (the run's stated
 * token totals where the source gives them, else the header's assumption); fixed lengths, where a
 * random-dataset prompt through a measured tokenizer (Llama 3's, Qwen's) is re-encoded longer and packs
 * about 6 bytes a token.
 */
function workloadOf(
  c: EngineCell,
  entry: TransformerEntry,
  requests: number,
): { load: Pick<ServingLoad, 'prompt' | 'output' | 'promptBytesPerToken'>; lengths: string } {
  if (c.config.dataset === 'sharegpt') {
    const inTotal = num(c, 'inputTokensTotal');
    const outTotal = num(c, 'outputTokensTotal');
    const assumed = {
      load: { prompt: SHAREGPT.prompt, output: SHAREGPT.output },
      lengths: 'ShareGPT (assumed, see header)',
    };
    if (inTotal === undefined || outTotal === undefined) return assumed;
    const pm = medianForMean(inTotal / requests, 1, 1024);
    const om = medianForMean(outTotal / requests, 1, 1024);
    if (pm === null || om === null) return assumed;
    return {
      load: {
        prompt: { kind: 'lognormal', median: Math.round(pm), sigma: 1, max: 1024 },
        output: { kind: 'lognormal', median: Math.round(om), sigma: 1, max: 1024 },
      },
      lengths: `ShareGPT, stated means ${(inTotal / requests).toFixed(0)}/${(outTotal / requests).toFixed(0)}`,
    };
  }
  const prompt = num(c, 'promptTokens') as number;
  const output = num(c, 'outputTokens') as number;
  const tokenizer =
    c.config.dataset === 'random' && entry.vocab !== undefined ? randomPromptOf(entry.vocab) : undefined;
  if (tokenizer) {
    const seen = randomPromptTokens(prompt, tokenizer);
    return {
      load: { prompt: seen, output, promptBytesPerToken: tokenizer.bytesPerToken },
      lengths: `${prompt}/${output} random (server sees ${seen})`,
    };
  }
  return { load: { prompt, output }, lengths: `${String(prompt)}/${String(output)} fixed` };
}

interface Priced {
  id: string;
  set: string;
  source: string;
  rate: number;
  kind: string;
  stat: 'p50' | 'mean';
  published: number;
  predicted: number;
  error: number;
  /**
   * The same statistic at a vanishing rate (the cell's lengths, one request at a time): the request alone
   * (its tokenization where the engine's rules state one, then its prefill).
   */
  alone: number;
  /** The statistic on each seed, in SEEDS' order (the unit of `predicted`). */
  bySeed: number[];
  /** The median seed's run: output tokens a second (over its makespan), most sequences in one step, preemptions. */
  outputTokensPerSecond: number;
  peakRunning: number;
  preemptions: number;
  lengths: string;
  requests: number;
  maxNumSeqs: number;
}

function predict(
  c: EngineCell,
  set: string,
  date: string | undefined,
  withAlone = true,
): Priced | { id: string; notExpressible: string } {
  return expressed(c.id, () => {
    const sharegpt = c.config.dataset === 'sharegpt';
    // The engine bench refuses dataset lengths; the query is built with the means, then lengths are drawn.
    const { dataset: _dataset, ...stated } = c.config;
    const q = cellQuery(sharegpt ? { ...c, config: { ...stated, promptTokens: 215, outputTokens: 194 } } : c, date);
    const req = q.request;
    const gpu = exactGpu(c.gpu);
    if (!gpu) throw new Error(`GPU ${c.gpu}`);
    const tp = Number(/tp=(\d+)/.exec(req.layout)?.[1] ?? 1);
    const pp = Number(/pp=(\d+)/.exec(req.layout)?.[1] ?? 1);
    if (pp !== 1) throw new Error(`pipeline parallel ${pp}`);
    const entry = (req.decoder ?? getCatalogEntry(req.workload)) as TransformerEntry;
    // TensorRT-LLM's stated max batch size is its cap on sequences in flight (cellQuery reads it as a static batch only).
    const maxBatch = num(c, 'maxBatch');
    // vLLM's multi-step scheduling, where the cell's launch line states it.
    const steps = stepsStated(c);
    const rules = rulesOf({
      ...req,
      engineSettings: {
        ...(maxBatch !== undefined ? { maxNumSeqs: maxBatch } : {}),
        ...(steps !== undefined ? { schedulerSteps: steps } : {}),
        ...req.engineSettings,
      },
    });
    const devices = Array.from({ length: tp }, (_, i) => virtualDevice(gpu.name, { index: i }).device);
    const links = buildPlanLinks(devices).links;
    const costModel = createCostModel(links);
    const dep = engineDeployment({
      engine: rules,
      entry,
      format: servedFormat(req.weights, req.dtype ?? 'fp16'),
      kvCache: req.kvCache ?? 'auto',
      stages: [{ gpu, blocks: entry.layers, members: devices.map((d) => d.id) }],
      allReduceUs: engineAllReduce(rules, links, costModel),
      sendUs: (a, b, bytes) => costModel.linkUs(a, b, bytes),
    });
    const rate = c.config.requestRate as number;
    const requests = num(c, 'numPrompts') ?? DEFAULT_REQUESTS;
    const w = workloadOf(c, entry, requests);
    const stat: 'p50' | 'mean' = /median|p50/i.test(c.metric) ? 'p50' : 'mean';
    const pick = (r: ServingRun): LatencySummary =>
      c.kind === 'ttft' ? r.ttft : c.kind === 'tpot' ? r.tpot : c.kind === 'itl' ? r.itl : r.e2e;
    const bySeed = SEEDS.map((seed) =>
      serve(dep, { ...w.load, requests, arrival: { kind: 'rate', perSecond: rate, seed } }),
    );
    const runs = [...bySeed].sort((a, b) => pick(a)[stat] - pick(b)[stat]);
    // The run of the median seed: its statistic, and what the replica did in it.
    const mid = runs[Math.floor(runs.length / 2)] as ServingRun;
    const us = pick(mid)[stat];
    const scale = c.unit === 's' ? 1e-6 : 1e-3;
    const predicted = us * scale;
    // A vanishing rate: each request alone on the replica (what the lowest rate of a curve tends to).
    const aloneUs = !withAlone
      ? NaN
      : pick(serve(dep, { ...w.load, requests, arrival: { kind: 'rate', perSecond: 1e-4, seed: 1 } }))[stat];
    return {
      id: c.id,
      set,
      source: c.source,
      rate,
      kind: c.kind,
      stat,
      published: c.value,
      predicted,
      error: predicted / c.value - 1,
      alone: aloneUs * scale,
      bySeed: bySeed.map((r) => pick(r)[stat] * scale),
      outputTokensPerSecond: mid.outputTokensPerSecond,
      peakRunning: mid.sim.peakRunning,
      preemptions: mid.sim.preemptions,
      lengths: w.lengths,
      requests,
      maxNumSeqs: rules.batching.maxNumSeqs,
    };
  });
}

const table = loadEngineTable(path.join('bench', 'engines'));
const cells = table.cells.filter(
  (c) => typeof c.config.requestRate === 'number' && ['ttft', 'tpot', 'itl', 'e2e'].includes(c.kind),
);
const started = Date.now();
const results = cells.map((c) => {
  const s = table.sources.get(c.source);
  return predict(c, s?.set ?? 'held-out', s?.date);
});
const priced = results.filter((r): r is Priced => 'error' in r);
const refused = results.filter((r): r is { id: string; notExpressible: string } => 'notExpressible' in r);

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0
    ? NaN
    : s.length % 2
      ? (s[(s.length - 1) / 2] as number)
      : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};
const pct = (x: number): string => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(x * 100).toFixed(0)}%` : 'n/a');

/** One curve: cells of one source and setting (the id without its rate), by rate. */
const curveKey = (p: Priced): string => `${p.source}|${p.id.replace(/-?(rps|qps)[0-9.]+/, '')}`;
const curves = new Map<string, Priced[]>();
for (const p of priced) curves.set(curveKey(p), [...(curves.get(curveKey(p)) ?? []), p]);

/** First rate where the value passes `slo`, linear between rates; null: never within the published rates. */
function breakRate(points: readonly { rate: number; v: number }[], slo: number): number | null {
  for (let i = 0; i < points.length; i++) {
    const b = points[i] as { rate: number; v: number };
    if (b.v <= slo) continue;
    if (i === 0) return b.rate;
    const a = points[i - 1] as { rate: number; v: number };
    return a.rate + ((slo - a.v) / (b.v - a.v)) * (b.rate - a.rate);
  }
  return null;
}
/**
 * The predicted curve's own break, without the published grid's interpolation: the median-seed
 * value at DENSE rates between each pair of published rates (each priced as the upper cell, with its
 * request count and lengths, at that rate), linear between those. Null: not broken within the rates.
 */
const DENSE = 8;
function denseBreak(s: readonly Priced[], slo: number): number | null {
  const points: { rate: number; v: number }[] = [{ rate: (s[0] as Priced).rate, v: (s[0] as Priced).predicted }];
  for (let i = 1; i < s.length; i++) {
    const a = s[i - 1] as Priced;
    const b = s[i] as Priced;
    const cell = table.cells.find((c) => c.id === b.id) as EngineCell;
    const src = table.sources.get(cell.source);
    for (let k = 1; k < DENSE; k++) {
      const rate = a.rate + ((b.rate - a.rate) * k) / DENSE;
      const p = predict({ ...cell, config: { ...cell.config, requestRate: rate } }, b.set, src?.date, false);
      if ('error' in p) points.push({ rate, v: p.predicted });
    }
    points.push({ rate: b.rate, v: b.predicted });
    const hit = breakRate(points, slo);
    if (hit !== null) return hit;
  }
  return null;
}
const breaks = [...curves.entries()]
  .filter(([, ps]) => new Set(ps.map((p) => p.rate)).size >= 3)
  .map(([key, ps]) => {
    const s = [...ps].sort((a, b) => a.rate - b.rate);
    const slo = 3 * (s[0] as Priced).published;
    const pub = breakRate(
      s.map((p) => ({ rate: p.rate, v: p.published })),
      slo,
    );
    const pred = breakRate(
      s.map((p) => ({ rate: p.rate, v: p.predicted })),
      slo,
    );
    // The predicted break on each seed alone: how far the arrivals' draw moves it (null: not broken).
    const seeds = SEEDS.map((_, i) =>
      breakRate(
        s.map((p) => ({ rate: p.rate, v: p.bySeed[i] as number })),
        slo,
      ),
    );
    const broken = seeds.filter((x): x is number => x !== null);
    // The published curve is known at its rates only: its break lies after the last rate under the SLO.
    const over = s.findIndex((p) => p.published > slo);
    const bracket = over < 0 ? null : over === 0 ? `<= ${s[0]?.rate}` : `${s[over - 1]?.rate}-${s[over]?.rate}`;
    return {
      bracket,
      dense: pub === null && pred === null ? null : denseBreak(s, slo),
      curve: key.split('|')[1] as string,
      set: (s[0] as Priced).set,
      slo,
      published: pub,
      predicted: pred,
      seedRange:
        broken.length === 0
          ? 'none'
          : `${Math.min(...broken).toFixed(1)}-${Math.max(...broken).toFixed(1)}${broken.length < seeds.length ? ` (${seeds.length - broken.length} none)` : ''}`,
      error: pub !== null && pred !== null ? pred / pub - 1 : null,
    };
  });

const lines: string[] = [];
lines.push(`## Latency vs request rate: ${priced.length} cells priced, ${refused.length} not expressible`);
lines.push('');
lines.push(`${SHAREGPT.note}; seeds ${SEEDS.join(',')} (median kept); requests: the cell's numPrompts.`);
lines.push('');
lines.push('| set | kind | stat | cells | median abs error | median signed | within 20% |');
lines.push('| --- | --- | --- | ---: | ---: | ---: | ---: |');
for (const set of ['held-out', 'calibration']) {
  for (const kind of ['ttft', 'tpot', 'itl', 'e2e']) {
    for (const stat of ['p50', 'mean']) {
      const xs = priced.filter((p) => p.set === set && p.kind === kind && p.stat === stat);
      if (xs.length === 0) continue;
      const within = xs.filter((p) => Math.abs(p.error) <= 0.2).length;
      lines.push(
        `| ${set} | ${kind} | ${stat} | ${xs.length} | ${(median(xs.map((p) => Math.abs(p.error))) * 100).toFixed(0)}% | ${pct(median(xs.map((p) => p.error)))} | ${within}/${xs.length} |`,
      );
    }
  }
}
lines.push('');
lines.push('| set | source | kind | cells | median abs error | median signed |');
lines.push('| --- | --- | --- | ---: | ---: | ---: |');
for (const source of [...new Set(priced.map((p) => p.source))])
  for (const kind of ['ttft', 'tpot', 'itl', 'e2e']) {
    const xs = priced.filter((p) => p.source === source && p.kind === kind);
    if (xs.length > 0)
      lines.push(
        `| ${(xs[0] as Priced).set} | ${source} | ${kind} | ${xs.length} | ${(median(xs.map((p) => Math.abs(p.error))) * 100).toFixed(0)}% | ${pct(median(xs.map((p) => p.error)))} |`,
      );
  }
/**
 * TTFT split along each curve: (a) the low-rate limit (the lowest published rate against the prefill
 * alone, at a vanishing rate) and (b) the growth with rate up to the highest rate whose published
 * value stays under 3x the lowest (published rise against predicted rise).
 */
const splits = [...curves.values()]
  .filter((ps) => ps[0]?.kind === 'ttft' && new Set(ps.map((p) => p.rate)).size >= 3)
  .map((ps) => {
    const s = [...ps].sort((a, b) => a.rate - b.rate);
    const low = s[0] as Priced;
    const high = [...s].reverse().find((p) => p.published < 3 * low.published) ?? low;
    return { low, high };
  });
lines.push('');
lines.push(
  'TTFT split per curve: (a) low-rate limit = the request alone (vanishing rate: tokenization where stated, prefill) against the lowest published rate; (b) rise from the lowest rate to the highest one under 3x it, published against predicted:',
);
lines.push('');
lines.push('| set | curve | lowest rate | published | alone | (a) error | to rate | published rise | predicted rise |');
lines.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const { low, high } of splits)
  lines.push(
    `| ${low.set} | ${curveKey(low).split('|')[1] ?? ''} | ${low.rate} | ${low.published} | ${low.alone.toPrecision(4)} | ${pct(low.alone / low.published - 1)} | ${high.rate} | ${(high.published - low.published).toPrecision(3)} | ${(high.predicted - low.predicted).toPrecision(3)} |`,
  );
lines.push('');
lines.push(
  "SLO breaking rate. Rule, the same for the published and the predicted curve: SLO = 3x the curve's lowest-rate published value; each curve is read at the published rates only (the predicted one as the median of the seeds at each rate) and breaks at its first crossing, linear between the two rates around it; a curve already over the SLO at its lowest rate breaks there (only a predicted curve can). \"none\": not broken within the published rates. A perfect model scores 0, but a knee between two rates moves both breaks by up to the gap. Beside the error, not in it: the seeds' own breaks; the published rates the published break lies between; the predicted curve's own break from the median seed at 7 more rates between each pair:",
);
lines.push('');
lines.push(
  '| set | curve | SLO | published break (req/s) | predicted | error | predicted, seed by seed | published break lies in | predicted, dense rates |',
);
lines.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const b of breaks)
  lines.push(
    `| ${b.set} | ${b.curve} | ${b.slo.toFixed(1)} | ${b.published?.toFixed(1) ?? 'none'} | ${b.predicted?.toFixed(1) ?? 'none'} | ${b.error === null ? (b.published === b.predicted ? 'agree' : 'disagree') : pct(b.error)} | ${b.seedRange} | ${b.bracket ?? 'none'} | ${b.dense?.toFixed(2) ?? 'none'} |`,
  );
/** The source's output throughput at the same rate and setting (its -out / -out-tput cell), tokens/s. */
function publishedOutput(p: Priced): number | undefined {
  const stem = p.id.replace(/-(ttft|tpot|itl|e2e)$/, '');
  const cell = table.cells.find(
    (c) => c.kind === 'throughput' && (c.id === `${stem}-out` || c.id === `${stem}-out-tput`),
  );
  return cell?.value;
}
lines.push('');
lines.push(
  "Held-out curves side by side (the median seed's run): the value, the output throughput over the run (first arrival to last token) published and predicted, and the replica's batch (most sequences in a step, preemptions):",
);
lines.push('');
lines.push(
  '| curve | rate | published | predicted | error | out tok/s published | predicted | error | peak running | preemptions |',
);
lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const [key, ps] of curves) {
  if (ps[0]?.set !== 'held-out' || new Set(ps.map((p) => p.rate)).size < 3) continue;
  for (const p of [...ps].sort((a, b) => a.rate - b.rate)) {
    const out = publishedOutput(p);
    lines.push(
      `| ${key.split('|')[1] ?? ''} | ${p.rate} | ${p.published} | ${p.predicted.toPrecision(4)} | ${pct(p.error)} | ${out ?? '-'} | ${p.outputTokensPerSecond.toFixed(0)} | ${out === undefined ? '-' : pct(p.outputTokensPerSecond / out - 1)} | ${p.peakRunning} | ${p.preemptions} |`,
    );
  }
}
lines.push('');
lines.push(
  '| set | cell | rate | published | predicted | error | alone (vanishing rate) | lengths | requests | max seqs |',
);
lines.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |');
for (const p of priced.filter((x) => x.set === 'held-out').concat(priced.filter((x) => x.set !== 'held-out')))
  lines.push(
    `| ${p.set} | ${p.id} | ${p.rate} | ${p.published} | ${p.predicted.toPrecision(4)} | ${pct(p.error)} | ${p.alone.toPrecision(4)} | ${p.lengths} | ${p.requests} | ${p.maxNumSeqs} |`,
  );
lines.push('');
const reasons = new Map<string, number>();
for (const r of refused) reasons.set(r.notExpressible, (reasons.get(r.notExpressible) ?? 0) + 1);
for (const [why, n] of reasons) lines.push(`- not expressible (${n}): ${why}`);
lines.push('');
lines.push(
  `Machine: ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}; Node ${process.version}; date ${new Date().toISOString().slice(0, 10)}; ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
console.log(lines.join('\n'));

const date = new Date().toISOString().slice(0, 10);
const out = path.join('bench', 'results');
mkdirSync(out, { recursive: true });
writeFileSync(
  path.join(out, `serving-rate-${date}.json`),
  `${JSON.stringify({ date, lengths: SHAREGPT.note, seeds: SEEDS, priced, refused, breaks }, null, 2)}\n`,
);
