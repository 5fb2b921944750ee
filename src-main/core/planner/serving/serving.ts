/**
 * What a plan for serving a decoder gives its users: the time to first token (the plan's pass over
 * the prompt), the time of one decode step and tokens per second, the time of a whole request, the
 * longest context every device's memory would hold, and under continuous batching the most
 * sequences every device holds at once and the tokens per second there. Pure.
 *
 * A decode step runs every stage once for one new token per sequence. On each device of a stage it
 * reads the stage's weights and the KV cache of the sequences it serves (an equal share of the
 * batch in a data-parallel group), at the device's decode bandwidth, and does the arithmetic of one
 * token per sequence (the prefill's time per prompt token, a floor that matters at large batches);
 * the stage takes as long as its slowest device, and the stages run one after the other for a
 * token. The KV cache grows linearly while a request generates, so a request's steps average the
 * step at its mean context, prompt + tokens / 2. The cache is held for prompt + tokens per
 * sequence; the longest context is where a device's free memory runs out.
 *
 * A tensor-parallel stage of degree t: each member reads 1/t of the split layers' weights and KV
 * cache (the rest whole) for the sequences of its replica, and every split layer all-reduces its
 * output for the new tokens (forwardAllReduces per layer) over the replica's members.
 */
import type { Plan, PlanLayer, PlanProblem } from '../types.js';
import { timesKey } from '../problem/time-keys.js';
import type { EngineName } from '../../engines/engine-names.js';
import type { EngineMemoryFigures, LoadFigures } from '../../engines/engine-serving.js';

export interface ServingFigures {
  /** The prefill of the prompt for the batch (the plan's step). */
  ttftUs: number;
  /** One decode step at the batch, at a request's mean context. */
  decodeStepUs: number;
  /** Tokens per second of the whole batch. */
  tokensPerSecond: number;
  /** Tokens per second one sequence sees. */
  tokensPerSecondPerSequence: number;
  /** A whole request: the time to first token and its output tokens' decode steps. */
  requestUs: number;
  /** The longest context (tokens per sequence) every device holds at the batch, at most the model's. */
  maxContext: number;
  /** Continuous batching: the most sequences of prompt + tokens every device holds at once (0: not even one). */
  maxBatch: number;
  /** The decode step at maxBatch (weights read once, the KV cache of every sequence). */
  maxBatchDecodeStepUs: number;
  /** Tokens per second of all the sequences at maxBatch. */
  maxBatchTokensPerSecond: number;
  /** The engine the figures are priced for (core/engines); absent: the kernel roofline (--engine ideal). */
  engine?: { name: EngineName; since: string };
  /** Why the engine cannot run this plan's layout: the plan is not offered, its figures are the roofline's. */
  engineRefusal?: string;
  /** Why the engine model could not price this plan (a CPU, a GPU without a datasheet): its figures are the roofline's. */
  engineUnpriced?: string;
  /**
   * How far the engine's figures were from independent measurements: measured over predicted time,
   * 5th to 95th percentile of its held-out published cells (core/engines/engine-bands.ts); absent
   * when its held-out cells were too few.
   */
  band?: { low: number; high: number; cells: number };
  /** What the engine holds per GPU, and the KV cache it leaves. */
  engineMemory?: EngineMemoryFigures;
  /** Serving at a stated concurrency or request rate: simulated latency percentiles and throughput. */
  load?: LoadFigures;
}

