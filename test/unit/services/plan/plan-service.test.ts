/** Planning straight through the service: the devices, the offload policy, the ranking and the view. */
import { describe, expect, it } from 'vitest';
import type { Link } from '../../../../src-main/core/domain/devices.js';
import { offloadPolicy, offloadSettings, rankPlans } from '../../../../src-main/core/planner/search/plan-ranking.js';
import type { Plan, PlanDevice, PlanProblem } from '../../../../src-main/core/planner/types.js';
import { planSummary, planWorkload, type PlanRequest } from '../../../../src-main/services/plan/plan-service.js';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import { preferredGroup } from '../../../../src-main/services/predict/profiled-device.js';
import { createSeededRun, seededDb } from '../../../helpers/seeded-store.js';
import { device as cpuFeatures, measurementOf, syntheticSamples } from '../../../helpers/synthetic-samples.js';
import { trainedStore } from '../service-stores.js';
import { servingLaunchOf, trainingExports } from '../../../helpers/plan-exports.js';
import { TRAINING_DEFAULTS } from '../../../helpers/plan-assumptions.js';
import { NO_STACK } from '../../../../src-main/core/planner/stacks/stacks.js';

const bert: PlanRequest = { workload: 'bert-base', devices: 'all', mode: 'training', batch: 8, seq: 128 };

