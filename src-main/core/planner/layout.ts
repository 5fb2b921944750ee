/**
 * A layout the user runs today ("tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8"), priced exactly as
 * given, to set beside the recommendation. Pure.
 *
 * Keys (all optional, once each): tp, pp, dp (tp·pp·dp = the GPUs of the plan; dp defaults to
 * what is left), zero (0-3, or fsdp = 3, fsdp-grad-op = 2), recompute (none, selective, full),
 * mb (microbatches each replica runs a step; training: a divisor of the replica's share of the
 * batch, default the best of all of them, uncapped), schedule (1f1b, gpipe),
 * vp (Megatron-LM's interleaved 1F1B: model chunks a stage, its virtual pipeline size; default 1:
 * the transformer blocks split into pp·vp equal chunks, mb a multiple of pp, devices of one kind),
 * cp (Megatron-LM's context parallelism: each sample's sequence over cp GPUs, ring attention;
 * tp·cp·pp·dp = the GPUs), ep (expert parallelism of a mixture of experts: its experts over ep GPUs
 * of a stage, a multiple of tp; absent: over the tensor-parallel group as the search plans them);
 * layout-groups.ts checks both and says what they send; shard (hybrid sharding, HSDP: zero=3 over
 * shard groups of that many consecutive data-parallel replicas, the groups replicating each other;
 * a divisor of dp).
 * The stages split the layers as the stack that runs them does (stage-split.ts: without one, the
 * blocks evenly when pp divides them, else the embedding and the head weighed one block each; the
 * embeddings ride with the first block, the head with the last; pp up to the blocks). Each stage
 * holds tp·dp devices: dp replicas of tp, taken in order. Devices of several kinds: the shape
 * is searched instead: the stages take the device classes in every order (up to 3 classes; more:
 * largest memory first, and last), the layers split to balance the stages' times (a min-max
 * DP), at each microbatch count; the best that fits is priced, and the answer says so.
 */
import { quoted } from '../text/shown.js';
import type { ServingFigures } from './serving/serving.js';
import type { StepBand } from './plan-summary.js';
import type { SimEvent } from './simulator/pipeline-simulator.js';
import { UserError } from '../errors.js';
import { pricePlan, tensorDegreeRefusal, type StageSpec } from './cost/plan-cost.js';
import { recomputeProblem } from './memory/recompute.js';
import { microbatchCandidates, plannerContext, type PlannerContext } from './problem/problem.js';
import { bestOverMicrobatches, rank } from './search/whole-model.js';
import { memoryClassKey } from './search/group-space.js';
import { planZeroStage } from './search/plan-ranking.js';
import { count } from '../text/plural.js';
import type { CostModel } from './cost/cost-model.js';
import type { Plan, PlanProblem, Recompute, Schedule } from './types.js';
import { blockRange, blocksPerStage, stageSplit } from './stage-split.js';
import type { TrainingStack } from './stacks/stack-names.js';
import { contextProblem } from './cost/context-parallel.js';
import { expertProblem } from './cost/expert-parallel.js';
import { checkGroups, groupNotes } from './layout-groups.js';

export interface Layout {
  tp: number;
  pp: number;
  /** Absent: the GPUs left over tp·pp. */
  dp?: number;
  zero?: 0 | 1 | 2 | 3;
  recompute?: 'none' | Recompute;
  mb?: number;
  schedule?: Schedule;
  /** Interleaved 1F1B: model chunks a stage (absent: 1). */
  vp?: number;
  /** Context parallelism: GPUs a sample's sequence is split over (absent: 1). */
  cp?: number;
  /** Expert parallelism: GPUs a MoE block's experts spread over (absent: the tensor-parallel group). */
  ep?: number;
  /** Hybrid sharding (HSDP): data-parallel replicas a ZeRO-3 shard group spans (absent: all). */
  shard?: number;
}

