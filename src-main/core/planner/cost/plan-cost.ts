/**
 * The one place a plan is priced. Pure.
 *
 * For stages i = 0..p−1 with per-microbatch compute times t_i, cuts k = 0..p−2 with transfer times
 * c_k (one microbatch's activations), the exposed gradient synchronization a_i of data-parallel
 * stages per step (the part their compute does not hide: stage-cost.ts gradientSyncUs),
 * m microbatches, and d = 2 when training (activations forward, their gradients back; links are
 * full duplex) or 1 for inference:
 *
 *   step = Σ t_i + d·Σ c_k + Σ a_i + (m − 1) · max(max_i t_i, max_k c_k)
 *
 * the Alpa/AMP pipeline latency, with each cut as a stage of its own (a link slower than every
 * stage sets the pace) and each stage's exposed sync added after the pipeline drains.
 * The schedule (GPipe, 1F1B) changes memory only (activations in flight).
 *
 * Interleaved 1F1B with v virtual stages a rank (Narayanan et al., SC'21 §2.2) fills and drains
 * in chunks of 1/v of a stage, and sends v times the messages over each cut:
 *
 *   step = Σ t_i / v + d·v·Σ c_k + Σ a_i + (m − 1/v) · max(max_i t_i, v·max_k c_k)
 *
 * equal stages t and free cuts: m·t + (p − 1)·t/v, the bubble (p − 1)/(v·m) of the ideal m·t;
 * v = 1 is the formula above. The stages are the ranks, t_i all v chunks of rank i. Not priced:
 * the v − 1 transfers a microbatch makes from the last rank back to the first (each as large as a
 * cut's), which the steady state overlaps unless that link is the slowest.
 *
 * Context and expert parallelism (PlanSpec.contextParallel, expertParallel) add to t_i what their
 * groups send beyond compute: the exposed ring attention (context-parallel.ts) and the experts'
 * all-to-alls (expert-parallel.ts); the experts' optimizer shards add to each device's memory.
 */
import { memoryShortfall, microbatchesInFlight, type MemoryBreakdown } from '../memory/memory.js';
import { ringAttentionUs } from './context-parallel.js';
import { expertAllToAllUs, expertStateBytes } from './expert-parallel.js';
import type { PlannerContext } from '../problem/problem.js';
import { timesKey } from '../problem/time-keys.js';
import type { Plan, Schedule, Stage } from '../types.js';
import type { StageSplit } from './stage-shapes.js';

export interface StageSpec {
  /** Layers [from, to). */
  from: number;
  to: number;
  devices: readonly string[];
  /** Tensor-parallel degree (absent: 1); it divides the number of devices. */
  tp?: number;
}

export interface PlanSpec {
  stages: readonly StageSpec[];
  microbatches: number;
  schedule: Schedule;
  /** Interleaved 1F1B: model chunks a stage (absent: 1). */
  virtualStages?: number;
  /** Context parallelism: the problem is one rank's slice (contextProblem); each stage's replicas in groups of this many (absent: 1). */
  contextParallel?: number;
  /** Expert parallelism: the problem's experts spread (expertProblem) over groups of this many devices of a stage (absent: none). */
  expertParallel?: number;
}

export interface StepTerms {
  sumStageUs: number;
  maxStageUs: number;
  sumCutUs: number;
  maxCutUs: number;
  sumSyncUs: number;
  /** 2 for training, 1 for inference. */
  cutFactor: number;
  microbatches: number;
  /** Interleaved 1F1B's model chunks a stage (absent: 1). */
  virtualStages?: number;
}

/** The objective every search minimizes (see the file comment). */
export function stepUsOf(t: StepTerms): number {
  const v = t.virtualStages ?? 1;
  return (
    t.sumStageUs / v +
    t.cutFactor * v * t.sumCutUs +
    t.sumSyncUs +
    (t.microbatches - 1 / v) * Math.max(t.maxStageUs, v * t.maxCutUs)
  );
}