describe('planWorkload', () => {
  it('ranks this machine with a datasheet GPU, offloaded plans among them, and simulates each listed plan', () => {
    const r = planWorkload(trainedStore(), { ...bert, virtual: ['RTX 4090'], topN: 4 });
    expect(r.workload).toBe('bert-base');
    expect(r.result.plans.length).toBeLessThanOrEqual(4);
    const feasible = r.result.plans.filter((p) => p.feasible);
    expect(feasible.length).toBeGreaterThan(0);
    expect(r.result.plans.slice(0, feasible.length)).toEqual(feasible);
    expect(feasible.map((p) => p.stepUs)).toEqual([...feasible.map((p) => p.stepUs)].sort((a, b) => a - b));
    expect(r.timelines).toHaveLength(r.result.plans.length);
    expect(r.timeline).toEqual(r.timelines[0]);
    expect(r.exports).not.toBeNull();
    expect(r.warnings.some((w) => /RTX 4090 is from its datasheet, not measured/.test(w))).toBe(true);
    const offloaded = planWorkload(trainedStore(), { ...bert, virtual: ['RTX 4090'], offload: 'yes' });
    expect(offloaded.result.plans.length).toBeGreaterThan(0);
    expect(offloaded.result.plans.every((p) => p.optimizerOffload === true)).toBe(true);
  });

  it('searches without offload for inference or without a GPU', () => {
    const inference = planWorkload(trainedStore(), { ...bert, mode: 'inference', virtual: ['RTX 4090'] });
    expect(inference.result.plans.some((p) => p.optimizerOffload)).toBe(false);
    const cpuOnly = planWorkload(trainedStore(), { ...bert, offload: 'yes' });
    expect(cpuOnly.result.plans.some((p) => p.optimizerOffload)).toBe(false);
  });

  it('rejects an offload whose host cannot hold the optimizer state, stating both figures', () => {
    // llama-13b: 12 bytes x 13e9 parameters = 145 GiB of host memory; this machine has 64 GiB.
    const llama: PlanRequest = { workload: 'llama-13b', devices: 'all', mode: 'training', batch: 1, seq: 128 };
    const r = planWorkload(trainedStore(), { ...llama, virtual: ['H100 SXM5'], offload: 'yes', recompute: 'none' });
    expect(r.result.plans.filter((p) => p.feasible)).toEqual([]);
    expect(r.exports).toBeNull();
    expect(r.result.rejected.map((x) => x.reason).join('\n')).toMatch(
      /host memory of lab-ws-01: .* need 14\d GiB.*; the host has 64\.0 GiB \(probed\)/,
    );
    // Datasheet GPUs alone sit on a machine nobody probed: its memory is assumed, and said so.
    const alone = planWorkload(trainedStore(), {
      ...llama,
      devices: 'none',
      virtual: ['H100 SXM5'],
      offload: 'yes',
      recompute: 'none',
    });
    expect(alone.warnings.join('\n')).toMatch(/host memory of virtual is assumed, 158 GiB/);
    expect(alone.result.plans.some((p) => p.feasible)).toBe(true);
  });

  /** A served decoder no RTX 4090 holds in bf16. */
  const llamaOn4090: PlanRequest = {
    workload: 'llama-13b',
    devices: 'none',
    virtual: ['RTX 4090'],
    mode: 'inference',
    batch: 4,
    seq: 512,
  };

  it('suggests verified changes when nothing fits', () => {
    const r = planWorkload(trainedStore(), llamaOn4090);
    expect(r.result.plans.some((p) => p.feasible)).toBe(false);
    expect(r.suggestions.length).toBeGreaterThan(0);
    for (const s of r.suggestions) expect(s.option).not.toBe('');
    // The 4-bit suggestion and the more-GPUs ones, each verified by the same search: more of the GPU
    // listed is its count raised, in the name typed; the other kind is a PCIe card as the 4090 is.
    expect(r.suggestions.map((s) => s.change).join('\n')).toMatch(/4-bit weights/);
    const options = r.suggestions.map((s) => s.option);
    expect(options).toContain('--virtual "2xRTX 4090"');
    expect(options.join('\n')).not.toMatch(/GB200|B200|SXM/);
    expect(planSummary(r).suggestions).toEqual(r.suggestions);
    const fits = planWorkload(trainedStore(), { ...bert, virtual: ['RTX 4090'] });
    expect(fits.suggestions).toEqual([]);
  });

  it("gives a served decoder's suggestions the serving table's figures, as the changed request's own best plan has them", () => {
    const r = planWorkload(trainedStore(), llamaOn4090);
    const fourBit = r.suggestions.find((s) => s.option === '--weights q4_k');
    expect(fourBit?.plan).not.toHaveProperty('throughputSamplesPerS');
    expect(fourBit?.plan).not.toHaveProperty('stepUs');
    // The same plan and figures the changed request answers first (ranked by its objective).
    const changed = planWorkload(trainedStore(), { ...llamaOn4090, weights: 'q4_k', topN: 1 });
    const [first] = changed.serving ?? [];
    expect(first?.ttftUs).toBeGreaterThan(0);
    expect(first?.band).toBeDefined();
    expect(fourBit?.plan).toEqual({
      kind: changed.result.plans[0]?.kind,
      serving: {
        ttftUs: first?.ttftUs,
        decodeStepUs: first?.decodeStepUs,
        tokensPerSecondPerSequence: first?.tokensPerSecondPerSequence,
        tokensPerSecond: first?.tokensPerSecond,
        requestUs: first?.requestUs,
        band: first?.band,
      },
    });
  });

  it('builds the workload in the dtype asked (--dtype), not the catalog default', () => {
    const req: PlanRequest = {
      workload: 'gpt2-small',
      devices: 'none',
      virtual: ['H100 SXM5'],
      mode: 'inference',
      batch: 8,
      seq: 256,
    };
    const fp32 = planWorkload(trainedStore(), { ...req, dtype: 'fp32' });
    const bf16 = planWorkload(trainedStore(), { ...req, dtype: 'bf16' });
    expect(fp32.problem.bytesPerParam).toBe(4);
    expect(bf16.problem.bytesPerParam).toBe(2);
    const best = (r: typeof fp32): number => r.result.plans.find((p) => p.feasible)?.stepUs ?? Infinity;
    expect(best(bf16)).toBeLessThan(best(fp32) / 2);
  });

  it('groups repeated warnings with a count and says what was measured', () => {
    const r = planWorkload(trainedStore(), { ...bert, virtual: ['8xH100 SXM5', '2 x 4090'], topN: 2 });
    const ds = r.warnings.filter((w) => /from its datasheet, not measured/.test(w));
    expect(ds).toHaveLength(2);
    expect(ds[0]).toMatch(/^8x: NVIDIA H100 SXM5 80GB is from its datasheet, not measured/);
    expect(ds[1]).toMatch(/^2x: NVIDIA GeForce RTX 4090 is from its datasheet/);
    expect(r.warnings.join('\n')).not.toMatch(/measured within/);
    expect(new Set(r.warnings).size).toBe(r.warnings.length);
  });

  it('says what is missing: a machine, a device, a predictor', () => {
    const db = trainedStore();
    expect(() => planWorkload(db, { ...bert, devices: ' , ' })).toThrow(
      '--devices is empty; name devices like cpu,cuda:0 or all',
    );
    expect(() => planWorkload(db, { ...bert, machine: 'box' })).toThrow(
      'no machine "box" in the store (see pipedejavu machines)',
    );
    expect(() => planWorkload(db, { ...bert, devices: 'none' })).toThrow(
      'no devices to plan for: name some with --devices, --machine or --virtual',
    );
    expect(() => planWorkload(db, { ...bert, devices: 'cuda:0' })).toThrow(/device "cuda:0" was never profiled/);
    expect(() => planWorkload(seededDb(), bert)).toThrow('no trained predictor yet: run `pipedejavu train` first');
  });
});