export interface PricedLayout {
  /** The layout as priced, every key written out. */
  text: string;
  plan: Plan;
  /** The problem as priced: its ZeRO stage, recomputation and experts applied, under cp its layers one rank's slice of a sample. */
  problem: PlanProblem;
  /** Said with the answer: how devices of several kinds were placed. */
  notes: string[];
  /** The context it was priced in (its problem as priced), to simulate its step in. */
  context: PlannerContext;
}

const KEYS = ['tp', 'pp', 'dp', 'zero', 'recompute', 'mb', 'schedule', 'vp', 'cp', 'ep', 'shard'] as const;
type Key = (typeof KEYS)[number];
const EXAMPLE = 'e.g. "tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8"';
const ZERO_WORDS: Record<string, 0 | 1 | 2 | 3> = { '0': 0, '1': 1, '2': 2, '3': 3, fsdp: 3, 'fsdp-grad-op': 2 };

function wholeNumber(key: Key, value: string, max: number): number {
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > max)
    throw new UserError(`--layout: ${key} takes a whole number from 1 to ${max}; got ${quoted(value)}`);
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
      throw new UserError(`--layout: unknown key ${quoted(m ? key : item)}; keys: ${KEYS.join(', ')} (${EXAMPLE})`);
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
    case 'cp':
    case 'ep':
    case 'shard':
      layout[key] = wholeNumber(key, value, 4096);
      return;
    case 'vp':
      layout.vp = wholeNumber(key, value, 64);
      return;
    case 'mb':
      layout.mb = wholeNumber(key, value, 1 << 16);
      return;
    case 'zero': {
      const z = ZERO_WORDS[value];
      if (z === undefined)
        throw new UserError(`--layout: zero takes 0, 1, 2, 3, fsdp (= 3) or fsdp-grad-op (= 2); got ${quoted(value)}`);
      layout.zero = z;
      return;
    }
    case 'recompute':
      if (value !== 'none' && value !== 'selective' && value !== 'full')
        throw new UserError(`--layout: recompute takes none, selective or full; got ${quoted(value)}`);
      layout.recompute = value;
      return;
    case 'schedule':
      if (value !== '1f1b' && value !== 'gpipe')
        throw new UserError(`--layout: schedule takes 1f1b or gpipe; got ${quoted(value)}`);
      layout.schedule = value;
  }
}

/** A layout as checked: every key but ep (absent: the experts over the tensor-parallel group) and shard (absent: no HSDP). */
type CheckedLayout = Required<Omit<Layout, 'ep' | 'shard'>> & Pick<Layout, 'ep' | 'shard'>;

/** "tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8,schedule=1f1b" for what was priced (",vp=2" when interleaved, ",cp=2", ",ep=8", ",shard=8"). */
function layoutText(l: CheckedLayout): string {
  const extra =
    `${l.vp > 1 ? `,vp=${l.vp}` : ''}${l.cp > 1 ? `,cp=${l.cp}` : ''}${l.ep !== undefined ? `,ep=${l.ep}` : ''}` +
    `${l.shard !== undefined ? `,shard=${l.shard}` : ''}`;
  return `tp=${l.tp},pp=${l.pp},dp=${l.dp},zero=${l.zero},recompute=${l.recompute},mb=${l.mb},schedule=${l.schedule}${extra}`;
}

const divisors = (n: number, most = 64): number[] =>
  Array.from({ length: Math.min(n, most) }, (_, i) => i + 1).filter((d) => n % d === 0);

/**
 * Each data-parallel replica's share of the batch, refused unless whole: Megatron-LM asserts the
 * global batch divisible by micro-batch size x data-parallel size (num_microbatches_calculator.py).
 */
function replicaShare(batch: number, dp: number): number {
  if (batch % dp !== 0)
    throw new UserError(
      `--layout dp=${dp} does not divide the batch of ${batch}: each replica runs whole samples; give a batch that is a multiple of ${dp}`,
    );
  return batch / dp;
}

