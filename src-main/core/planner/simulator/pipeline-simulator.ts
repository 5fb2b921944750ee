/**
 * Discrete-event simulation of one pipeline step (GPipe, 1F1B; inference runs forwards only),
 * for checking the closed form (test/unit/core/planner/reference/pipeline-bounds.ts) and drawing a
 * Gantt chart. Pure.
 *
 * Resources: each stage computes one operation at a time; each cut has a forward link (activations
 * to the next stage) and a backward link (their gradients back), full duplex, one message at a time
 * each. Orders: GPipe runs F0..Fm−1 then B0..Bm−1 on every stage; 1F1B runs min(p−i−1, m) warm-up
 * forwards on stage i, then alternates one forward and one backward, then drains the backwards.
 * F_j on stage i waits for F_j's activations from stage i−1; B_j waits for F_j on the last stage,
 * else for B_j's gradients from stage i+1. A stage's gradient all-reduce starts after its last
 * operation (so it overlaps the other stages' drain, unlike the closed form, which adds it).
 */
import type { PlannerContext } from '../problem/problem.js';
import type { Mode, Plan, Schedule } from '../types.js';
import { stageBlocksText, stageDevicesText } from '../stage-text.js';

export interface SimStage {
  /** Label for the timeline (devices joined by "+"). */
  device: string;
  /** Per microbatch, µs. */
  forwardUs: number;
  backwardUs: number;
  /** One microbatch's activations to the next stage (and their gradients back), µs; ignored on the last stage. */
  sendUs: number;
  /** Gradient synchronization after the stage's last backward, µs. */
  allReduceUs?: number;
}

export type SimPhase = 'forward' | 'backward' | 'send' | 'allreduce';

export interface SimEvent {
  stage: number;
  device: string;
  /** 0-based; −1 for the all-reduce. */
  microbatch: number;
  phase: SimPhase;
  /** For sends, from `stage`: 'forward' (activations to stage + 1) or 'backward' (gradients to stage − 1). */
  direction?: 'forward' | 'backward';
  startUs: number;
  endUs: number;
}

export interface SimulationOptions {
  microbatches: number;
  schedule: Schedule;
  mode: Mode;
}

export interface SimulationResult {
  stepUs: number;
  timeline: SimEvent[];
}

interface Op {
  kind: 'F' | 'B';
  mb: number;
}

/** Operation order of stage i of p. */
function stageOrder(i: number, p: number, m: number, schedule: Schedule, mode: Mode): Op[] {
  const ops: Op[] = [];
  if (mode === 'inference') {
    for (let j = 0; j < m; j++) ops.push({ kind: 'F', mb: j });
    return ops;
  }
  if (schedule === 'gpipe') {
    for (let j = 0; j < m; j++) ops.push({ kind: 'F', mb: j });
    for (let j = 0; j < m; j++) ops.push({ kind: 'B', mb: j });
    return ops;
  }
  const warm = Math.min(p - i - 1, m);
  for (let j = 0; j < warm; j++) ops.push({ kind: 'F', mb: j });
  for (let j = 0; j < m - warm; j++) {
    ops.push({ kind: 'F', mb: warm + j });
    ops.push({ kind: 'B', mb: j });
  }
  for (let j = m - warm; j < m; j++) ops.push({ kind: 'B', mb: j });
  return ops;
}

/** The state of a simulation: per stage, its order and progress, end times, and its links. */
interface Sim {
  stages: readonly SimStage[];
  m: number;
  training: boolean;
  orders: Op[][];
  /** End times of F_j and B_j on each stage; NaN until done. */
  fEnd: Float64Array[];
  bEnd: Float64Array[];
  /** Activations of F_j from stage k arrive at k+1. */
  fSent: Float64Array[];
  /** Gradients of B_j from stage k+1 arrive at k. */
  bSent: Float64Array[];
  /** Next operation of each stage's order, and when the stage is free. */
  pos: number[];
  free: number[];
  /** When the links after each stage are free, and the next microbatch each sends. */
  fLinkFree: number[];
  bLinkFree: number[];
  fLinkNext: number[];
  bLinkNext: number[];
  timeline: SimEvent[];
}

export function simulatePipeline(stages: readonly SimStage[], opts: SimulationOptions): SimulationResult {
  const p = stages.length;
  const m = opts.microbatches;
  if (p === 0 || m < 1) throw new Error('simulate: need at least one stage and one microbatch');
  const orders = stages.map((_, i) => stageOrder(i, p, m, opts.schedule, opts.mode));
  const times = (): Float64Array[] => stages.map(() => new Float64Array(m).fill(NaN));
  const zeros = (): number[] => stages.map(() => 0);
  const sim: Sim = {
    stages,
    m,
    training: opts.mode === 'training',
    orders,
    fEnd: times(),
    bEnd: times(),
    fSent: times(),
    bSent: times(),
    pos: zeros(),
    free: zeros(),
    fLinkFree: zeros(),
    bLinkFree: zeros(),
    fLinkNext: zeros(),
    bLinkNext: zeros(),
    timeline: [],
  };
  let remaining = orders.reduce((n, o) => n + o.length, 0);
  while (remaining > 0) {
    let progress = false;
    for (let i = 0; i < p; i++) {
      const done = runReady(sim, i);
      remaining -= done;
      if (done > 0) progress = true;
      // Sends on the links after stage i, in microbatch order.
      if (i < p - 1) {
        if (sendActivations(sim, i)) progress = true;
        if (sim.training && sendGradients(sim, i)) progress = true;
      }
    }
    if (!progress) throw new Error('simulate: the schedule deadlocked');
  }
  addAllReduces(sim);
  const timeline = sim.timeline;
  const stepUs = timeline.reduce((t, e) => Math.max(t, e.endUs), 0);
  timeline.sort((a, b) => a.startUs - b.startUs || a.stage - b.stage);
  return { stepUs, timeline };
}

