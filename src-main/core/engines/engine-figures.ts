/**
 * The figures people publish about an engine, priced on a deployment: a prompt processed alone
 * (llama-bench ppN), tokens generated one after another (tgN), a static batch run to completion,
 * an offline run of many requests, and serving a load (arrivals at a concurrency, a rate, in bursts
 * or from a trace; prompt and answer lengths fixed or drawn) with its latency percentiles. Pure.
 */
import { replicaKvTokens } from './engine-memory.js';
import { stepCost, type EngineDeployment } from './engine-step.js';
import { arrivalCount, arrivalTimesUs, describeArrivals, type ArrivalSpec } from '../serving/arrivals.js';
import { describeLength, sampleLengths, type LengthSpec } from '../serving/lengths.js';
import { latencySummary, tpotOf, ttftOf, weightedSummary, type LatencySummary } from '../serving/serving-metrics.js';
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

export type { LatencySummary };

export interface ServingRun {
  sim: SimResult;
  /** Per request, µs. */
  ttft: LatencySummary;
  tpot: LatencySummary;
  /** Gaps between a request's successive tokens, over every token after the first (µs). */
  itl: LatencySummary;
  e2e: LatencySummary;
  requestsPerSecond: number;
  outputTokensPerSecond: number;
  totalTokensPerSecond: number;
  /** The load in words: how requests arrived, and the prompt and answer lengths. */
  arrivals: string;
  promptLengths: string;
  outputLengths: string;
}

export interface ServingLoad {
  /** Tokens per prompt and per answer: a count, or a distribution (lengths.ts). */
  prompt: LengthSpec;
  output: LengthSpec;
  /** Requests in all (a trace's arrivals give at most their count). */
  requests: number;
  /**
   * All at once (offline), a closed loop of this many users, Poisson arrivals at a rate
   * (requests/s), bursts, or a trace's times (arrivals.ts).
   */
  arrival: ArrivalSpec;
  /**
   * Bytes of text a prompt token stands for (default: English, 3.94): the server's tokenizer pays per
   * byte (request-path.ts), so denser text (a benchmark's random prompts) reaches the scheduler later.
   */
  promptBytesPerToken?: number;
  /** Seed of the drawn lengths (default: the arrivals' seed, else 1). */
  seed?: number;
  /** Caps other than the engine's defaults (a launch's --max-num-seqs, a benchmark's batch). */
  maxNumSeqs?: number;
  maxBatchedTokens?: number;
}

/** Serving `load` on one replica of the deployment. */
export function serve(dep: EngineDeployment, load: ServingLoad): ServingRun {
  const n = arrivalCount(load.arrival, load.requests);
  const at = arrivalTimesUs(load.arrival, n);
  const seed = load.seed ?? ('seed' in load.arrival ? (load.arrival.seed ?? 1) : 1);
  // Prompts and answers draw from their own streams, so their lengths do not rise and fall together.
  const prompts = sampleLengths(load.prompt, n, seed * 2 + 11);
  const outputs = sampleLengths(load.output, n, seed * 2 + 12);
  const requests: SimRequest[] = [];
  for (let i = 0; i < n; i++) {
    requests.push({ at: at[i] as number, prompt: prompts[i] as number, output: outputs[i] as number });
  }
  const b = dep.engine.batching;
  const sim = simulateReplica(dep, requests, {
    kvTokens: replicaKvTokens(dep),
    maxNumSeqs: load.maxNumSeqs ?? b.maxNumSeqs,
    maxBatchedTokens: load.maxBatchedTokens ?? b.maxBatchedTokens,
    ...(b.schedulerSteps !== undefined ? { schedulerSteps: b.schedulerSteps } : {}),
    ...(load.promptBytesPerToken !== undefined ? { promptBytesPerToken: load.promptBytesPerToken } : {}),
    ...(load.arrival.kind === 'concurrency' ? { closedLoop: load.arrival.users } : {}),
  });
  const done = sim.requests;
  const seconds = sim.makespanUs / 1e6;
  let outputTokens = 0;
  let inputTokens = 0;
  for (const r of done) {
    outputTokens += r.output;
    inputTokens += r.prompt;
  }
  return {
    sim,
    ttft: latencySummary(done.map(ttftOf)),
    tpot: latencySummary(done.filter((r) => r.output > 1).map(tpotOf)),
    itl: weightedSummary(sim.itl),
    e2e: latencySummary(done.map((r) => r.end - r.arrival)),
    requestsPerSecond: seconds > 0 ? done.length / seconds : 0,
    outputTokensPerSecond: seconds > 0 ? outputTokens / seconds : 0,
    totalTokensPerSecond: seconds > 0 ? (inputTokens + outputTokens) / seconds : 0,
    arrivals: describeArrivals(load.arrival),
    promptLengths: describeLength(load.prompt),
    outputLengths: describeLength(load.output),
  };
}