describe('planSummary', () => {
  it('is the view of a plan: the problem, the ranked plans, the timelines and the exports', () => {
    const r = planWorkload(trainedStore(), { ...bert, topN: 2 });
    expect(planSummary(r)).toEqual({
      workload: 'bert-base',
      assumptions: {
        ...TRAINING_DEFAULTS,
        sequence: { value: 128, asked: true },
        modelContext: 512,
        batch: { value: 8, asked: true },
        dtype: 'fp32',
        weights: 'fp32',
        trainingStack: { name: 'any', title: NO_STACK.title, assumes: NO_STACK.assumes },
      },
      mode: 'training',
      batch: 8,
      devices: r.problem.devices,
      plans: r.result.plans,
      rejected: r.result.rejected,
      searchMs: r.result.searchMs,
      exports: r.exports,
      exportsOf: 'recommended',
      timeline: r.timeline,
      timelines: r.timelines,
      serving: null,
      served: null,
      engine: null,
      suggestions: [],
      layout: null,
      finetune: null,
      stepBands: r.stepBands,
      warnings: r.warnings,
    });
  });
});

const device = (id: string, kind: 'cpu' | 'gpu', memoryBytes = 2 ** 30): PlanDevice => ({
  id,
  name: id,
  kind,
  machine: 'm',
  memoryBytes,
  estimate: 'profiled',
});

function plan(stepUs: number, feasible: boolean): Plan {
  return {
    kind: 'single',
    stages: [],
    microbatches: 1,
    schedule: '1f1b',
    stepUs,
    throughputSamplesPerS: 0,
    bubbleFraction: 0,
    commFraction: 0,
    bottleneckStage: 0,
    memory: [],
    feasible,
    reasons: [],
  };
}