/**
 * The microbatch counts a replica can run: every divisor of its share, Megatron-LM's
 * num_microbatches = global batch / (micro-batch size x dp) at each micro-batch size. Not capped
 * at 64 as the search's candidates are (that cap bounds how many counts a search runs in full):
 * a deep pipeline on a large batch runs hundreds (SC'21: 1T on pp=64).
 */
function replicaMicrobatches(share: number): number[] {
  return microbatchCandidates(share, share);
}

/** Training: each replica's share whole and mb dividing it; serving: mb dividing the batch. */
function checkMicrobatches(problem: PlanProblem, mb: number | undefined, dp: number): void {
  const { batch } = problem;
  if (problem.mode !== 'training') {
    if (mb !== undefined && batch % mb !== 0)
      throw new UserError(
        `--layout mb=${mb} does not divide the batch of ${batch} (mb that do: ${divisors(batch).join(', ')})`,
      );
    return;
  }
  const share = replicaShare(batch, dp);
  if (mb !== undefined && share % mb !== 0)
    throw new UserError(
      `--layout mb=${mb} does not divide each replica's ${count(share, 'sample')} (the batch of ${batch} over dp=${dp}): ` +
        `a microbatch holds whole samples (mb that do: ${replicaMicrobatches(share).join(', ')})`,
    );
}

/** The counts a layout tries: training, every count its replicas can run; serving, the batch's divisors up to 64, as the search. */
function layoutMicrobatches(problem: PlanProblem, batch: number, dp: number): number[] {
  return problem.mode === 'training' ? replicaMicrobatches(batch / dp) : microbatchCandidates(batch);
}

/** The degrees from 1 to 64 that divide every split layer's heads, KV heads (and experts). */
function tensorDegreesThatWork(problem: PlanProblem): number[] {
  const counts = [...new Set(problem.layers.flatMap((l) => l.tensor?.divides ?? []))];
  return Array.from({ length: 64 }, (_, i) => i + 1).filter((t) => counts.every((n) => n % t === 0));
}

/** Checks the layout against the problem: one line naming what works. */
function checkLayout(problem: PlanProblem, layout: Layout, workload: string, stack?: TrainingStack): CheckedLayout {
  const gpus = problem.devices.length;
  const { tp, pp } = layout;
  const split = problem.layers.filter((l) => l.tensor);
  if (tp > 1 && split.length === 0)
    throw new UserError(
      `--layout tp=${tp}: ${workload} does not split tensor-parallel (catalog transformers and GGUF decoders do); use tp=1`,
    );
  const counts = split.find((l) => (l.tensor?.divides.length ?? 0) > 0)?.tensor?.divides ?? [];
  if (split.some((l) => (l.tensor?.divides ?? []).some((n) => n % tp !== 0))) {
    const [heads, kvHeads, experts] = counts;
    throw new UserError(
      `--layout tp=${tp}: a tensor-parallel degree must divide ${workload}'s ${heads} attention heads and ${kvHeads ?? heads} KV heads` +
        `${experts !== undefined ? ` and ${experts} experts` : ''} (degrees that do: ${tensorDegreesThatWork(problem).join(', ')})`,
    );
  }
  const cp = layout.cp ?? 1;
  const dp = layout.dp ?? gpus / (tp * cp * pp);
  if (!Number.isInteger(dp) || tp * cp * pp * dp !== gpus)
    throw new UserError(
      `--layout tp=${tp}${cp > 1 ? ` x cp=${cp}` : ''} x pp=${pp}${layout.dp !== undefined ? ` x dp=${layout.dp}` : ''} does not use the plan's ${count(gpus, 'device')}: make tp x ${cp > 1 ? 'cp x ' : ''}pp x dp = ${gpus}`,
    );
  checkGroups(
    problem,
    { tp, cp, dp, kinds: deviceClasses(problem).length, ...(layout.ep !== undefined ? { ep: layout.ep } : {}) },
    workload,
  );
  const L = problem.layers.length;
  const blocks = blockRange(problem.layers);
  if (pp > L) throw new UserError(`--layout pp=${pp}: ${workload} has ${count(L, 'layer')}; give pp=${L} or less`);
  if (blocks && pp > blocks.count)
    throw new UserError(
      `--layout pp=${pp}: ${workload} has ${count(blocks.count, 'transformer block')}, one a stage at least; give pp=${blocks.count} or less`,
    );
  const zero = layout.zero ?? problem.zeroStage;
  // A stack named checks its own ZeRO stages with pipelines (stacks.ts, stackLayoutRefusal).
  if (zero >= 2 && pp > 1 && stack === undefined)
    throw new UserError(
      `--layout zero=${zero} with pp=${pp}: DeepSpeed and Megatron-LM shard no more than the optimizer state (zero=1) with a pipeline; torchtitan runs FSDP with pipelines (give --stack torchtitan), else zero=1 (or 0) with pp, or pp=1`,
    );
  if (problem.mode !== 'training' && (layout.zero ?? 0) > 0)
    throw new UserError(`--layout zero=${layout.zero}: ZeRO shards training state; leave zero out when serving`);
  if (problem.mode !== 'training' && layout.recompute !== undefined && layout.recompute !== 'none')
    throw new UserError(
      `--layout recompute=${layout.recompute}: recomputation is for training; leave it out when serving`,
    );
  checkMicrobatches(problem, layout.mb, dp);
  const shard = checkShardGroup(problem, layout.shard, zero, dp, stack);
  return {
    tp,
    pp,
    dp,
    zero: problem.mode === 'training' ? zero : 0,
    recompute: layout.recompute ?? 'none',
    mb: layout.mb ?? 0,
    schedule: layout.schedule ?? '1f1b',
    vp: checkInterleaving(problem, layout, workload, blocks?.count ?? null),
    cp,
    ...(layout.ep !== undefined ? { ep: layout.ep } : {}),
    ...(shard !== undefined ? { shard } : {}),
  };
}

