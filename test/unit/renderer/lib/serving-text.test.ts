import { describe, expect, it } from 'vitest';
import type { ServingDeploymentView } from '../../../../src-main/api/view-models.js';
import {
  bandRange,
  bandText,
  cappedText,
  deploymentText,
  formatDollars,
  loadText,
  replicaFiguresText,
  sloText,
  withBand,
} from '../../../../src-renderer/src/lib/serving-text.js';

const d = (o: Partial<ServingDeploymentView>): ServingDeploymentView =>
  ({ gpu: 'L40S', weights: 'fp8', gpusPerReplica: 1, tp: 1, pp: 1, replicas: 1, ...o }) as ServingDeploymentView;

describe('serving text', () => {
  it('writes a deployment as GPUs per replica, split, weights and replicas', () => {
    expect(deploymentText(d({}))).toBe('L40S · fp8 · 1 replica');
    expect(deploymentText(d({ gpusPerReplica: 2, tp: 2, replicas: 3 }))).toBe('2× L40S (TP2) · fp8 · 3 replicas');
    expect(deploymentText(d({ gpusPerReplica: 4, tp: 2, pp: 2 }))).toBe('4× L40S (TP2×PP2) · fp8 · 1 replica');
  });

  it('writes the capped percentiles against their caps, with the band', () => {
    const x = d({ ttftMs: { p50: 500, p90: 1400, p99: 2000 }, tpotMs: { p50: 20, p90: 31, p99: 40 }, band: null });
    expect(
      cappedText(x, [
        { metric: 'ttft', percentile: 'p90', ms: 1000 },
        { metric: 'tpot', percentile: 'p99', ms: 50 },
      ]),
    ).toBe('p90 TTFT 1.4 s, cap 1 s · p99 TPOT 40 ms, cap 50 ms');
  });

  it('writes dollars, a figure with its band, the band and the SLO', () => {
    expect(formatDollars(2.5)).toBe('$2.50');
    expect(formatDollars(0.042)).toBe('$0.042');
    expect(formatDollars(null)).toBe('—');
    expect(withBand(620, { low: 0.78, high: 1.35, cells: 23 })).toBe('620 ms (484 ms – 837 ms)');
    expect(withBand(620, null)).toBe('620 ms');
    expect(bandRange(620, { low: 0.78, high: 1.35, cells: 23 })).toBe('484 ms – 837 ms');
    expect(bandRange(620, null)).toBeNull();
    expect(bandText({ low: 0.78, high: 1.35, cells: 23 })).toBe(
      'measured 0.78x–1.35x the predicted times (90% of 23 independent measurements)',
    );
    expect(bandText(null)).toMatch(/^no band yet/);
    expect(
      sloText([
        { metric: 'ttft', percentile: 'p90', ms: 1000 },
        { metric: 'tpot', percentile: 'p99', ms: 50 },
      ]),
    ).toBe('p90 TTFT < 1 s · p99 TPOT < 50 ms');
  });

  it("writes one replica's goodput, KV use and queue, each with its range under the band", () => {
    const b = (value: number, range: [number, number] | null = null) => ({ value, range });
    expect(
      replicaFiguresText({
        requests: 60,
        goodput: b(4.9, [4.2, 5]),
        goodShare: b(0.98, [0.84, 1]),
        kvUsePct: { mean: b(32, [25, 75]), peak: b(75, [51, 100]) },
        queue: { mean: b(0.25), peak: b(2) },
      }),
    ).toBe(
      'goodput 4.9 (4.2 – 5) requests/s each, 98% (84% – 100%) within the SLO · ' +
        'KV cache mean 32% (25% – 75%), peak 75% (51% – 100%) · queue mean 0.25, peak 2 waiting',
    );
  });

  it('writes the load: fixed lengths as counts, drawn or traced ones by their mean, bursts by their CV', () => {
    // Only the lengths, their words and the burst matter here.
    const fixed = { arrivals: 'Poisson (seed 1)', prompt: '2000 tokens', output: '300 tokens' };
    const load = (o: object) => ({
      rate: 20,
      prompt: 2000,
      output: 300,
      requests: 200,
      seed: 1,
      described: fixed,
      ...o,
    });
    expect(loadText(load({}))).toBe('prompt 2000 + 300 output tokens');
    expect(
      loadText(
        load({
          prompt: 2390.4,
          burst: 2,
          described: { arrivals: 'bursts', prompt: 'lognormal, median 2000 tokens, sigma 0.6', output: '300 tokens' },
        }),
      ),
    ).toBe('prompts mean 2390 + 300 output tokens · bursts, CV 2');
    expect(
      loadText(load({ burst: 1, output: 90, described: { arrivals: '', prompt: '2000 tokens', output: 'x' } })),
    ).toBe('prompt 2000 + outputs mean 90 tokens');
  });
});
