/**
 * A layout the user runs today ("tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8"), priced exactly as
 * given, to set beside the recommendation. Pure.
 *
 * Keys (all optional, once each): tp, pp, dp (tp·pp·dp = the GPUs of the plan; dp defaults to
 * what is left), zero (0-3, or fsdp = 3, fsdp-grad-op = 2), recompute (none, selective, full),
 * mb (microbatches a step; default: the best that divides the batch), schedule (1f1b, gpipe).
 * The stages split the transformer blocks evenly (the embeddings ride with the first block, the
 * head with the last), or, for a model without blocks, the layers as evenly as they go. Each stage
 * holds tp·dp devices: dp replicas of tp. Devices of one kind are taken in order; devices of
 * several kinds are handed to the stages largest memory first (the first stage keeps the most
 * activations in flight), and the answer says so.
 */
import { UserError } from '../errors.js';
import { pricePlan, tensorDegreeProblem, type StageSpec } from './cost/plan-cost.js';
import { recomputeProblem } from './cost/recompute.js';
import { microbatchCandidates, plannerContext } from './problem.js';
import { bestOverMicrobatches } from './search/whole-model.js';
import { memoryClassKey } from './search/group-space.js';
import { planZeroStage } from './search/plan-ranking.js';
import { count } from '../text/plural.js';
import type { CostModel } from './cost/cost-model.js';
import type { Plan, PlanProblem, Recompute, Schedule } from './types.js';

export interface Layout {
  tp: number;
  pp: number;
  /** Absent: the GPUs left over tp·pp. */
  dp?: number;
  zero?: 0 | 1 | 2 | 3;
  recompute?: 'none' | Recompute;
  mb?: number;
  schedule?: Schedule;
}

export interface PricedLayout {
  /** The layout as priced, every key written out. */
  text: string;
  plan: Plan;
  problem: PlanProblem;
  /** Said with the answer: how devices of several kinds were placed. */
  notes: string[];
}

const KEYS = ['tp', 'pp', 'dp', 'zero', 'recompute', 'mb', 'schedule'] as const;
type Key = (typeof KEYS)[number];
const EXAMPLE = 'e.g. "tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8"';
const ZERO_WORDS: Record<string, 0 | 1 | 2 | 3> = { '0': 0, '1': 1, '2': 2, '3': 3, fsdp: 3, 'fsdp-grad-op': 2 };

function wholeNumber(key: Key, value: string, max: number): number {
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > max)
    throw new UserError(`--layout ${key}=${value}: ${key} takes a whole number from 1 to ${max}`);
  return Number(value);
}

/** "tp=2,pp=4,..." → a layout; one line naming what works for a bad key or value. */
export function parseLayout(text: string): Layout {
  const layout: Layout = { tp: 1, pp: 1 };
  const seen = new Set<string>();
  const items = text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (items.length === 0) throw new UserError(`--layout is empty; give keys like ${EXAMPLE}`);
  for (const item of items) {
    const m = /^([a-z_-]+)\s*=\s*(\S+)$/i.exec(item);
    const key = m?.[1]?.toLowerCase() ?? '';
    const value = m?.[2]?.toLowerCase() ?? '';
    if (!m || !(KEYS as readonly string[]).includes(key))
      throw new UserError(
        `--layout: unknown key ${JSON.stringify(m ? key : item.slice(0, 40))}; keys: ${KEYS.join(', ')} (${EXAMPLE})`,
      );
    if (seen.has(key)) throw new UserError(`--layout: ${key} is given twice`);
    seen.add(key);
    setKey(layout, key as Key, value);
  }
  return layout;
}

function setKey(layout: Layout, key: Key, value: string): void {
  switch (key) {
    case 'tp':
    case 'pp':
    case 'dp':
      layout[key] = wholeNumber(key, value, 4096);
      return;
    case 'mb':
      layout.mb = wholeNumber(key, value, 1 << 16);
      return;
    case 'zero': {
      const z = ZERO_WORDS[value];
      if (z === undefined)
        throw new UserError(`--layout zero=${value}: zero takes 0, 1, 2, 3, fsdp (= 3) or fsdp-grad-op (= 2)`);
      layout.zero = z;
      return;
    }
    case 'recompute':
      if (value !== 'none' && value !== 'selective' && value !== 'full')
        throw new UserError(`--layout recompute=${value}: recompute takes none, selective or full`);
      layout.recompute = value;
      return;
    case 'schedule':
      if (value !== '1f1b' && value !== 'gpipe')
        throw new UserError(`--layout schedule=${value}: schedule takes 1f1b or gpipe`);
      layout.schedule = value;
  }
}

