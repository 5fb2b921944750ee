/**
 * The capacity search's answer: every candidate sized for the asked rate (capacity-search.ts),
 * priced (gpu-prices.ts), ranked cheapest first, the shown ones with their latency-vs-rate curve
 * and their engine's band, and the closest one when none meets the SLO. Pure.
 */
import { engineBand } from '../../engines/engine-bands.js';
import { replicaKvTokens } from '../../engines/engine-memory.js';
import { ENGINES } from '../../engines/engine-names.js';
import type { GpuDatasheet } from '../cost/datasheets.js';
import { capacityCandidates, type Candidate, type CandidateRequest } from './capacity-candidates.js';
import { describeLoad, longestLength, meanLength, type CapacityLoad, type NamedTrace } from './capacity-load.js';
import { candidateCapacity, ReplicaSimulator, type CandidateCapacity } from './capacity-search.js';
import type { UsedPrice } from './gpu-prices.js';
import { replicaFigures, replicaSeries } from './replica-figures.js';
import type { ServingCurvePoint, ServingDeploymentView, ServingPlanView } from './serving-plan-answer.js';
import type { SloCap } from './serving-plan-request.js';
import { percentilesMs } from './slo.js';

export interface CapacityPlanRequest extends Omit<CandidateRequest, 'contextTokens'> {
  load: CapacityLoad;
  /** The trace the load came from, to name it. */
  trace?: NamedTrace;
  slo: readonly SloCap[];
  price(gpu: GpuDatasheet): UsedPrice | null;
  top: number;
}

/** A bound's stand-in run (its latencies are not read). */
const ZERO = { mean: 0, p50: 0, p90: 0, p99: 0 };
const EMPTY_RUN = { ttft: ZERO, tpot: ZERO } as CandidateCapacity['run'];

/** Where a shown deployment's curve is drawn: shares of its breaking rate (past it), all replicas together. */
const CURVE_SHARES = [0.25, 0.5, 0.75, 0.9, 1, 1.1, 1.25, 1.5] as const;

const gpusOf = (c: CandidateCapacity): number => c.replicas * c.candidate.tp * c.candidate.pp;

function perHourOf(req: CapacityPlanRequest, c: CandidateCapacity): number | null {
  const p = req.price(c.candidate.gpu);
  return p ? p.perHour * gpusOf(c) : null;
}

/** Cheapest first; unpriced after priced, by the fewest GPUs; then the fastest p90 TTFT. */
function byCost(req: CapacityPlanRequest) {
  return (a: CandidateCapacity, b: CandidateCapacity): number => {
    const [ca, cb] = [perHourOf(req, a), perHourOf(req, b)];
    if (ca !== null && cb !== null && ca !== cb) return ca - cb;
    if ((ca === null) !== (cb === null)) return ca === null ? 1 : -1;
    return gpusOf(a) - gpusOf(b) || a.run.ttft.p90 - b.run.ttft.p90;
  };
}

function curve(sim: ReplicaSimulator, c: CandidateCapacity): ServingCurvePoint[] {
  const perReplica = c.breakRate ?? 0;
  if (perReplica <= 0) return [];
  return CURVE_SHARES.map((share) => {
    const run = sim.run(c.candidate.deployment, perReplica * share);
    // Past the replica's throughput ceiling the queue grows without end, whatever a finite run shows.
    return {
      rate: perReplica * share * c.replicas,
      ttftMs: percentilesMs(run.ttft),
      tpotMs: percentilesMs(run.tpot),
      meets: sim.meets(run) && perReplica * share <= c.ceiling * (1 + 1e-9),
    };
  });
}