function planKind(stages: readonly { devices: readonly string[]; tp?: number }[]): Plan['kind'] {
  if (stages.length === 1) {
    const s = stages[0];
    const n = s?.devices.length ?? 1;
    const tp = s?.tp ?? 1;
    if (n === 1) return 'single';
    if (tp === 1) return 'data-parallel';
    return tp === n ? 'tensor-parallel' : 'hybrid';
  }
  return stages.some((s) => s.devices.length > 1) ? 'hybrid' : 'pipeline';
}

/** A key equal for equal plans: "0-3:a|3-8:b+c/m4/1f1b" ("b+c*tp2" for a tensor-parallel pair). */
export function planSignature(p: { stages: readonly StageSpec[]; microbatches: number; schedule: Schedule }): string {
  const stages = p.stages
    .map((s) => `${s.from}-${s.to}:${s.devices.join('+')}${(s.tp ?? 1) > 1 ? `*tp${s.tp}` : ''}`)
    .join('|');
  return `${stages}/m${p.microbatches}/${p.schedule}`;
}

/** Why a layer range cannot run at tensor-parallel degree tp (heads, KV heads), or null. */
export function tensorDegreeRefusal(ctx: PlannerContext, from: number, to: number, tp: number): string | null {
  if (tp === 1) return null;
  const degrees = ctx.problem.tensorDegrees ?? [1];
  if (!degrees.includes(tp)) return `tensor-parallel degree ${tp} is not among the allowed ${degrees.join(', ')}`;
  for (let l = from; l < to; l++) {
    const layer = ctx.problem.layers[l];
    const bad = layer?.tensor?.divides.find((n) => n % tp !== 0);
    if (layer && bad !== undefined) return `tensor-parallel degree ${tp} does not divide ${bad} (layer ${layer.name})`;
  }
  return null;
}

function checkSpec(ctx: PlannerContext, spec: PlanSpec): void {
  const L = ctx.problem.layers.length;
  const m = spec.microbatches;
  if (!Number.isInteger(m) || m < 1 || ctx.problem.batch % m !== 0) {
    throw new Error(`microbatches must divide the batch (${ctx.problem.batch}), got ${m}`);
  }
  if (spec.stages.length === 0) throw new Error('a plan needs at least one stage');
  const v = spec.virtualStages ?? 1;
  if (!Number.isInteger(v) || v < 1) throw new Error(`virtual stages must be a whole number, got ${v}`);
  if (v > 1 && (spec.schedule !== '1f1b' || ctx.problem.mode !== 'training' || m % spec.stages.length !== 0))
    throw new Error(
      `interleaving ${v} virtual stages needs training with 1F1B and microbatches a multiple of the stages`,
    );
  const used = new Set<string>();
  let next = 0;
  for (const s of spec.stages) {
    if (s.from !== next || s.to <= s.from)
      throw new Error(`stages must cover the layers in order, got ${s.from}-${s.to}`);
    next = s.to;
    if (s.devices.length === 0) throw new Error(`stage ${s.from}-${s.to} has no device`);
    const tp = s.tp ?? 1;
    if (!Number.isInteger(tp) || tp < 1 || s.devices.length % tp !== 0) {
      throw new Error(
        `stage ${s.from}-${s.to}: tensor-parallel degree ${tp} does not divide its ${s.devices.length} devices`,
      );
    }
    const bad = tensorDegreeRefusal(ctx, s.from, s.to, tp);
    if (bad) throw new Error(`stage ${s.from}-${s.to}: ${bad}`);
    for (const d of s.devices) {
      ctx.tables.deviceIndex(d);
      if (used.has(d)) throw new Error(`device ${d} is used twice`);
      used.add(d);
    }
  }
  if (next !== L) throw new Error(`stages end at layer ${next}, the workload has ${L}`);
}