describe('the ranking planWorkload uses (core/planner/plan-ranking)', () => {
  const problem = { devices: [device('m/cpu', 'cpu'), device('m/cuda:0', 'gpu')] } as PlanProblem;
  const offloaded: PlanProblem = { ...problem, optimizerOffload: { hostGBps: {}, defaultHostGBps: 12, cpuGBps: 10 } };

  it('offloads only when training with a GPU, as asked', () => {
    expect(offloadPolicy('training', problem.devices)).toBe('auto');
    expect(offloadPolicy('training', problem.devices, 'yes')).toBe('yes');
    expect(offloadPolicy('inference', problem.devices, 'yes')).toBe('no');
    expect(offloadPolicy('training', [device('m/cpu', 'cpu')], 'yes')).toBe('no');
  });

  it('ranks plans of both searches together, fitting ones first by step time, and marks the offloaded', () => {
    const ranked = rankPlans(
      [
        { problem, result: { plans: [plan(30, true), plan(5, false)], rejected: [], searchMs: 1 } },
        {
          problem: offloaded,
          result: { plans: [plan(20, true)], rejected: [{ kind: 'single', reason: 'too big' }], searchMs: 2 },
        },
      ],
      2,
    );
    expect(ranked.result.plans.map((p) => [p.stepUs, p.optimizerOffload ?? false])).toEqual([
      [20, true],
      [30, false],
    ]);
    expect(ranked.listed.map((t) => t.problem)).toEqual([offloaded, problem]);
    expect(ranked.best?.plan.stepUs).toBe(20);
    expect(ranked.result.rejected).toEqual([{ kind: 'single', reason: 'with optimizer offload: too big' }]);
    expect(ranked.result.searchMs).toBe(3);
    expect(rankPlans([{ problem, result: { plans: [plan(5, false)], rejected: [], searchMs: 0 } }], 5).best).toBeNull();
  });

  it('sets the links an offload leans on', () => {
    const warnings: string[] = [];
    const links: Link[] = [
      { a: 'cpu', b: 'cuda:0', kind: 'PCIE_HOST', nvlinkCount: null, bandwidthGBps: 25, source: 'spec' },
    ];
    expect(offloadSettings(problem.devices, [{ machine: 'm', links }], null, warnings)).toEqual({
      hostGBps: { 'm/cuda:0': 25 },
      defaultHostGBps: 12,
      cpuGBps: 10,
    });
    expect(warnings).toEqual([
      'optimizer offload assumes 10 GB/s of CPU memory bandwidth (no profiled CPU in the plan)',
    ]);
    expect(offloadSettings(problem.devices, [], 40, warnings).cpuGBps).toBe(40);
    expect(warnings).toHaveLength(1);
  });
});

describe('which measured backend stands for a device', () => {
  /** The trained store plus a smaller PyTorch profile of the same CPU. */
  function withTorchCpu(): ReturnType<typeof trainedStore> {
    const db = trainedStore();
    const repo = new ProfileRepo(db);
    const run = createSeededRun(repo, { threads: 16, executionProvider: 'torch-cpu', runtimeVersion: 'torch 2.11.0' });
    const d = cpuFeatures('torch16', 500, 50, 16);
    const ms = syntheticSamples([d], 0.01, 16)
      .slice(0, 40)
      .map((s) => measurementOf(s, { runId: run.id, deviceKey: 'cpu', executionProvider: 'torch-cpu', threads: 16 }));
    repo.insertMeasurements(run.id, ms);
    repo.finishRun(run.id, 'complete', null);
    return db;
  }

  it('plans training on the PyTorch measurements and inference on ONNX Runtime’s', () => {
    const db = withTorchCpu();
    const training = planWorkload(db, { ...bert, devices: 'cpu' });
    expect(training.problem.devices.map((d) => d.name)).toEqual([expect.stringMatching(/ \(PyTorch\)$/)]);
    const inference = planWorkload(db, { ...bert, devices: 'cpu', mode: 'inference' });
    expect(inference.problem.devices.map((d) => d.name)).toEqual([expect.not.stringMatching(/PyTorch/)]);
  });

  it('prefers the mode’s backend, then the group with the most measurements', () => {
    const groups = [
      { executionProvider: 'cpu', measurements: 10 },
      { executionProvider: 'torch-cpu', measurements: 5 },
      { executionProvider: 'cpu', measurements: 30 },
    ];
    expect(preferredGroup(groups, 'inference')).toBe(groups[2]);
    expect(preferredGroup(groups, 'training')).toBe(groups[1]);
    expect(
      preferredGroup(
        groups.filter((g) => g.executionProvider === 'cpu'),
        'training',
      ),
    ).toBe(groups[2]);
    expect(preferredGroup([], 'training')).toBeUndefined();
  });
});