function view(
  req: CapacityPlanRequest,
  sim: ReplicaSimulator,
  c: CandidateCapacity,
  withSeries = false,
): ServingDeploymentView {
  const { candidate: d } = c;
  const perReplicaRate = c.replicas > 0 ? req.load.rate / c.replicas : 0;
  const kvTokens = replicaKvTokens(d.deployment);
  const perHour = perHourOf(req, c);
  const tokensPerHour = req.load.rate * meanLength(req.load.output) * 3600;
  const band = engineBand(d.engine);
  const replica =
    c.replicas > 0
      ? replicaFigures(c.run, perReplicaRate, req.slo, kvTokens, band, (r) => sim.run(d.deployment, r))
      : undefined;
  return {
    gpu: d.gpu.name,
    gpuId: d.gpu.id,
    engine: d.engine,
    engineTitle: ENGINES[d.engine].title,
    weights: d.format,
    gpusPerReplica: d.tp * d.pp,
    tp: d.tp,
    pp: d.pp,
    replicas: c.replicas,
    perReplicaRate,
    ttftMs: percentilesMs(c.run.ttft),
    tpotMs: percentilesMs(c.run.tpot),
    meets: c.meets,
    breaksAt: c.breakRate === null ? null : c.breakRate * c.replicas,
    perHour,
    perMillionTokens: perHour === null ? null : (perHour / tokensPerHour) * 1e6,
    band: band ? { low: band.low, high: band.high, cells: band.cells } : null,
    curve: c.meets ? curve(sim, c) : [],
    ...(replica ? { replica } : {}),
    ...(replica && withSeries ? { series: replicaSeries(c.run, kvTokens) } : {}),
  };
}

/**
 * Candidates in the order of the least they could cost (the fewest replicas their throughput
 * ceiling allows), each sized only while it could still beat the `top`-th cheapest found: the rest
 * are skipped (counted), so the listed deployments are the cheapest of all.
 */
function sizeCandidates(req: CapacityPlanRequest, sim: ReplicaSimulator, candidates: readonly Candidate[]) {
  const rank = byCost(req);
  const bounds = candidates.map((c) => {
    const ceiling = sim.ceiling(c.deployment);
    const replicas = Math.max(1, Math.ceil(req.load.rate / ceiling - 1e-9));
    const floor: CandidateCapacity = {
      candidate: c,
      breakRate: null,
      ceiling,
      replicas,
      run: EMPTY_RUN,
      meets: true,
      excess: 0,
    };
    return { c, ceiling, floor };
  });
  bounds.sort((a, b) => rank(a.floor, b.floor));
  const sized: CandidateCapacity[] = [];
  const meeting: CandidateCapacity[] = [];
  let skipped = 0;
  for (const b of bounds) {
    const last = meeting.length >= req.top ? meeting[req.top - 1] : undefined;
    if (last && rank(b.floor, last) >= 0) {
      skipped++;
      continue;
    }
    const s = candidateCapacity(sim, b.c, req.load.rate, b.ceiling);
    sized.push(s);
    if (s.meets) {
      meeting.push(s);
      meeting.sort(rank);
    }
  }
  return { sized, meeting, skipped };
}

export function capacityPlan(
  req: CapacityPlanRequest,
): Omit<ServingPlanView, 'model' | 'prices' | 'notes'> & { dropped: string[] } {
  const { candidates, dropped } = capacityCandidates({
    ...req,
    contextTokens: longestLength(req.load.prompt) + longestLength(req.load.output),
  });
  const sim = new ReplicaSimulator(req.load, req.slo);
  const { sized, meeting, skipped } = sizeCandidates(req, sim, candidates);
  const closest =
    meeting.length === 0 && sized.length > 0 ? [...sized].sort((a, b) => a.excess - b.excess)[0] : undefined;
  const l = req.load;
  return {
    load: {
      rate: l.rate,
      prompt: Math.round(meanLength(l.prompt)),
      output: Math.round(meanLength(l.output)),
      requests: l.requests,
      seed: l.seed,
      ...(l.burst !== undefined && l.burst !== 1 ? { burst: l.burst } : {}),
      described: describeLoad(l, req.trace),
    },
    slo: [...req.slo],
    deployments: meeting.slice(0, req.top).map((c, i) => view(req, sim, c, i === 0)),
    meeting: meeting.length,
    closest: closest ? view(req, sim, closest) : null,
    candidates: candidates.length,
    skipped,
    simulations: sim.simulations,
    dropped,
  };
}