/** Stacks that run hybrid sharding: FSDP's HYBRID_SHARD and torchtitan's data_parallel_replicate_degree. */
const HYBRID_STACKS: readonly TrainingStack[] = ['fsdp', 'torchtitan'];

/** shard=N, hybrid sharding: training under zero=3, N dividing dp, on a stack that runs it; N = dp is plain ZeRO-3. */
function checkShardGroup(
  problem: PlanProblem,
  shard: number | undefined,
  zero: number,
  dp: number,
  stack: TrainingStack | undefined,
): number | undefined {
  if (shard === undefined) return undefined;
  const refusals: [boolean, string][] = [
    [problem.mode !== 'training', 'hybrid sharding shards training state; leave shard out when serving'],
    [zero !== 3, `hybrid sharding shards weights, gradients and optimizer state (zero=3); got zero=${zero}`],
    [dp % shard !== 0, `a shard group must divide dp=${dp} (shard groups that do: ${divisors(dp, dp).join(', ')})`],
    [
      stack !== undefined && !HYBRID_STACKS.includes(stack),
      `--stack ${stack} does not run hybrid sharding (${HYBRID_STACKS.join(' and ')} do)`,
    ],
  ];
  const why = refusals.find(([refused]) => refused)?.[1];
  if (why) throw new UserError(`--layout shard=${shard}: ${why}`);
  return shard;
}

/**
 * vp > 1, Megatron-LM's interleaved 1F1B: training, 1F1B, pp ≥ 2, the blocks in pp·vp equal
 * chunks, mb a multiple of pp (Narayanan et al., SC'21 §2.2; --num-layers-per-virtual-pipeline-stage).
 */
