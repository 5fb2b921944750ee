/**
 * What the capacity search answers (`pipedejavu serve-plan`, `serving:plan`): the deployments that
 * meet the SLO, cheapest first, each with its latency percentiles, its engine's band, its cost and
 * the rate where it breaks, and its latency-vs-rate curve; when none meets, the closest one. Every
 * latency is in milliseconds, every rate in requests per second. Pure (types only).
 */
import type { EngineName } from '../../engines/engine-names.js';
import type { WeightFormat } from '../../workload/generation.js';
import type { ReplicaFigures, ReplicaSeries } from './replica-figures.js';
import type { SloCap } from './serving-plan-request.js';

export interface LatencyPercentiles {
  p50: number;
  p90: number;
  p99: number;
}

/** One point of a latency-vs-rate curve: the deployment (all its replicas) at a total rate. */
export interface ServingCurvePoint {
  rate: number;
  ttftMs: LatencyPercentiles;
  tpotMs: LatencyPercentiles;
  meets: boolean;
}

/** How far the engine's figures may be off: measured / predicted time, 5th and 95th percentiles (engine-bands.ts). */
export interface ServingBand {
  low: number;
  high: number;
  /** Held-out cells the band was taken from. */
  cells: number;
}

export interface ServingDeploymentView {
  /** The datasheet GPU's name and id (models/gpus.json). */
  gpu: string;
  gpuId: string;
  engine: EngineName;
  engineTitle: string;
  weights: WeightFormat;
  /** GPUs per replica = tp x pp. */
  gpusPerReplica: number;
  tp: number;
  pp: number;
  replicas: number;
  /** The asked rate each replica gets (rate / replicas). */
  perReplicaRate: number;
  /** Percentiles at the asked rate. */
  ttftMs: LatencyPercentiles;
  tpotMs: LatencyPercentiles;
  meets: boolean;
  /** Total rate (all replicas) where the SLO breaks; null: one replica breaks it at any rate. */
  breaksAt: number | null;
  /** Dollars per hour for all its GPUs, and per million output tokens at the asked rate; null: no price. */
  perHour: number | null;
  perMillionTokens: number | null;
  /** The engine's band (null: too few held-out cells to give one). */
  band: ServingBand | null;
  curve: ServingCurvePoint[];
  /**
   * One replica at `perReplicaRate`: goodput under the SLO, KV cache use and the queue, each with
   * its range under the engine's band (replica-figures.ts); absent for a deployment that breaks
   * the SLO even at a trickle.
   */
  replica?: ReplicaFigures;
  /** The cheapest deployment's KV use and queue over that run (at most 200 points). */
  series?: ReplicaSeries;
}

/** A GPU's price as used: given (--price, `prices`) or a shipped default with its source and date. */
export interface ServingPriceView {
  gpu: string;
  perHour: number;
  given: boolean;
  source: { name: string; url: string; date: string } | null;
}

export interface ServingPlanView {
  model: string;
  /** Prompt and output: mean tokens per request; `described`: arrivals and lengths in words (a distribution, a trace). */
  load: {
    rate: number;
    prompt: number;
    output: number;
    requests: number;
    seed: number;
    burst?: number;
    described: { arrivals: string; prompt: string; output: string };
  };
  slo: SloCap[];
  /** Meeting the SLO, cheapest first (priced before unpriced), at most `top`. */
  deployments: ServingDeploymentView[];
  /** Deployments found to meet it (before `top`; candidates that could not beat the listed ones are skipped). */
  meeting: number;
  /** When none meets: the one closest to the SLO, else null. */
  closest: ServingDeploymentView | null;
  /** GPU kind x GPUs per replica x weights that hold the model; those skipped (could not beat the listed ones); simulations run. */
  candidates: number;
  skipped: number;
  simulations: number;
  prices: ServingPriceView[];
  notes: string[];
}
