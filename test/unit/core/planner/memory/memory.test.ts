import { describe, expect, it } from 'vitest';
import { pricePlan } from '../../../../../src-main/core/planner/cost/plan-cost.js';
import {
  deviceMemory,
  deviceMemoryBytes,
  memoryShortfall,
  microbatchesInFlight,
  parameterStateBytes,
  type MemorySettings,
} from '../../../../../src-main/core/planner/memory/memory.js';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import type { Plan, PlanLayer, PlanProblem } from '../../../../../src-main/core/planner/types.js';

const GiB = 1024 ** 3;
const training = (zeroStage: 0 | 1 | 2 | 3): MemorySettings => ({
  mode: 'training',
  bytesPerParam: 16,
  zeroStage,
  overheadBytes: 0,
});

describe('parameter state (mixed-precision Adam, ZeRO)', () => {
  const psi = 1e9;
  it('16 bytes per parameter without ZeRO, whatever the replicas', () => {
    expect(parameterStateBytes(psi, 1, training(0))).toBe(16e9);
    expect(parameterStateBytes(psi, 4, training(0))).toBe(16e9);
  });
  it('ZeRO-1 4Ψ + 12Ψ/N, ZeRO-2 2Ψ + 14Ψ/N, ZeRO-3 16Ψ/N', () => {
    expect(parameterStateBytes(psi, 4, training(1))).toBe(4e9 + 3e9);
    expect(parameterStateBytes(psi, 4, training(2))).toBe(2e9 + 3.5e9);
    expect(parameterStateBytes(psi, 4, training(3))).toBe(4e9);
    expect(parameterStateBytes(psi, 8, training(3))).toBe(2e9);
    // One replica: nothing to shard.
    for (const z of [1, 2, 3] as const) expect(parameterStateBytes(psi, 1, training(z))).toBe(16e9);
  });
  it('inference holds the weights only', () => {
    const s: MemorySettings = { mode: 'inference', bytesPerParam: 2, zeroStage: 3, overheadBytes: 0 };
    expect(parameterStateBytes(psi, 4, s)).toBe(2e9);
  });
});

describe('microbatches in flight', () => {
  it('1F1B: stage i of p keeps p − i (at most m)', () => {
    expect([0, 1, 2, 3].map((i) => microbatchesInFlight('1f1b', 'training', i, 4, 8))).toEqual([4, 3, 2, 1]);
    expect([0, 1, 2, 3].map((i) => microbatchesInFlight('1f1b', 'training', i, 4, 2))).toEqual([2, 2, 2, 1]);
  });
  it('interleaved 1F1B (v chunks): rank i keeps (2(p − i − 1) + (v − 1)p + 1)/v, at most m; rank 0 p + (p − 1)/v', () => {
    // p = 4, v = 2, m = 8: rank 0 runs 2·3 + 1·4 = 10 chunk forwards of warm-up and holds 11 chunks, 5.5 microbatches.
    expect([0, 1, 2, 3].map((i) => microbatchesInFlight('1f1b', 'training', i, 4, 8, 2))).toEqual([5.5, 4.5, 3.5, 2.5]);
    // Korthikanti et al.: rank 0 holds p microbatches times 1 + (p − 1)/(p·v) = 4 · (1 + 3/8).
    expect(microbatchesInFlight('1f1b', 'training', 0, 4, 8, 2)).toBeCloseTo(4 * (1 + 3 / 8), 12);
    expect(microbatchesInFlight('1f1b', 'training', 0, 8, 64, 5)).toBeCloseTo(8 + 7 / 5, 12);
    // m = p = 4: Megatron warms up all m·v = 8 chunks on every rank.
    expect([0, 1, 2, 3].map((i) => microbatchesInFlight('1f1b', 'training', i, 4, 4, 2))).toEqual([4, 4, 4, 4]);
    // m = 8, v = 4, p = 2: rank 0 warms up 2·1 + 3·2 = 8 of its 32 chunks and holds 9, 2.25 microbatches.
    expect(microbatchesInFlight('1f1b', 'training', 0, 2, 8, 4)).toBe(2.25);
    expect(microbatchesInFlight('1f1b', 'training', 0, 4, 8, 1)).toBe(4);
  });
  it('GPipe keeps all m; inference one', () => {
    expect(microbatchesInFlight('gpipe', 'training', 3, 4, 8)).toBe(8);
    expect(microbatchesInFlight('gpipe', 'inference', 0, 4, 8)).toBe(1);
  });
});