function checkInterleaving(problem: PlanProblem, layout: Layout, workload: string, blocks: number | null): number {
  const { pp, vp = 1 } = layout;
  if (vp === 1) return 1;
  const refusals: [boolean, string][] = [
    [problem.mode !== 'training', 'interleaving is a training schedule; leave vp out when serving'],
    [layout.schedule === 'gpipe', 'interleaving runs 1F1B; use schedule=1f1b'],
    [pp < 2, 'interleaving needs a pipeline; give pp=2 or more'],
    [blocks === null, `${workload} has no transformer blocks to split into virtual stages`],
    [
      blocks !== null && blocks % (pp * vp) !== 0,
      `${workload}'s ${blocks} transformer blocks do not split into pp x vp = ${pp * vp} equal chunks (vp that do with pp=${pp}: ${divisors((blocks ?? 0) / pp).join(', ')})`,
    ],
    [
      layout.mb !== undefined && layout.mb % pp !== 0,
      `interleaving needs mb a multiple of pp=${pp}; got mb=${layout.mb}`,
    ],
    [deviceClasses(problem).length > 1, 'interleaving is priced on devices of one kind; the plan has several'],
  ];
  const why = refusals.find(([refused]) => refused)?.[1];
  if (why) throw new UserError(`--layout vp=${vp}: ${why}`);
  return vp;
}

/** Like devices (same name and memory) in classes, each in the problem's order; larger memory first. */
function deviceClasses(problem: PlanProblem): string[][] {
  const byKey = new Map<string, { memory: number; ids: string[] }>();
  for (const d of problem.devices) {
    const c = byKey.get(memoryClassKey(d)) ?? { memory: d.memoryBytes, ids: [] };
    c.ids.push(d.id);
    byKey.set(memoryClassKey(d), c);
  }
  return [...byKey.values()].sort((x, y) => y.memory - x.memory).map((c) => c.ids);
}

/** Classes this many or fewer are tried in every order; more, largest memory first and last. */
const MAX_PERMUTED_CLASSES = 3;

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((p) => [x, ...p]));
}

/** The orders in which the stages take the devices: class after class, each order of the classes tried. */
function deviceOrders(classes: readonly string[][]): string[][] {
  const orders =
    classes.length <= MAX_PERMUTED_CLASSES ? permutations(classes) : [[...classes], [...classes].reverse()];
  return orders.map((o) => o.flat());
}

/**
 * The contiguous split of the layers over the stages (each at least one layer) that makes the
 * slowest stage's per-microbatch time least: f(s, e) = min over b of max(f(s−1, b), t_s(b, e)).
 */
function balancedBounds(ctx: PlannerContext, groups: readonly number[][], tp: number, samples: number): number[] {
  const L = ctx.problem.layers.length;
  const P = groups.length;
  const f = Array.from({ length: P }, () => new Float64Array(L + 1).fill(Infinity));
  const cut = Array.from({ length: P }, () => new Int32Array(L + 1));
  const t = (s: number, from: number, to: number): number =>
    ctx.tables.stageTimeUs(groups[s] as number[], from, to, samples, tp);
  for (let e = 1; e <= L; e++) (f[0] as Float64Array)[e] = t(0, 0, e);
  for (let s = 1; s < P; s++) {
    for (let e = s + 1; e <= L; e++) {
      let best = Infinity;
      let at = s;
      for (let b = s; b < e; b++) {
        const v = Math.max((f[s - 1] as Float64Array)[b] as number, t(s, b, e));
        if (v < best) {
          best = v;
          at = b;
        }
      }
      (f[s] as Float64Array)[e] = best;
      (cut[s] as Int32Array)[e] = at;
    }
  }
  const bounds = [L];
  for (let s = P - 1; s >= 1; s--) bounds.push((cut[s] as Int32Array)[bounds[bounds.length - 1] as number] as number);
  bounds.push(0);
  return bounds.reverse();
}

/**
 * Devices of several kinds: the shape's stages over every order of the device classes, layers
 * split to balance the stages, at each microbatch count; the best that fits (else the first).
 */