/** "tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8,schedule=1f1b" for what was priced. */
function layoutText(l: Required<Layout>): string {
  return `tp=${l.tp},pp=${l.pp},dp=${l.dp},zero=${l.zero},recompute=${l.recompute},mb=${l.mb},schedule=${l.schedule}`;
}

const divisors = (n: number, most = 64): number[] =>
  Array.from({ length: Math.min(n, most) }, (_, i) => i + 1).filter((d) => n % d === 0);

/** The degrees from 1 to 64 that divide every split layer's heads, KV heads (and experts). */
function tensorDegreesThatWork(problem: PlanProblem): number[] {
  const counts = [...new Set(problem.layers.flatMap((l) => l.tensor?.divides ?? []))];
  return Array.from({ length: 64 }, (_, i) => i + 1).filter((t) => counts.every((n) => n % t === 0));
}

/** Checks the layout against the problem: one line naming what works. */
function checkLayout(problem: PlanProblem, layout: Layout, workload: string): Required<Layout> {
  const gpus = problem.devices.length;
  const { tp, pp } = layout;
  const split = problem.layers.filter((l) => l.tensor);
  if (tp > 1 && split.length === 0)
    throw new UserError(
      `--layout tp=${tp}: ${workload} does not split tensor-parallel (catalog transformers and GGUF decoders do); use tp=1`,
    );
  const counts = split[0]?.tensor?.divides ?? [];
  if (split.some((l) => (l.tensor?.divides ?? []).some((n) => n % tp !== 0))) {
    const [heads, kvHeads, experts] = counts;
    throw new UserError(
      `--layout tp=${tp}: a tensor-parallel degree must divide ${workload}'s ${heads} attention heads and ${kvHeads ?? heads} KV heads` +
        `${experts !== undefined ? ` and ${experts} experts` : ''} (degrees that do: ${tensorDegreesThatWork(problem).join(', ')})`,
    );
  }
  const dp = layout.dp ?? gpus / (tp * pp);
  if (!Number.isInteger(dp) || tp * pp * dp !== gpus)
    throw new UserError(
      `--layout tp=${tp} x pp=${pp}${layout.dp !== undefined ? ` x dp=${layout.dp}` : ''} does not use the plan's ${count(gpus, 'device')}: make tp x pp x dp = ${gpus}`,
    );
  const L = problem.layers.length;
  const blocks = blockRange(problem);
  if (pp > L) throw new UserError(`--layout pp=${pp}: ${workload} has ${count(L, 'layer')}; give pp=${L} or less`);
  if (blocks && blocks.count % pp !== 0)
    throw new UserError(
      `--layout pp=${pp} does not divide ${workload}'s ${blocks.count} transformer blocks evenly (pp that do: ${divisors(blocks.count).join(', ')})`,
    );
  const zero = layout.zero ?? problem.zeroStage;
  if (zero >= 2 && pp > 1)
    throw new UserError(
      `--layout zero=${zero} with pp=${pp}: DeepSpeed runs ZeRO stages 2 and 3 without pipeline parallelism; use zero=1 (or 0) with pp, or pp=1`,
    );
  if (problem.mode !== 'training' && (layout.zero ?? 0) > 0)
    throw new UserError(`--layout zero=${layout.zero}: ZeRO shards training state; leave zero out when serving`);
  if (problem.mode !== 'training' && layout.recompute !== undefined && layout.recompute !== 'none')
    throw new UserError(
      `--layout recompute=${layout.recompute}: recomputation is for training; leave it out when serving`,
    );
  if (layout.mb !== undefined && problem.batch % layout.mb !== 0)
    throw new UserError(
      `--layout mb=${layout.mb} does not divide the batch of ${problem.batch} (mb that do: ${divisors(problem.batch).join(', ')})`,
    );
  return {
    tp,
    pp,
    dp,
    zero: problem.mode === 'training' ? zero : 0,
    recompute: layout.recompute ?? 'none',
    mb: layout.mb ?? 0,
    schedule: layout.schedule ?? '1f1b',
  };
}