describe('memory reason', () => {
  it('names the device, what it needs and where it goes', () => {
    const need = deviceMemory(
      { params: (6.2 * GiB) / 16, replicas: 1, activationBytesPerSample: (4.6 * GiB) / 8, samples: 2, inFlight: 4 },
      { mode: 'training', bytesPerParam: 16, zeroStage: 0, overheadBytes: 0.5 * GiB },
    );
    expect(need.totalBytes).toBeCloseTo(11.3 * GiB, 0);
    expect(memoryShortfall({ id: 'cuda:1', name: 'RTX 2080 SUPER', memoryBytes: 8 * GiB }, need, 'training')).toBe(
      'cuda:1 (RTX 2080 SUPER, 8.0 GiB): needs 11.3 GiB: 6.2 GiB parameters/optimizer, ' +
        '4.6 GiB activations (4 microbatches in flight), 512 MiB overhead',
    );
  });

  it('holds no gathered layer but under ZeRO-3 over more than one replica', () => {
    const input = { params: 1e9, replicas: 4, activationBytesPerSample: 0, samples: 1, inFlight: 1 };
    const gathered = { ...input, largestLayerGatherBytes: 6e8 };
    expect(deviceMemory(gathered, training(3)).gatheredBytes).toBe(6e8);
    expect(deviceMemory(gathered, training(3)).totalBytes).toBe(4e9 + 6e8);
    expect(deviceMemory(gathered, training(2)).gatheredBytes).toBe(0);
    expect(deviceMemory({ ...gathered, replicas: 1 }, training(3)).gatheredBytes).toBe(0);
  });

  it('totals without its object what deviceMemory totals, to the last bit (the fit tests ask for the total alone)', () => {
    const settings: MemorySettings[] = [
      ...([0, 1, 2, 3] as const).map(training),
      { ...training(1), optimizerOffload: { hostGBps: {}, defaultHostGBps: 25, cpuGBps: 50 } },
      { mode: 'inference', bytesPerParam: 2, zeroStage: 0, overheadBytes: 0.3 * GiB },
    ];
    let checked = 0;
    for (const s of settings) {
      for (const replicas of [1, 3]) {
        for (const inFlight of [1, 2.25, 7]) {
          const input = {
            params: 1.37e9 / 3,
            replicas,
            activationBytesPerSample: 0.1 * GiB,
            samples: 3,
            inFlight,
            residentBytes: 0.7 * GiB,
            frozenBytes: 1e9 / 7,
            recomputeBytes: 0.3 * GiB,
            largestLayerGatherBytes: 6e8 / 7,
          };
          expect(deviceMemoryBytes(input, s)).toBe(deviceMemory(input, s).totalBytes);
          const bare = { params: 1e9 / 3, replicas, activationBytesPerSample: 1e6 / 7, samples: 5, inFlight };
          expect(deviceMemoryBytes(bare, s)).toBe(deviceMemory(bare, s).totalBytes);
          checked += 2;
        }
      }
    }
    expect(checked).toBe(72);
  });

  it('counts a served decoder’s KV cache for every sample of the step and names it, and its weights as weights', () => {
    const need = deviceMemory(
      { params: 8e9, replicas: 1, activationBytesPerSample: 1e6, samples: 2, inFlight: 1, residentBytes: 8 * GiB },
      { mode: 'inference', bytesPerParam: 2, zeroStage: 0, overheadBytes: 0.5 * GiB },
    );
    expect(need.residentBytes).toBe(8 * GiB);
    expect(need.totalBytes).toBe(16e9 + 2e6 + 8 * GiB + 0.5 * GiB);
    expect(memoryShortfall({ id: 'cuda:0', name: 'RTX 4090', memoryBytes: 24 * GiB }, need, 'inference')).toBe(
      'cuda:0 (RTX 4090, 24.0 GiB): needs 23.4 GiB: 14.9 GiB weights, 1.9 MiB activations, 8.0 GiB KV cache, 512 MiB overhead',
    );
  });
});

function layer(name: string, params: number, act: number, times: Record<string, number>): PlanLayer {
  return {
    name,
    forwardUs: times,
    backwardUs: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, 2 * v])),
    params,
    outBytesPerSample: 1e6,
    activationBytesPerSample: act,
  };
}

function problem(over: Partial<PlanProblem> = {}): PlanProblem {
  const t = { a: 100, b: 100, c: 100 };
  return {
    layers: [layer('l0', 1e8, 1e7, t), layer('l1', 2e8, 2e7, t), layer('l2', 3e8, 3e7, t), layer('l3', 4e8, 4e7, t)],
    devices: ['a', 'b', 'c'].map((id) => ({
      id,
      name: 'GPU',
      kind: 'gpu' as const,
      machine: 'm',
      memoryBytes: 80 * GiB,
      estimate: 'profiled' as const,
    })),
    links: [
      { a: 'a', b: 'b', alphaUs: 10, gbps: 10, kind: 'x' },
      { a: 'a', b: 'c', alphaUs: 10, gbps: 10, kind: 'x' },
      { a: 'b', b: 'c', alphaUs: 10, gbps: 10, kind: 'x' },
    ],
    mode: 'training',
    batch: 8,
    bytesPerParam: 16,
    zeroStage: 0,
    overheadBytes: 1e9,
    ...over,
  };
}