describe('serving a decoder', () => {
  it('holds its KV cache in every stage’s memory, and says how much', () => {
    const db = trainedStore();
    const llama = { workload: 'llama-3.1-8b', devices: 'none', virtual: ['RTX 4090'], mode: 'inference' as const };
    const long = planWorkload(db, { ...llama, batch: 8, seq: 8192, tokens: 256 });
    expect(long.warnings).toContain(
      'llama-3.1-8b: inference memory holds the KV cache of 8448 tokens per sequence (prompt 8192 + 256 output), 8.3 GiB at batch 8 (2 x 32 layers x 8 KV heads x 128 x bf16)',
    );
    // 15.0 GiB of bf16 weights and 8 GiB of cache do not fit a 24 GB card; with 1k tokens they do.
    expect(long.result.plans.some((p) => p.feasible)).toBe(false);
    const short = planWorkload(db, { ...llama, batch: 8, seq: 1024 });
    expect(short.result.plans.some((p) => p.feasible)).toBe(true);
    const training = planWorkload(db, { ...llama, mode: 'training', batch: 1, seq: 128 });
    expect(training.warnings.some((w) => w.includes('KV cache'))).toBe(false);
  });
});

describe('serving figures in plans', () => {
  it('gives every listed plan of a served decoder its time to first token, tokens per second and longest context', () => {
    const db = trainedStore();
    const request = {
      workload: 'llama-3.1-8b',
      devices: 'none',
      virtual: ['RTX 4090', 'RTX 4090'],
      mode: 'inference' as const,
      batch: 4,
      seq: 4096,
    };
    // The kernel roofline (--engine ideal): the first token is the plan's prefill step.
    const ideal = planWorkload(db, { ...request, engine: 'ideal' });
    expect(ideal.engine).toMatchObject({ name: 'ideal' });
    expect(ideal.serving).toHaveLength(ideal.result.plans.length);
    for (const [i, s] of (ideal.serving ?? []).entries()) {
      expect(s.ttftUs).toBe(ideal.result.plans[i]?.stepUs);
      expect(s.tokensPerSecond).toBeGreaterThan(0);
      if (ideal.result.plans[i]?.feasible) expect(s.maxContext).toBeGreaterThanOrEqual(4096);
    }
    // The engine (auto: vLLM for bf16 weights) prices the same plans its own way, slower than the roofline.
    const r = planWorkload(db, request);
    expect(r.engine).toMatchObject({ name: 'vllm', title: 'vLLM' });
    const best = r.serving?.[0];
    expect(best?.engine?.name).toBe('vllm');
    expect(best?.decodeStepUs).toBeGreaterThan(ideal.serving?.[0]?.decodeStepUs ?? Infinity);
    for (const s of r.serving ?? []) if (s.engineRefusal === undefined) expect(s.tokensPerSecond).toBeGreaterThan(0);
    expect(planWorkload(db, { ...bert, mode: 'inference' }).serving).toBeNull();
    expect(
      planWorkload(db, { workload: 'llama-3.1-8b', devices: 'cpu', mode: 'training', batch: 1, seq: 64 }).serving,
    ).toBeNull();
  });
});