function searchHeterogeneous(ctx: PlannerContext, l: CheckedLayout): { plan: Plan; notes: string[] } {
  const classes = deviceClasses(ctx.problem);
  const width = l.tp * l.dp;
  const ms = l.mb > 0 ? [l.mb] : layoutMicrobatches(ctx.problem, ctx.problem.batch, l.dp);
  const priced: Plan[] = [];
  const orders = deviceOrders(classes);
  for (const ids of orders) {
    const groups = Array.from({ length: l.pp }, (_, s) => ids.slice(s * width, (s + 1) * width));
    const idx = groups.map((g) => g.map((id) => ctx.tables.deviceIndex(id)));
    for (const m of ms) {
      const bounds = balancedBounds(ctx, idx, l.tp, ctx.problem.batch / m);
      const stages: StageSpec[] = groups.map((devices, s) => ({
        from: bounds[s] as number,
        to: bounds[s + 1] as number,
        devices,
        ...(l.tp > 1 ? { tp: l.tp } : {}),
      }));
      priced.push(pricePlan(ctx, { stages, microbatches: m, schedule: l.schedule }));
    }
  }
  const plan = rank(priced)[0] as Plan;
  return {
    plan,
    notes: [
      `the plan's devices are of ${classes.length} kinds: the layout's stages were searched over ${count(orders.length, 'order')} of them, layers split to balance the stages`,
    ],
  };
}

/**
 * Devices of one kind: the layers split by `bounds` (stage-split.ts), devices taken in order (dp
 * groups of cp replicas of tp). `batch`: the samples a step (with cp, ctx's problem counts slices).
 */
function oneKindLayout(ctx: PlannerContext, l: CheckedLayout, batch: number, bounds: readonly number[]): Plan {
  const ids = ctx.problem.devices.map((d) => d.id);
  const width = l.tp * l.cp * l.dp;
  const stages: StageSpec[] = bounds.slice(1).map((to, s) => ({
    from: bounds[s] as number,
    to,
    devices: ids.slice(s * width, (s + 1) * width),
    ...(l.tp > 1 ? { tp: l.tp } : {}),
  }));
  const groups = { contextParallel: l.cp, ...(l.ep !== undefined ? { expertParallel: l.ep } : {}) };
  if (l.mb > 0)
    return pricePlan(ctx, { stages, microbatches: l.mb, schedule: l.schedule, virtualStages: l.vp, ...groups });
  const ms = layoutMicrobatches(ctx.problem, batch, l.dp).filter((m) => l.vp === 1 || m % l.pp === 0);
  if (ms.length === 0)
    throw new UserError(
      `--layout vp=${l.vp}: interleaving needs microbatches a multiple of pp=${l.pp}, and none divides each replica's ${count(batch / l.dp, 'sample')} (the batch of ${batch} over dp=${l.dp})`,
    );
  return bestOverMicrobatches(ctx, stages, ms, l.schedule, l.vp, groups);
}

/**
 * Devices of one kind: the stages split as the stack splits them (interleaved: equal chunks), with
 * how, and what its context- and expert-parallel groups send.
 */
function oneKindAnswer(
  ctx: PlannerContext,
  l: CheckedLayout,
  problem: PlanProblem,
  stack: TrainingStack | undefined,
): { plan: Plan; notes: string[] } {
  const split = stageSplit(ctx.problem.layers, l.pp, l.vp === 1 ? stack : undefined);
  const plan = oneKindLayout(ctx, l, problem.batch, split.bounds);
  return { plan, notes: [...(split.note ? [split.note] : []), ...groupNotes(ctx, plan, problem.sequence)] };
}

/** The plan's stages with the transformer blocks each holds, for a pipeline of a model with blocks. */
function withBlocks(plan: Plan, layers: PlanProblem['layers']): Plan['stages'] {
  if (plan.stages.length < 2 || !blockRange(layers)) return plan.stages;
  const counts = blocksPerStage(layers, [0, ...plan.stages.map((s) => s.to)]);
  return plan.stages.map((s, i) => ({ ...s, blocks: counts[i] as number }));
}

/**
 * The layout priced on the problem (its ZeRO stage and recomputation applied), with the best
 * microbatch count when mb is not given. Priced whether or not it fits: the plan's reasons say why.
 */