/** The problem's four layers in two pipeline stages, [0, cut) on a and [cut, 4) on b, four microbatches. */
function twoStages(p: PlanProblem, cut: number, schedule: '1f1b' | 'gpipe' = '1f1b'): Plan {
  return pricePlan(plannerContext(p), {
    stages: [
      { from: 0, to: cut, devices: ['a'] },
      { from: cut, to: 4, devices: ['b'] },
    ],
    microbatches: 4,
    schedule,
  });
}

describe('memory of a priced plan', () => {
  it.each([
    { name: '1F1B: stage i of p keeps p − i microbatches in flight (2, then 1)', schedule: '1f1b', inFlight: [2, 1] },
    { name: 'GPipe: every stage keeps all 4 microbatches in flight', schedule: 'gpipe', inFlight: [4, 4] },
  ] as const)('pipeline, $name: parameters, activations × samples × in flight, overhead', ({ schedule, inFlight }) => {
    const plan = twoStages(problem(), 2, schedule);
    // Stage 0: 3e8 params × 16; (1e7 + 2e7) bytes × 2 samples per microbatch; 1e9 overhead.
    expect(plan.stages[0]?.memoryBytes.a).toBe(16 * 3e8 + 3e7 * 2 * inFlight[0] + 1e9);
    // Stage 1: 7e8 params × 16; 7e7 bytes × 2 samples.
    expect(plan.stages[1]?.memoryBytes.b).toBe(16 * 7e8 + 7e7 * 2 * inFlight[1] + 1e9);
  });

  it('data parallel with ZeRO-2: shards by replicas, splits the samples', () => {
    const ctx = plannerContext(problem({ zeroStage: 2 }));
    const plan = pricePlan(ctx, {
      stages: [{ from: 0, to: 4, devices: ['a', 'b'] }],
      microbatches: 2,
      schedule: '1f1b',
    });
    // 1e9 params: 2Ψ + 14Ψ/2; 4 samples per microbatch split 2 + 2; one in flight.
    const expected = 2e9 + 7e9 + 1e8 * 2 * 1 + 1e9;
    expect(plan.stages[0]?.memoryBytes).toEqual({ a: expected, b: expected });
    expect(plan.kind).toBe('data-parallel');
  });

  it('data parallel with ZeRO-3: the shards, and the largest layer gathered with its gradients and the next one prefetched', () => {
    const p3 = problem({ zeroStage: 3 });
    const ctx = plannerContext(p3);
    const plan = pricePlan(ctx, {
      stages: [{ from: 0, to: 4, devices: ['a', 'b'] }],
      microbatches: 2,
      schedule: '1f1b',
    });
    // 1e9 params: 16Ψ/2 = 8e9; l3's 4e8 params gathered: 2 bytes of weights + 2 of gradients, and
    // 2 of the next layer's weights = 2.4e9; 4 samples per microbatch split 2 + 2.
    const expected = 8e9 + 6 * 4e8 + 1e8 * 2 * 1 + 1e9;
    expect(plan.stages[0]?.memoryBytes).toEqual({ a: expected, b: expected });
    p3.devices.forEach((d) => (d.memoryBytes = expected - 1));
    const short = pricePlan(plannerContext(p3), {
      stages: [{ from: 0, to: 4, devices: ['a', 'b'] }],
      microbatches: 2,
      schedule: '1f1b',
    });
    expect(short.reasons[0]).toMatch(/7\.5 GiB parameters\/optimizer, 2\.2 GiB gathered layer \(ZeRO-3\), /);
  });

  it('is infeasible with the reason when a stage does not fit', () => {
    const p = problem();
    p.devices[1]!.memoryBytes = 8 * GiB;
    const plan = twoStages(p, 2);
    expect(plan.feasible).toBe(false);
    expect(plan.reasons).toEqual([
      expect.stringMatching(/^b \(GPU, 8\.0 GiB\): needs 1\d\.\d GiB: .*\(1 microbatch in flight\)/),
    ]);
  });
});

describe('step time of a priced plan', () => {
  it('Σ t + 2·Σ c + (m − 1)·max(t, c) for a training pipeline', () => {
    const plan = twoStages(problem(), 1);
    // 2 samples per microbatch; 300 µs per layer and sample (forward + backward).
    const t0 = 2 * 300;
    const t1 = 2 * 900;
    const cut = 10 + (2 * 1e6) / (10 * 1e3);
    expect(plan.stages.map((s) => s.timeUs)).toEqual([t0, t1]);
    expect(plan.stepUs).toBeCloseTo(t0 + t1 + 2 * cut + 3 * Math.max(t1, cut), 9);
    expect(plan.bottleneckStage).toBe(1);
    expect(plan.throughputSamplesPerS).toBeCloseTo(8 / (plan.stepUs * 1e-6), 6);
  });
});