export interface ServingInput {
  /** Prompt tokens per sequence: the workload's sequence (the plan's step is its prefill). */
  prompt: number;
  /** Output tokens per request; the KV cache (residentBytesPerSample) is sized for prompt + tokens. */
  tokens: number;
  /** The model's own limit. */
  modelContext: number;
  /** Bytes per parameter of the served weights. */
  bytesPerParam: number;
  /** Decode bandwidth per device id (GB/s). */
  decodeGBps: Readonly<Record<string, number>>;
  /** All-reduce time over devices (µs), for tensor-parallel stages; absent: free. */
  allReduceUs?: (devices: readonly string[], bytes: number) => number;
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** The all-reduces of one decode step's new tokens over a tensor-parallel replica (µs); 0 for one device. */
function tensorAllReducesUs(
  range: readonly PlanLayer[],
  members: readonly string[],
  samples: number,
  s: ServingInput,
): number {
  if (members.length < 2 || !s.allReduceUs) return 0;
  const allReduce = s.allReduceUs;
  const perToken = 1 / Math.max(1, s.prompt);
  return sum(
    range.map((l) =>
      l.tensor ? l.tensor.forwardAllReduces * allReduce(members, l.outBytesPerSample * perToken * samples) : 0,
    ),
  );
}

/** One stage of a plan as decoding sees it: what each member reads and computes per sequence. */
interface DecodeStage {
  range: PlanLayer[];
  devices: string[];
  /** Each member's key in the layers' time records (problem/time-keys.ts). */
  timesKeys: string[];
  tp: number;
  replicas: number;
  /** KV cache bytes per sequence on each member, at prompt + tokens. */
  kvPerSample: number;
}

function decodeStages(problem: PlanProblem, plan: Plan): DecodeStage[] {
  return plan.stages.map((stage) => {
    const tp = stage.tp ?? 1;
    const range = problem.layers.slice(stage.from, stage.to);
    const shard = (l: PlanLayer): number => (l.tensor ? 1 / tp : 1);
    return {
      range,
      devices: stage.devices,
      timesKeys: stage.devices.map((id) => timesKey(problem, id)),
      tp,
      replicas: stage.devices.length / tp,
      kvPerSample: sum(range.map((l) => (l.residentBytesPerSample ?? 0) * shard(l))),
    };
  });
}

/**
 * Weight bytes one member of a stage reads in a decode step for `samples` sequences: every dense
 * weight of its share, and of a mixture-of-experts block only the experts its tokens touch (each
 * of `samples` tokens routed to topK of E experts, uniformly: E x (1 - (1 - topK/E)^samples)).
 */
function stageWeightBytes(st: DecodeStage, samples: number, s: ServingInput): number {
  const params = sum(
    st.range.map((l) => {
      const shard = l.tensor ? 1 / st.tp : 1;
      if (!l.experts || l.experts.count <= 0) return l.params * shard;
      const { params: expertParams, count, topK } = l.experts;
      const touched = count * (1 - (1 - Math.min(topK, count) / count) ** Math.max(1, samples));
      return (l.params - expertParams + (expertParams * touched) / count) * shard;
    }),
  );
  return params * s.bytesPerParam;
}

/** A decode step for `batch` sequences at the mean context of a request (µs). */
function decodeStepUs(stages: readonly DecodeStage[], batch: number, s: ServingInput): number {
  const held = s.prompt + s.tokens;
  const meanShare = held > 0 ? (s.prompt + s.tokens / 2) / held : 1;
  let total = 0;
  for (const st of stages) {
    const samples = batch / st.replicas;
    const times = st.devices.map((id, i) => {
      const key = st.timesKeys[i] as string;
      const weightBytes = stageWeightBytes(st, samples, s);
      const memoryUs = (weightBytes + st.kvPerSample * meanShare * samples) / ((s.decodeGBps[id] ?? 1) * 1e3);
      const perToken = sum(st.range.map((l) => (l.forwardUs[key] ?? 0) * (l.tensor ? 1 / st.tp : 1)));
      return Math.max(memoryUs, (perToken / Math.max(1, s.prompt)) * samples);
    });
    total += Math.max(...times) + tensorAllReducesUs(st.range, st.devices.slice(0, st.tp), samples, s);
  }
  return total;
}

/** The most sequences every stage holds: on each member, its free memory once the plan's own cache is set aside. */
function maxConcurrent(stages: readonly DecodeStage[], plan: Plan, batch: number): number {
  let most = Infinity;
  for (const st of stages) {
    if (st.kvPerSample <= 0) continue;
    const samples = batch / st.replicas;
    for (const id of st.devices) {
      const m = plan.memory.find((x) => x.device === id);
      if (!m) continue;
      const withoutCache = m.neededBytes - st.kvPerSample * samples;
      most = Math.min(most, Math.floor((m.availableBytes - withoutCache) / st.kvPerSample) * st.replicas);
    }
  }
  return Number.isFinite(most) ? Math.max(0, most) : batch;
}

/** The longest context every device holds at the plan's batch, at most the model's. */
function longestContext(stages: readonly DecodeStage[], plan: Plan, batch: number, s: ServingInput): number {
  const held = s.prompt + s.tokens;
  let longest = s.modelContext;
  for (const st of stages) {
    const kv = st.kvPerSample * (batch / st.replicas);
    if (kv <= 0) continue;
    for (const id of st.devices) {
      const m = plan.memory.find((x) => x.device === id);
      if (!m) continue;
      longest = Math.min(longest, Math.floor(held * (1 + (m.availableBytes - m.neededBytes) / kv)));
    }
  }
  return Math.max(0, longest);
}

export function servingFigures(problem: PlanProblem, plan: Plan, s: ServingInput): ServingFigures {
  const stages = decodeStages(problem, plan);
  const batch = problem.batch;
  const stepUs = decodeStepUs(stages, batch, s);
  const maxBatch = maxConcurrent(stages, plan, batch);
  const maxStepUs = maxBatch > 0 ? decodeStepUs(stages, maxBatch, s) : 0;
  return {
    ttftUs: plan.stepUs,
    decodeStepUs: stepUs,
    tokensPerSecond: stepUs > 0 ? (batch * 1e6) / stepUs : 0,
    tokensPerSecondPerSequence: stepUs > 0 ? 1e6 / stepUs : 0,
    requestUs: plan.stepUs + s.tokens * stepUs,
    maxContext: longestContext(stages, plan, batch, s),
    maxBatch,
    maxBatchDecodeStepUs: maxStepUs,
    maxBatchTokensPerSecond: maxStepUs > 0 ? (maxBatch * 1e6) / maxStepUs : 0,
  };
}

/** What a serving plan is ranked by: a whole request's time at the batch, or tokens per second at the largest batch. */
export type ServingObjective = 'latency' | 'throughput';

/** Orders two plans' serving figures by the objective: negative when `a` serves better. */
export function compareServing(objective: ServingObjective, a: ServingFigures, b: ServingFigures): number {
  return objective === 'latency'
    ? a.requestUs - b.requestUs
    : b.maxBatchTokensPerSecond - a.maxBatchTokensPerSecond || a.requestUs - b.requestUs;
}