describe('activation recomputation', () => {
  const gpt2 = {
    workload: 'gpt2-medium',
    devices: 'none',
    virtual: ['RTX 2080 SUPER'],
    mode: 'training' as const,
    batch: 1,
    seq: 1024,
    offload: 'no' as const,
  };

  it('is searched when training: a model that does not fit an 8 GB card fits with full recomputation', () => {
    const db = trainedStore();
    const auto = planWorkload(db, gpt2);
    const best = auto.result.plans.find((p) => p.feasible);
    expect(best?.recompute).toBe('full');
    expect(planWorkload(db, { ...gpt2, recompute: 'none' }).result.plans.some((p) => p.feasible)).toBe(false);
    // Fused attention keeps no s² scores: selective recomputation (which drops them) holds what none
    // does; full holds less.
    const need = (r: 'none' | 'selective' | 'full'): number =>
      planWorkload(db, { ...gpt2, recompute: r }).result.plans[0]?.memory[0]?.neededBytes ?? 0;
    expect(need('selective')).toBe(need('none'));
    expect(need('full')).toBeLessThan(need('selective'));
    expect(trainingExports(auto.exports).megatron.args).toEqual(
      expect.arrayContaining(['--recompute-granularity', 'full', '--recompute-method', 'uniform']),
    );
    expect(trainingExports(auto.exports).deepspeed.config.activation_checkpointing).toBeDefined();
  });

  it('is not searched for inference', () => {
    const r = planWorkload(trainedStore(), { ...bert, mode: 'inference' });
    expect(r.result.plans.some((p) => p.recompute)).toBe(false);
  });
});

describe('precision', () => {
  it('says when a bf16 workload is predicted on a device that measured no bf16 (the CPU here)', () => {
    const r = planWorkload(trainedStore(), {
      workload: 'llama-3.1-8b',
      devices: 'all',
      mode: 'inference',
      batch: 1,
      seq: 128,
    });
    expect(
      r.warnings.some((w) =>
        /\/cpu: no kernel was measured in bf16 on it; its bf16 times are transferred from the fp32 peak$/.test(w),
      ),
    ).toBe(true);
    const fp32 = planWorkload(trainedStore(), bert);
    expect(fp32.warnings.some((w) => /transferred from the fp32 peak/.test(w))).toBe(false);
  });
});

describe('mixture of experts', () => {
  it('says in one line when no device holds one block with its experts', () => {
    const db = trainedStore();
    const mixtral = { workload: 'mixtral-8x7b', devices: 'none', batch: 1, seq: 128 };
    expect(() => planWorkload(db, { ...mixtral, virtual: ['RTX 2080 SUPER'], mode: 'training' })).toThrow(
      /^mixtral-8x7b: one block with its experts \(1\.41B expert parameters\) needs 22\.1 GiB per device to train; the largest device in the plan has 7\.0 GiB$/,
    );
    // Two of them do not hold a block spread over both (expert parallelism); four do, so the search runs.
    const cards = (n: number): string[] => Array.from({ length: n }, () => 'RTX 2080 SUPER');
    expect(() => planWorkload(db, { ...mixtral, virtual: cards(2), mode: 'training' })).toThrow(
      /needs 11\.3 GiB per device spread over 2 devices \(expert parallelism\) to train; the largest device in the plan has 7\.0 GiB$/,
    );
    expect(planWorkload(db, { ...mixtral, virtual: cards(4), mode: 'training' }).result.plans.length).toBeGreaterThan(
      0,
    );
    // One H100 holds a block (not the whole model): plans are made, and say why they do not fit.
    const h100 = planWorkload(db, { ...mixtral, virtual: ['H100 SXM'], mode: 'inference' });
    expect(h100.result.plans.some((p) => p.feasible)).toBe(false);
  });

  it('spreads the experts over a tensor-parallel group (expert parallelism) and exports it', () => {
    const db = trainedStore();
    const r = planWorkload(db, {
      workload: 'mixtral-8x7b',
      devices: 'none',
      batch: 1,
      seq: 128,
      virtual: ['H100 SXM', 'H100 SXM', 'H100 SXM', 'H100 SXM'],
      mode: 'inference',
    });
    const best = r.result.plans.find((p) => p.feasible);
    expect(best?.stages.some((s) => (s.tp ?? 1) > 1)).toBe(true);
    const block = r.problem.layers.find((l) => l.name === 'block.0');
    // Attention's all-reduce and the two all-to-alls of top-2 routing, each way.
    expect(block?.tensor).toEqual({ divides: [32, 8, 8], forwardAllReduces: 3, backwardAllReduces: 3, experts: 8 });
    expect(servingLaunchOf(r.exports).args).toContain('--enable-expert-parallel');
  });
});