export function priceLayout(
  problem: PlanProblem,
  layout: Layout,
  opts: { workload: string; costModel?: CostModel; stack?: TrainingStack },
): PricedLayout {
  const l = checkLayout(problem, layout, opts.workload, opts.stack);
  const { shardGroup: _, ...unsharded } = problem;
  const zeroed: PlanProblem = {
    ...unsharded,
    zeroStage: l.zero as 0 | 1 | 2 | 3,
    ...(l.tp > 1 ? { tensorDegrees: [1, l.tp] } : {}),
    ...(l.shard !== undefined && l.shard < l.dp ? { shardGroup: l.shard } : {}),
  };
  const recomputed = l.recompute === 'none' ? zeroed : recomputeProblem(zeroed, l.recompute);
  if (!recomputed)
    throw new UserError(
      `--layout recompute=${l.recompute}: ${opts.workload} has no transformer block to recompute selectively; use full or none`,
    );
  const spread = l.ep !== undefined ? expertProblem(recomputed, l.tp, l.ep) : recomputed;
  const variant = contextProblem(spread, l.cp);
  const ctx = plannerContext(variant, opts.costModel);
  const bad = tensorDegreeRefusal(ctx, 0, variant.layers.length, l.tp);
  if (bad) throw new UserError(`--layout tp=${l.tp}: ${bad}`);
  const { plan, notes } =
    deviceClasses(variant).length > 1 ? searchHeterogeneous(ctx, l) : oneKindAnswer(ctx, l, problem, opts.stack);
  if (l.vp > 1)
    notes.push(
      `interleaved: rank i runs virtual stages i, i+${l.pp}, ... of ${count((blockRange(variant.layers)?.count ?? 0) / (l.pp * l.vp), 'block')} each; ` +
        `the transfers from the last rank back to the first (${l.vp - 1} a microbatch) are not priced, taken as hidden by the steady state`,
    );
  const priced: Plan = {
    ...plan,
    stages: withBlocks(plan, variant.layers),
    // With cp the priced problem counts slices of samples: the throughput is of whole samples.
    throughputSamplesPerS: plan.stepUs > 0 ? problem.batch / (plan.stepUs * 1e-6) : Infinity,
    ...(variant.recompute ? { recompute: variant.recompute } : {}),
    ...(variant.mode === 'training' ? { zeroStage: planZeroStage(plan, variant) } : {}),
    ...(variant.shardGroup !== undefined ? { shardGroup: variant.shardGroup } : {}),
  };
  // With cp, the layers are one rank's slice; the batch stays in whole samples (what the exports split).
  const asPriced = { ...variant, batch: problem.batch };
  return { text: layoutText({ ...l, mb: plan.microbatches }), plan: priced, problem: asPriced, notes, context: ctx };
}

/** A plan's schedule in words: "GPipe", "1F1B", "interleaved 1F1B, 5 virtual stages". */
export function scheduleText(plan: Pick<Plan, 'schedule' | 'virtualStages'>): string {
  if (plan.schedule === 'gpipe') return 'GPipe';
  const v = plan.virtualStages ?? 1;
  return v > 1 ? `interleaved 1F1B, ${v} virtual stages` : '1F1B';
}

/** The layout as priced, beside the best plan. */
export interface LayoutAnswer {
  /** Every key written out: "tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8,schedule=1f1b". */
  text: string;
  /** Its schedule in words (scheduleText): "interleaved 1F1B, 5 virtual stages". */
  schedule: string;
  plan: Plan;
  stepUs: number;
  throughputSamplesPerS: number;
  fits: boolean;
  /** Why it does not fit (the plan's reasons); [] when it fits. */
  reasons: string[];
  /** Its step over the recommendation's (1.25: 25% slower); null when no plan fits. */
  vsBest: number | null;
  notes: string[];
  /** Serving a decoder: the layout's serving figures (as the listed plans'); null otherwise. */
  serving?: ServingFigures | null;
  /** Its step's band, as the listed plans' (stepBands); null when it does not fit or a device has none. */
  band?: StepBand | null;
  /** Its simulated step (as the best plan's timeline); empty when it does not fit. */
  timeline?: SimEvent[];
}