/** The transformer blocks ("block.N" layers, contiguous), or null for a model without them. */
function blockRange(problem: PlanProblem): { first: number; count: number } | null {
  const idx = problem.layers.flatMap((l, i) => (/^block\.\d+$/.test(l.name) ? [i] : []));
  if (idx.length === 0) return null;
  const first = idx[0] as number;
  return idx.every((v, i) => v === first + i) ? { first, count: idx.length } : null;
}

/** Stage boundaries: the blocks split evenly (embeddings with the first, the head with the last), else the layers as evenly as they go. */
function stageBounds(problem: PlanProblem, pp: number): number[] {
  const L = problem.layers.length;
  const blocks = blockRange(problem);
  if (!blocks) return Array.from({ length: pp + 1 }, (_, s) => Math.round((s * L) / pp));
  const per = blocks.count / pp;
  return Array.from({ length: pp + 1 }, (_, s) => (s === 0 ? 0 : s === pp ? L : blocks.first + s * per));
}

/** The devices in the order stages take them, and a note when they differ. */
function devicesInOrder(problem: PlanProblem): { ids: string[]; notes: string[] } {
  const kinds = new Set(problem.devices.map(memoryClassKey));
  if (kinds.size === 1) return { ids: problem.devices.map((d) => d.id), notes: [] };
  const sorted = [...problem.devices].sort((a, b) => b.memoryBytes - a.memoryBytes);
  return {
    ids: sorted.map((d) => d.id),
    notes: [
      `the layout's stages take the plan's ${kinds.size} kinds of device largest memory first; layers split evenly, not by speed (the recommendation balances them)`,
    ],
  };
}

/**
 * The layout priced on the problem (its ZeRO stage and recomputation applied), with the best
 * microbatch count when mb is not given. Priced whether or not it fits: the plan's reasons say why.
 */
export function priceLayout(
  problem: PlanProblem,
  layout: Layout,
  opts: { workload: string; costModel?: CostModel },
): PricedLayout {
  const l = checkLayout(problem, layout, opts.workload);
  const zeroed: PlanProblem = {
    ...problem,
    zeroStage: l.zero as 0 | 1 | 2 | 3,
    ...(l.tp > 1 ? { tensorDegrees: [1, l.tp] } : {}),
  };
  const variant = l.recompute === 'none' ? zeroed : recomputeProblem(zeroed, l.recompute);
  if (!variant)
    throw new UserError(
      `--layout recompute=${l.recompute}: ${opts.workload} has no transformer block to recompute selectively; use full or none`,
    );
  const ctx = plannerContext(variant, opts.costModel);
  const bad = tensorDegreeProblem(ctx, 0, variant.layers.length, l.tp);
  if (bad) throw new UserError(`--layout tp=${l.tp}: ${bad}`);
  const { ids, notes } = devicesInOrder(variant);
  const bounds = stageBounds(variant, l.pp);
  const width = l.tp * l.dp;
  const stages: StageSpec[] = bounds.slice(1).map((to, s) => ({
    from: bounds[s] as number,
    to,
    devices: ids.slice(s * width, (s + 1) * width),
    ...(l.tp > 1 ? { tp: l.tp } : {}),
  }));
  const plan =
    l.mb > 0
      ? pricePlan(ctx, { stages, microbatches: l.mb, schedule: l.schedule })
      : bestOverMicrobatches(ctx, stages, microbatchCandidates(variant.batch), l.schedule);
  const priced: Plan = {
    ...plan,
    ...(variant.recompute ? { recompute: variant.recompute } : {}),
    ...(variant.mode === 'training' ? { zeroStage: planZeroStage(plan, variant) } : {}),
  };
  return { text: layoutText({ ...l, mb: plan.microbatches }), plan: priced, problem: variant, notes };
}
