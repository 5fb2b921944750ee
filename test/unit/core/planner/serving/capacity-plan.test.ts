import { describe, expect, it } from 'vitest';
import { getCatalogEntry } from '../../../../../src-main/core/catalog/index.js';
import type { TransformerEntry } from '../../../../../src-main/core/catalog/schema.js';
import { resolveGpuName } from '../../../../../src-main/core/planner/cost/datasheets.js';
import { capacityPlan, type CapacityPlanRequest } from '../../../../../src-main/core/planner/serving/capacity-plan.js';
import { capacityCandidates } from '../../../../../src-main/core/planner/serving/capacity-candidates.js';
import { candidateCapacity, ReplicaSimulator } from '../../../../../src-main/core/planner/serving/capacity-search.js';
import { replicaKvTokens } from '../../../../../src-main/core/engines/engine-memory.js';

const entry = getCatalogEntry('llama-3.1-8b') as TransformerEntry;
const SLO = [
  { metric: 'ttft', percentile: 'p90', ms: 1000 },
  { metric: 'tpot', percentile: 'p90', ms: 50 },
] as const;

function request(over: Partial<CapacityPlanRequest> = {}): CapacityPlanRequest {
  return {
    entry,
    engine: 'vllm',
    formats: ['bf16'],
    gpus: [{ sheet: resolveGpuName('H100 SXM5'), maxPerReplica: 1 }],
    load: { rate: 4, prompt: 1000, output: 100, requests: 100, seed: 1 },
    slo: SLO,
    price: () => ({ perHour: 2, given: true, source: null }),
    top: 3,
    ...over,
  };
}

describe('the capacity search', () => {
  it('needs more replicas for more requests per second, each replica at most at its breaking rate', () => {
    const replicas = [5, 40, 160].map((rate) => {
      const p = capacityPlan(request({ load: { ...request().load, rate } }));
      const d = p.deployments[0];
      expect(d?.meets).toBe(true);
      expect(d?.perReplicaRate).toBeLessThanOrEqual((d?.breaksAt ?? 0) / (d?.replicas ?? 1) + 1e-9);
      return d?.replicas ?? 0;
    });
    expect(replicas[1]).toBeGreaterThan(replicas[0] as number);
    expect(replicas[2]).toBeGreaterThan(replicas[1] as number);
  });

  it('lets a cheaper GPU win when its price per request is lower', () => {
    const gpus = ['H100 SXM5', 'RTX 4090'].map((g) => ({ sheet: resolveGpuName(g), maxPerReplica: 1 }));
    const cheap4090 = capacityPlan(
      request({ gpus, price: (g) => ({ perHour: g.id === 'rtx-4090' ? 0.1 : 10, given: true, source: null }) }),
    );
    expect(cheap4090.deployments[0]?.gpuId).toBe('rtx-4090');
    const cheapH100 = capacityPlan(
      request({ gpus, price: (g) => ({ perHour: g.id === 'rtx-4090' ? 10 : 0.1, given: true, source: null }) }),
    );
    expect(cheapH100.deployments[0]?.gpuId).toBe('h100-sxm5-80gb');
    const d = cheap4090.deployments[0];
    expect(d?.perHour).toBeCloseTo(0.1 * (d?.replicas ?? 0), 9);
    expect(d?.perMillionTokens).toBeCloseTo(((d?.perHour ?? 0) / (4 * 100 * 3600)) * 1e6, 9);
  });

  it('breaks at a lower rate under a tighter SLO, and never under a looser one than a tighter', () => {
    const [c] = capacityCandidates({ ...request(), contextTokens: 1100 }).candidates;
    if (!c) throw new Error('no candidate');
    const rates = [200, 500, 2000].map((ms) => {
      const sim = new ReplicaSimulator(request().load, [{ metric: 'ttft', percentile: 'p90', ms }]);
      return candidateCapacity(sim, c, 4).breakRate ?? 0;
    });
    expect(rates[0]).toBeGreaterThan(0);
    expect(rates[1]).toBeGreaterThanOrEqual(rates[0] as number);
    expect(rates[2]).toBeGreaterThanOrEqual(rates[1] as number);
  });

  it('holds about twice the tokens a replica caches with an fp8 KV cache, and needs no more replicas', () => {
    const held = (kvCache: 'auto' | 'fp8'): number => {
      const [c] = capacityCandidates({ ...request(), contextTokens: 1100, kvCache }).candidates;
      if (!c) throw new Error('no candidate');
      return replicaKvTokens(c.deployment);
    };
    expect(held('fp8') / held('auto')).toBeCloseTo(2, 1);
    // Long requests at a rate where the 16-bit cache is what fills up.
    const load = { rate: 40, prompt: 4000, output: 1000, requests: 100, seed: 1 };
    const replicas = (kvCache: 'auto' | 'fp8'): number =>
      capacityPlan(request({ load, kvCache })).deployments[0]?.replicas ?? Infinity;
    expect(replicas('fp8')).toBeLessThanOrEqual(replicas('auto'));
  });

  it('draws each shown deployment past its breaking rate, where the SLO no longer holds', () => {
    const d = capacityPlan(request()).deployments[0];
    const curve = d?.curve ?? [];
    expect(curve.length).toBeGreaterThan(3);
    expect(curve.map((p) => p.rate)).toEqual([...curve.map((p) => p.rate)].sort((a, b) => a - b));
    expect(curve.at(-1)?.rate).toBeGreaterThan(d?.breaksAt ?? Infinity);
    expect(curve[0]?.meets).toBe(true);
    expect(curve.at(-1)?.meets).toBe(false);
  });

  it('names the closest deployment when nothing meets, and gives the same answer on every run', () => {
    const tight = request({ slo: [{ metric: 'tpot', percentile: 'p50', ms: 0.01 }] });
    const a = capacityPlan(tight);
    expect(a.deployments).toEqual([]);
    expect(a.closest).toMatchObject({ meets: false, gpuId: 'h100-sxm5-80gb' });
    expect(a.closest?.tpotMs.p50).toBeGreaterThan(0.01);
    expect(capacityPlan(tight)).toEqual(a);
  });

  it('drops a GPU that cannot hold the model with one request of KV cache, saying so', () => {
    const p = capacityPlan(request({ gpus: [{ sheet: resolveGpuName('RTX 3060'), maxPerReplica: 1 }] }));
    expect(p.candidates).toBe(0);
    expect(p.dropped[0]).toMatch(/RTX 3060: up to 1 GPUs per replica do not hold the model/);
  });
});
