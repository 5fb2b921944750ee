/**
 * The figures people publish about an engine, priced on a deployment: a prompt processed alone
 * (llama-bench ppN), tokens generated one after another (tgN), a static batch run to completion,
 * an offline run of many requests, and serving at a concurrency or a request rate with its
 * latency percentiles. Pure.
 */
import { replicaKvTokens } from './engine-memory.js';
import { stepCost, type EngineDeployment } from './engine-step.js';
import { simulateReplica, type SimRequest, type SimResult } from './serving-sim.js';

/** A prompt of `tokens` processed alone, in the engine's steps of at most maxBatchedTokens (µs). */
export function promptUs(
  dep: EngineDeployment,
  tokens: number,
  maxBatchedTokens = dep.engine.batching.maxBatchedTokens,
): number {
  let us = 0;
  for (let done = 0; done < tokens;) {
    const chunk = Math.min(maxBatchedTokens, tokens - done);
    us += stepCost(dep, { decodeSeqs: 0, decodeContext: 0, prefill: [{ tokens: chunk, past: done }] }).us;
    done += chunk;
  }
  return us;
}

export interface LatencySummary {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
}

function summary(xs: number[]): LatencySummary {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? 0;
  return { mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length), p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}

export interface ServingRun {
  sim: SimResult;
  /** Per request, µs. */
  ttft: LatencySummary;
  tpot: LatencySummary;
  e2e: LatencySummary;
  requestsPerSecond: number;
  outputTokensPerSecond: number;
  totalTokensPerSecond: number;
}

export interface ServingLoad {
  prompt: number;
  output: number;
  /** Requests in all. */
  requests: number;
  /** All at once (offline), a closed loop of this many users, or Poisson arrivals at this rate (requests/s). */
  arrival:
    { kind: 'offline' } | { kind: 'concurrency'; users: number } | { kind: 'rate'; perSecond: number; seed?: number };
  /** Caps other than the engine's defaults (a launch's --max-num-seqs, a benchmark's batch). */
  maxNumSeqs?: number;
  maxBatchedTokens?: number;
}

/** Seeded exponential gaps (a small LCG, so the same seed gives the same arrivals anywhere). */
function poissonArrivals(n: number, perSecond: number, seed: number): number[] {
  let state = seed >>> 0 || 1;
  const next = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state + 0.5) / 2 ** 32;
  };
  const out: number[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    out.push(t);
    t += (-Math.log(next()) / perSecond) * 1e6;
  }
  return out;
}

/** Serving `load` on one replica of the deployment. */
export function serve(dep: EngineDeployment, load: ServingLoad): ServingRun {
  const at =
    load.arrival.kind === 'rate'
      ? poissonArrivals(load.requests, load.arrival.perSecond, load.arrival.seed ?? 1)
      : Array<number>(load.requests).fill(0);
  const requests: SimRequest[] = at.map((t) => ({ at: t, prompt: load.prompt, output: load.output }));
  const b = dep.engine.batching;
  const sim = simulateReplica(dep, requests, {
    kvTokens: replicaKvTokens(dep),
    maxNumSeqs: load.maxNumSeqs ?? b.maxNumSeqs,
    maxBatchedTokens: load.maxBatchedTokens ?? b.maxBatchedTokens,
    ...(load.arrival.kind === 'concurrency' ? { closedLoop: load.arrival.users } : {}),
  });
  const done = sim.requests;
  const seconds = sim.makespanUs / 1e6;
  const outputs = done.reduce((a, r) => a + r.output, 0);
  const inputs = done.reduce((a, r) => a + r.prompt, 0);
  return {
    sim,
    ttft: summary(done.map((r) => r.firstToken - r.arrival)),
    tpot: summary(done.filter((r) => r.output > 1).map((r) => (r.end - r.firstToken) / (r.output - 1))),
    e2e: summary(done.map((r) => r.end - r.arrival)),
    requestsPerSecond: seconds > 0 ? done.length / seconds : 0,
    outputTokensPerSecond: seconds > 0 ? outputs / seconds : 0,
    totalTokensPerSecond: seconds > 0 ? (inputs + outputs) / seconds : 0,
  };
}