/** Prices a plan: step time, memory per device, feasibility with reasons. */
export function pricePlan(ctx: PlannerContext, spec: PlanSpec): Plan {
  checkSpec(ctx, spec);
  const { problem, tables } = ctx;
  const m = spec.microbatches;
  const samples = problem.batch / m;
  const p = spec.stages.length;
  const v = spec.virtualStages ?? 1;
  const reasons: string[] = [];
  const memory: Plan['memory'] = [];
  const stages: Stage[] = [];
  const idx = spec.stages.map((s) => s.devices.map((d) => tables.deviceIndex(d)));
  const terms: StepTerms = {
    sumStageUs: 0,
    maxStageUs: 0,
    sumCutUs: 0,
    maxCutUs: 0,
    sumSyncUs: 0,
    cutFactor: problem.mode === 'training' ? 2 : 1,
    microbatches: m,
    virtualStages: v,
  };
  spec.stages.forEach((s, i) => {
    const devs = idx[i] as number[];
    const tp = s.tp ?? 1;
    const split = groupsUs(ctx, s, tables.stageSplit(devs, s.from, s.to, samples, tp), spec);
    const sync = tables.gradientSyncUs(devs, s.from, s.to, tp, samples);
    terms.sumStageUs += split.timeUs;
    terms.maxStageUs = Math.max(terms.maxStageUs, split.timeUs);
    terms.sumSyncUs += sync;
    if (!Number.isFinite(split.timeUs)) reasons.push(noTimeReason(ctx, s, devs));
    if (!Number.isFinite(sync)) reasons.push(`no link among the data-parallel devices ${s.devices.join(', ')}`);
    const inFlight = microbatchesInFlight(spec.schedule, problem.mode, i, p, m, v);
    const load = { shares: split.shares, inFlight, microbatches: m, ep: spec.expertParallel ?? 1 };
    const memoryBytes = stageMemory(ctx, s, devs, load, memory, reasons);
    stages.push({
      from: s.from,
      to: s.to,
      devices: [...s.devices],
      ...(tp > 1 ? { tp } : {}),
      timeUs: split.timeUs,
      memoryBytes,
    });
  });
  for (let k = 0; k + 1 < p; k++) {
    const s = spec.stages[k] as StageSpec;
    const c = tables.cutUs(idx[k] as number[], idx[k + 1] as number[], s.to - 1, samples);
    terms.sumCutUs += c;
    terms.maxCutUs = Math.max(terms.maxCutUs, c);
    if (!Number.isFinite(c)) {
      reasons.push(`no link between ${s.devices.join('+')} and ${spec.stages[k + 1]?.devices.join('+') ?? '?'}`);
    }
  }
  const stepUs = stepUsOf(terms);
  const computeSpan = terms.sumStageUs / v + (m - 1 / v) * terms.maxStageUs;
  const commUs = stepUs - computeSpan;
  const bottleneckStage = stages.reduce((best, s, i) => (s.timeUs > (stages[best]?.timeUs ?? -1) ? i : best), 0);
  return {
    kind: planKind(spec.stages),
    stages,
    microbatches: m,
    schedule: spec.schedule,
    ...(v > 1 ? { virtualStages: v } : {}),
    ...((spec.contextParallel ?? 1) > 1 ? { contextParallel: spec.contextParallel } : {}),
    ...(spec.expertParallel !== undefined ? { expertParallel: spec.expertParallel } : {}),
    stepUs,
    throughputSamplesPerS: stepUs > 0 ? problem.batch / (stepUs * 1e-6) : Infinity,
    bubbleFraction: computeSpan > 0 ? 1 - (m * terms.sumStageUs) / (p * computeSpan) : 0,
    commFraction: stepUs > 0 && Number.isFinite(stepUs) ? commUs / stepUs : 0,
    bottleneckStage,
    memory,
    feasible: reasons.length === 0 && Number.isFinite(stepUs),
    reasons,
  };
}

const MAX_NAMED_SHORTFALLS = 3;

