/**
 * A serving plan's figures as its engine gives them: the first token and the decode step at the
 * plan's batch, a static batch of requests run to completion, the most sequences the engine's
 * caps and KV cache hold at once, offline throughput there (prefills and decodes interleaved as the
 * engine batches them), and, at a stated concurrency or request rate, the latency percentiles.
 * Replicas split the requests evenly. Pure.
 */
import type { ServingFigures } from '../planner/serving/serving.js';
import type { ServedDecoder } from '../planner/serving/served-decoder.js';
import { replicaKvTokens, stageMemory } from './engine-memory.js';
import { serve, type LatencySummary, type ServingRun } from './engine-figures.js';
import { stepCost, type EngineDeployment } from './engine-step.js';

/** A load to simulate: users keeping requests in flight, or Poisson arrivals; requests in all. */
export type ServingLoadRequest =
  | { kind: 'concurrency'; users: number; requests?: number }
  | { kind: 'rate'; perSecond: number; requests?: number }
  | { kind: 'offline'; requests: number };

export interface LoadFigures {
  kind: ServingLoadRequest['kind'];
  /** Users (concurrency), requests per second (rate) or requests queued at once (offline), over all replicas. */
  level: number;
  requests: number;
  ttftUs: LatencySummary;
  tpotUs: LatencySummary;
  e2eUs: LatencySummary;
  requestsPerSecond: number;
  outputTokensPerSecond: number;
  preemptions: number;
}

export interface EngineMemoryFigures {
  /** Per GPU of the tightest stage (bytes). */
  weightBytes: number;
  reservedBytes: number;
  kvBytes: number;
  /** Cached tokens one replica holds. */
  kvTokens: number;
}

/** Requests an offline run holds per replica: enough waves to reach the steady state. */
const OFFLINE_WAVES = 3;
/** A load's requests when none are given: enough to pass the warm-up. */
const LOAD_REQUESTS = 200;
/**
 * Requests a replica's simulation runs at most: past a few thousand the rates (tokens/s,
 * requests/s) and the latency percentiles are those of the steady state, so a larger run (a
 * benchmark's 30,000 prompts) is simulated as its first SIMULATED_REQUESTS.
 */
const SIMULATED_REQUESTS = 2000;

function loadFigures(
  dep: EngineDeployment,
  replicas: number,
  served: ServedDecoder,
  load: ServingLoadRequest,
): LoadFigures {
  const requests = Math.min(SIMULATED_REQUESTS, Math.max(1, Math.ceil((load.requests ?? LOAD_REQUESTS) / replicas)));
  const arrival =
    load.kind === 'concurrency'
      ? { kind: 'concurrency' as const, users: Math.max(1, Math.ceil(load.users / replicas)) }
      : load.kind === 'rate'
        ? { kind: 'rate' as const, perSecond: load.perSecond / replicas }
        : { kind: 'offline' as const };
  const run: ServingRun = serve(dep, { prompt: served.prompt, output: served.tokens, requests, arrival });
  return {
    kind: load.kind,
    level: load.kind === 'concurrency' ? load.users : load.kind === 'rate' ? load.perSecond : load.requests,
    requests: requests * replicas,
    ttftUs: run.ttft,
    tpotUs: run.tpot,
    e2eUs: run.e2e,
    requestsPerSecond: run.requestsPerSecond * replicas,
    outputTokensPerSecond: run.outputTokensPerSecond * replicas,
    preemptions: run.sim.preemptions,
  };
}

function engineMemory(dep: EngineDeployment): EngineMemoryFigures {
  const stages = dep.stages.map((_, i) => stageMemory(dep, i));
  const tight = stages.reduce((a, b) => (b.kvTokens < a.kvTokens ? b : a));
  return {
    weightBytes: tight.weightBytes,
    reservedBytes: tight.reservedBytes + tight.activationBytes,
    kvBytes: Math.max(0, tight.kvBytes),
    kvTokens: replicaKvTokens(dep),
  };
}

export function engineServingFigures(
  dep: EngineDeployment,
  replicas: number,
  served: ServedDecoder,
  batch: number,
  load?: ServingLoadRequest,
): ServingFigures & { engineMemory: EngineMemoryFigures; load?: LoadFigures } {
  const held = served.prompt + served.tokens;
  const kvTokens = replicaKvTokens(dep);
  const perReplica = Math.max(1, Math.ceil(batch / replicas));
  const mean = served.prompt + served.tokens / 2;
  const step = (seqs: number): number =>
    stepCost(dep, { decodeSeqs: seqs, decodeContext: seqs * mean, prefill: [] }).us;
  const fitsOne = kvTokens >= held;
  const batchRun = fitsOne
    ? serve(dep, { prompt: served.prompt, output: served.tokens, requests: perReplica, arrival: { kind: 'offline' } })
    : null;
  const maxPerReplica = Math.max(0, Math.min(dep.engine.batching.maxNumSeqs, Math.floor(kvTokens / held)));
  const offline =
    maxPerReplica > 0
      ? serve(dep, {
          prompt: served.prompt,
          output: served.tokens,
          requests: maxPerReplica * OFFLINE_WAVES,
          arrival: { kind: 'offline' },
        })
      : null;
  const decodeStepUs = step(perReplica);
  return {
    ttftUs: batchRun ? batchRun.ttft.mean : Infinity,
    decodeStepUs,
    tokensPerSecond: (perReplica * replicas * 1e6) / decodeStepUs,
    tokensPerSecondPerSequence: 1e6 / decodeStepUs,
    requestUs: batchRun ? batchRun.sim.makespanUs : Infinity,
    maxContext: Math.max(0, Math.min(served.modelContext, Math.floor(kvTokens / perReplica))),
    maxBatch: maxPerReplica * replicas,
    maxBatchDecodeStepUs: maxPerReplica > 0 ? step(maxPerReplica) : 0,
    maxBatchTokensPerSecond: offline ? offline.outputTokensPerSecond * replicas : 0,
    engineMemory: engineMemory(dep),
    ...(load && fitsOne ? { load: loadFigures(dep, replicas, served, load) } : {}),
  };
}
