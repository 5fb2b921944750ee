/**
 * A serving run held against an SLO: each cap on a latency percentile (TTFT or TPOT at p50, p90
 * or p99), whether the run meets them all, and by how much the worst cap is exceeded (the ratio
 * of the percentile to its cap; at most 1 where all are met), which ranks the closest deployment
 * when none meets. Pure.
 */
import type { LatencySummary, ServingRun } from '../../engines/engine-figures.js';
import type { LatencyPercentiles } from './serving-plan-answer.js';
import type { SloCap } from './serving-plan-request.js';

/** The run's percentiles in milliseconds. */
export function percentilesMs(s: LatencySummary): LatencyPercentiles {
  return { p50: s.p50 / 1000, p90: s.p90 / 1000, p99: s.p99 / 1000 };
}

/** The worst percentile over its cap across the SLO (≤ 1: met). */
export function sloExcess(run: Pick<ServingRun, 'ttft' | 'tpot'>, slo: readonly SloCap[]): number {
  let worst = 0;
  for (const c of slo) {
    const ms = run[c.metric][c.percentile] / 1000;
    worst = Math.max(worst, ms / c.ms);
  }
  return worst;
}

export const meetsSlo = (run: Pick<ServingRun, 'ttft' | 'tpot'>, slo: readonly SloCap[]): boolean =>
  sloExcess(run, slo) <= 1;