/** Each device's need for a stage, added to the plan's memory list (and its shortfalls to the reasons); by device id. */
function stageMemory(
  ctx: PlannerContext,
  s: StageSpec,
  devs: readonly number[],
  load: { shares: readonly number[]; inFlight: number; microbatches: number; ep: number },
  memory: Plan['memory'],
  reasons: string[],
): Record<string, number> {
  const tp = s.tp ?? 1;
  const replicas = s.devices.length / tp;
  const experts = expertStateBytes(ctx.problem.layers, s, { replicas, tp, ep: load.ep }, ctx.problem);
  const memoryBytes: Record<string, number> = {};
  let short = 0;
  s.devices.forEach((id, j) => {
    const dev = ctx.problem.devices[devs[j] as number];
    if (!dev) return;
    const need = withParameterBytes(
      experts,
      ctx.tables.deviceNeed({
        from: s.from,
        to: s.to,
        tp,
        replicas,
        samples: load.shares[j] ?? 0,
        inFlight: load.inFlight,
        microbatches: load.microbatches,
      }),
    );
    memoryBytes[id] = need.totalBytes;
    memory.push({
      device: id,
      neededBytes: need.totalBytes,
      availableBytes: dev.memoryBytes,
      ...(need.residentBytes > 0 ? { kvCacheBytes: need.residentBytes } : {}),
    });
    // A cluster stage has hundreds of devices: the first few shortfalls are named, the rest counted.
    if (!(need.totalBytes <= dev.memoryBytes) && short++ < MAX_NAMED_SHORTFALLS)
      reasons.push(memoryShortfall(dev, need, ctx.problem.mode));
  });
  if (short > MAX_NAMED_SHORTFALLS)
    reasons.push(`and ${short - MAX_NAMED_SHORTFALLS} more devices of stage ${s.from}-${s.to} lack memory`);
  return memoryBytes;
}

/** A device's need with `bytes` more parameter state (expert parallelism's optimizer shards). */
function withParameterBytes(bytes: number, need: MemoryBreakdown): MemoryBreakdown {
  if (bytes === 0) return need;
  return { ...need, parameterBytes: need.parameterBytes + bytes, totalBytes: need.totalBytes + bytes };
}

/**
 * A stage's split with what its context- and expert-parallel groups add to one microbatch: the
 * exposed ring attention and the experts' all-to-alls (context-parallel.ts, expert-parallel.ts).
 */
function groupsUs(ctx: PlannerContext, s: StageSpec, split: StageSplit, spec: PlanSpec): StageSplit {
  const cp = spec.contextParallel ?? 1;
  const ep = spec.expertParallel ?? 1;
  if (cp <= 1 && ep <= 1) return split;
  const tp = s.tp ?? 1;
  const samples = split.shares[split.slowest] ?? 0;
  const extra =
    ringAttentionUs(ctx, s.devices, s, samples, tp, cp) + expertAllToAllUs(ctx, s.devices, s, samples, tp, ep);
  return { ...split, timeUs: split.timeUs + extra };
}

function noTimeReason(ctx: PlannerContext, s: StageSpec, devs: readonly number[]): string {
  const training = ctx.problem.mode === 'training';
  for (let l = s.from; l < s.to; l++) {
    const layer = ctx.problem.layers[l];
    if (!layer) continue;
    for (const d of devs) {
      const id = ctx.tables.deviceIds[d] as string;
      const key = timesKey(ctx.problem, id);
      const f = layer.forwardUs[key];
      const b = layer.backwardUs[key];
      if (f === undefined || !Number.isFinite(f) || (training && (b === undefined || !Number.isFinite(b)))) {
        return `${id} has no ${training ? 'forward/backward' : 'forward'} time for layer ${l} (${layer.name})`;
      }
    }
  }
  return `stage ${s.from}-${s.to} on ${s.devices.join('+')} has no finite time`;
}
