/**
 * The serving capacity search (`serve-plan`): for each candidate deployment (capacity-candidates.ts)
 * it simulates one replica at the per-replica rate and finds the rate where one replica breaks
 * the SLO, by bisection on the rate (seeded arrivals: a faster rate is the same arrivals
 * compressed, so latency grows with it), bounded above by the replica's throughput when every
 * request is queued at once. The fewest replicas is the asked rate over that breaking rate,
 * checked by simulating a replica at its share. Cost per hour is replicas x GPUs x the GPU's
 * price, per million output tokens at the asked rate. Deployments are ranked cheapest first
 * (priced before unpriced, then the fewest GPUs), and each shown one gets its latency-vs-rate curve.
 * Pure and deterministic.
 */
import { serve, type ServingLoad, type ServingRun } from '../../engines/engine-figures.js';
import type { EngineDeployment } from '../../engines/engine-step.js';
import type { Candidate } from './capacity-candidates.js';
import { arrivalAt, type CapacityLoad } from './capacity-load.js';
import type { SloCap } from './serving-plan-request.js';
import { meetsSlo, sloExcess } from './slo.js';

export interface CandidateCapacity {
  candidate: Candidate;
  /** Per-replica rate where the SLO breaks (the largest rate found to meet it); null: not even at a trickle. */
  breakRate: number | null;
  /** Requests/s one replica completes with all queued at once: no higher per-replica rate is sustained. */
  ceiling: number;
  replicas: number;
  /** The run of one replica at the asked rate's share (for a deployment that never meets: at a trickle). */
  run: ServingRun;
  meets: boolean;
  excess: number;
}

/** Bisection stops when the bracket is this narrow (upper / lower): first on a few requests, then on all. */
const COARSE_TOLERANCE = 1.1;
const RATE_TOLERANCE = 1.03;
/** Requests per point of the coarse bisection. */
const COARSE_REQUESTS = 60;
/** A trickle: this share of the replica's throughput ceiling. */
const TRICKLE = 1e-3;
/** Replicas added at most past the estimate before giving up on a noisy point. */
const EXTRA_REPLICAS = 3;

export class ReplicaSimulator {
  simulations = 0;
  constructor(
    private readonly load: CapacityLoad,
    private readonly slo: readonly SloCap[],
  ) {}

  run(dep: EngineDeployment, perSecond: number | 'offline', requests = this.load.requests): ServingRun {
    this.simulations++;
    const l: ServingLoad = {
      prompt: this.load.prompt,
      output: this.load.output,
      requests,
      arrival: perSecond === 'offline' ? { kind: 'offline' } : arrivalAt(this.load, perSecond),
      seed: this.load.seed,
    };
    return serve(dep, l);
  }

  meets(run: ServingRun): boolean {
    return meetsSlo(run, this.slo);
  }

  excess(run: ServingRun): number {
    return sloExcess(run, this.slo);
  }

  /** Requests per second one replica completes with every request queued at once: no rate above it is held. */
  ceiling(dep: EngineDeployment): number {
    return this.run(dep, 'offline').requestsPerSecond;
  }

  /** Narrow [lo, hi] (lo meets, hi breaks) to `tolerance` on `requests` per point. */
  private bisect(dep: EngineDeployment, lo: number, hi: number, tolerance: number, requests: number): [number, number] {
    while (hi / lo > tolerance) {
      const mid = Math.sqrt(lo * hi);
      if (this.meets(this.run(dep, mid, requests))) lo = mid;
      else hi = mid;
    }
    return [lo, hi];
  }

  /**
   * The largest per-replica rate that meets the SLO, within RATE_TOLERANCE, and at most the
   * replica's throughput ceiling; null when a trickle breaks it. A coarse bisection on COARSE_REQUESTS brackets it, and the bracket is widened until
   * it holds on all the requests before the fine bisection.
   */
  breakRate(dep: EngineDeployment, ceiling: number): { rate: number | null; trickle: ServingRun } {
    const trickleRate = Math.max(ceiling * TRICKLE, 1e-6);
    const trickle = this.run(dep, trickleRate);
    if (!this.meets(trickle)) return { rate: null, trickle };
    // A replica is given at most its throughput ceiling: past it the queue grows without end,
    // though a finite run's percentiles may still meet the SLO there.
    const top = ceiling * 1.2;
    if (this.meets(this.run(dep, top))) return { rate: ceiling, trickle };
    const coarse = Math.min(COARSE_REQUESTS, this.load.requests);
    let [lo, hi] = this.bisect(dep, trickleRate, top, COARSE_TOLERANCE, coarse);
    while (lo > trickleRate && !this.meets(this.run(dep, lo))) lo = Math.max(trickleRate, lo / COARSE_TOLERANCE);
    while (hi < top && this.meets(this.run(dep, hi))) hi = Math.min(top, hi * COARSE_TOLERANCE);
    return { rate: Math.min(ceiling, this.bisect(dep, lo, hi, RATE_TOLERANCE, this.load.requests)[0]), trickle };
  }
}

/** One candidate's replicas at the asked rate. */
export function candidateCapacity(
  sim: ReplicaSimulator,
  c: Candidate,
  rate: number,
  ceiling = sim.ceiling(c.deployment),
): CandidateCapacity {
  const { rate: breakRate, trickle } = sim.breakRate(c.deployment, ceiling);
  if (breakRate === null)
    return { candidate: c, breakRate, ceiling, replicas: 0, run: trickle, meets: false, excess: sim.excess(trickle) };
  let replicas = Math.max(1, Math.ceil(rate / breakRate - 1e-9));
  let run = sim.run(c.deployment, rate / replicas);
  for (let extra = 0; extra < EXTRA_REPLICAS && !sim.meets(run); extra++) {
    replicas++;
    run = sim.run(c.deployment, rate / replicas);
  }
  const meets = sim.meets(run);
  return { candidate: c, breakRate, ceiling, replicas, run, meets, excess: sim.excess(run) };
}