const at = (a: Float64Array, j: number): number => a[j] as number;

/** Runs stage i's next operations while their inputs are there; how many ran. */
function runReady(sim: Sim, i: number): number {
  const { stages, fEnd, bEnd, fSent, bSent, pos, free } = sim;
  const p = stages.length;
  const st = stages[i] as SimStage;
  const order = sim.orders[i] as Op[];
  let done = 0;
  for (;;) {
    const op = order[pos[i] as number];
    if (!op) break;
    let ready: number;
    if (op.kind === 'F') ready = i === 0 ? 0 : at(fSent[i - 1] as Float64Array, op.mb);
    else ready = i === p - 1 ? at(fEnd[i] as Float64Array, op.mb) : at(bSent[i] as Float64Array, op.mb);
    if (Number.isNaN(ready)) break;
    const start = Math.max(ready, free[i] as number);
    const dur = op.kind === 'F' ? st.forwardUs : st.backwardUs;
    const end = start + dur;
    (op.kind === 'F' ? (fEnd[i] as Float64Array) : (bEnd[i] as Float64Array))[op.mb] = end;
    free[i] = end;
    pos[i] = (pos[i] as number) + 1;
    done++;
    sim.timeline.push({
      stage: i,
      device: st.device,
      microbatch: op.mb,
      phase: op.kind === 'F' ? 'forward' : 'backward',
      startUs: start,
      endUs: end,
    });
  }
  return done;
}

/** Sends the activations of stage i's finished forwards to stage i + 1; whether any was sent. */
function sendActivations(sim: Sim, i: number): boolean {
  const { m, fEnd, fSent, fLinkFree, fLinkNext } = sim;
  const st = sim.stages[i] as SimStage;
  let sent = false;
  for (;;) {
    const j = fLinkNext[i] as number;
    if (j >= m || Number.isNaN(at(fEnd[i] as Float64Array, j))) break;
    const start = Math.max(at(fEnd[i] as Float64Array, j), fLinkFree[i] as number);
    const end = start + st.sendUs;
    (fSent[i] as Float64Array)[j] = end;
    fLinkFree[i] = end;
    fLinkNext[i] = j + 1;
    sent = true;
    if (st.sendUs > 0) {
      sim.timeline.push({
        stage: i,
        device: st.device,
        microbatch: j,
        phase: 'send',
        direction: 'forward',
        startUs: start,
        endUs: end,
      });
    }
  }
  return sent;
}

/** Sends the gradients of stage i + 1's finished backwards to stage i; whether any was sent. */
function sendGradients(sim: Sim, i: number): boolean {
  const { m, bEnd, bSent, bLinkFree, bLinkNext } = sim;
  const st = sim.stages[i] as SimStage;
  let sent = false;
  for (;;) {
    const j = bLinkNext[i] as number;
    if (j >= m || Number.isNaN(at(bEnd[i + 1] as Float64Array, j))) break;
    const start = Math.max(at(bEnd[i + 1] as Float64Array, j), bLinkFree[i] as number);
    const end = start + st.sendUs;
    (bSent[i] as Float64Array)[j] = end;
    bLinkFree[i] = end;
    bLinkNext[i] = j + 1;
    sent = true;
    if (st.sendUs > 0) {
      const next = sim.stages[i + 1] as SimStage;
      sim.timeline.push({
        stage: i + 1,
        device: next.device,
        microbatch: j,
        phase: 'send',
        direction: 'backward',
        startUs: start,
        endUs: end,
      });
    }
  }
  return sent;
}

/** In training, each stage's gradient all-reduce, after its last operation. */
function addAllReduces(sim: Sim): void {
  sim.stages.forEach((st, i) => {
    const ar = st.allReduceUs ?? 0;
    if (sim.training && ar > 0) {
      const start = sim.free[i] as number;
      sim.timeline.push({
        stage: i,
        device: st.device,
        microbatch: -1,
        phase: 'allreduce',
        startUs: start,
        endUs: start + ar,
      });
    }
  });
}

/** Simulation input for a priced plan: the slowest replica's forward and backward per stage. */
export function simStagesOfPlan(ctx: PlannerContext, plan: Plan): SimStage[] {
  const { tables, problem } = ctx;
  const samples = problem.batch / plan.microbatches;
  const idx = plan.stages.map((s) => s.devices.map((d) => tables.deviceIndex(d)));
  return plan.stages.map((s, i) => {
    const devs = idx[i] as number[];
    const tp = s.tp ?? 1;
    const split = tables.stageSplit(devs, s.from, s.to, samples, tp);
    const forwardUs = tables.stageForwardUs(devs, s.from, s.to, samples, tp);
    const next = idx[i + 1];
    return {
      device: `${stageDevicesText(s.devices, tp, plan.contextParallel)}${stageBlocksText(s)}`,
      forwardUs: problem.mode === 'training' ? forwardUs : split.timeUs,
      backwardUs: problem.mode === 'training' ? split.timeUs - forwardUs : 0,
      sendUs: next ? tables.cutUs(devs, next, s.to - 1, samples) : 0,
      allReduceUs: tables.gradientSyncUs(devs, s.from, s.to, tp, samples),
    };
  });
}
