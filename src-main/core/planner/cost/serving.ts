/**
 * What a plan for serving a decoder gives its users: the time to first token (the plan's pass over
 * the prompt), the time of one decode step and tokens per second, and the longest context every
 * device's memory would hold. Pure.
 *
 * A decode step runs every stage once for one new token per sequence. On each device of a stage it
 * reads the stage's weights and the KV cache of the sequences it serves (an equal share of the
 * batch in a data-parallel group), at the device's decode bandwidth; the stage takes as long as
 * its slowest device, and the stages run one after the other for a token. The KV cache grows
 * linearly with the context, so the longest context is where a device's free memory runs out.
 *
 * A tensor-parallel stage of degree t: each member reads 1/t of the split layers' weights and KV
 * cache (the rest whole) for the sequences of its replica, and every split layer all-reduces its
 * output for the new tokens (forwardAllReduces per layer) over the replica's members.
 */
import type { Plan, PlanLayer, PlanProblem } from '../types.js';

export interface ServingFigures {
  ttftUs: number;
  decodeStepUs: number;
  tokensPerSecond: number;
  /** The longest context (tokens per sequence) every device holds, at most the model's. */
  maxContext: number;
}

export interface ServingInput {
  /** Tokens per sequence the plan was made for (its KV cache is sized for them). */
  context: number;
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
  const perToken = 1 / Math.max(1, s.context);
  return sum(
    range.map((l) =>
      l.tensor ? l.tensor.forwardAllReduces * allReduce(members, l.outBytesPerSample * perToken * samples) : 0,
    ),
  );
}

export function servingFigures(problem: PlanProblem, plan: Plan, s: ServingInput): ServingFigures {
  const layers = problem.layers;
  let decodeStepUs = 0;
  let maxContext = s.modelContext;
  for (const stage of plan.stages) {
    const tp = stage.tp ?? 1;
    const range = layers.slice(stage.from, stage.to);
    const shard = (l: PlanLayer): number => (l.tensor ? 1 / tp : 1);
    const weightBytes = sum(range.map((l) => l.params * shard(l))) * s.bytesPerParam;
    const kvPerSample = sum(range.map((l) => (l.residentBytesPerSample ?? 0) * shard(l)));
    const samples = problem.batch / (stage.devices.length / tp);
    const times = stage.devices.map((id) => (weightBytes + kvPerSample * samples) / ((s.decodeGBps[id] ?? 1) * 1e3));
    decodeStepUs += Math.max(...times) + tensorAllReducesUs(range, stage.devices.slice(0, tp), samples, s);
    for (const id of stage.devices) {
      const m = plan.memory.find((x) => x.device === id);
      const kv = kvPerSample * samples;
      if (!m || kv <= 0) continue;
      const free = m.availableBytes - m.neededBytes;
      maxContext = Math.min(maxContext, Math.floor(s.context * (1 + free / kv)));
    }
  }
  return {
    ttftUs: plan.stepUs,
    decodeStepUs,
    tokensPerSecond: decodeStepUs > 0 ? (problem.batch * 1e6) / decodeStepUs : 0,
    maxContext: Math.max(0, maxContext),
  };
}
