/** Planning to serve a decoder: weight formats, their refusals, serving defaults and the objective's ranking. */
import { describe, expect, it } from 'vitest';
import { WEIGHT_FORMATS, weightFormatRefusal } from '../../../../src-main/core/workload/generation.js';
import { planWorkload, type PlanRequest } from '../../../../src-main/services/plan/plan-service.js';
import { defaultBatch } from '../../../../src-main/services/plan/serving-plan.js';
import { trainedStore } from '../service-stores.js';
import { servingLaunchOf } from '../../../helpers/plan-exports.js';

const llama8b: PlanRequest = {
  workload: 'llama-3.1-8b',
  devices: 'none',
  virtual: ['RTX 4090'],
  mode: 'inference',
  batch: 1,
};

describe('weight formats', () => {
  it('hold int4 as AWQ/GPTQ groups of 128 (64 bytes, an fp16 scale and zero) and fp8 in one byte', () => {
    expect(WEIGHT_FORMATS.int4).toBe(68 / 128);
    expect(WEIGHT_FORMATS.fp8).toBe(1);
  });

  it('are taken when the dtype itself or narrower, refused in one line naming those that work otherwise', () => {
    expect(weightFormatRefusal('q4_k', 'bf16', 2)).toBeNull();
    expect(weightFormatRefusal('fp16', 'fp32', 4)).toBeNull();
    expect(weightFormatRefusal('bf16', 'bf16', 2)).toBeNull();
    expect(weightFormatRefusal('bf16', 'fp16', 2)).toBe(
      '--weights bf16: the model computes in fp16, which takes weights as fp16, int8, fp8, q8_0, int4, q4_k, q4_0',
    );
    expect(weightFormatRefusal('fp32', 'bf16', 2)).toMatch(/^--weights fp32: the model computes in bf16, which takes/);
  });
});

describe('planning with --weights', () => {
  it('sets the served bytes per parameter and carries the format in the problem', () => {
    const db = trainedStore();
    const int4 = planWorkload(db, { ...llama8b, weights: 'int4' });
    expect(int4.problem.bytesPerParam).toBe(68 / 128);
    expect(int4.problem.weights).toBe('int4');
    expect(int4.warnings).toContain('llama-3.1-8b: weights held as int4, 0.53125 bytes per parameter');
    const plain = planWorkload(db, llama8b);
    expect(plain.problem.bytesPerParam).toBe(2);
    expect(plain.problem.weights).toBeUndefined();
    // A quarter of the bytes: the weights take less memory and a decode step reads less.
    const need = (r: typeof plain): number => r.result.plans[0]?.memory[0]?.neededBytes ?? 0;
    expect(need(int4)).toBeLessThan(need(plain) / 2);
    expect(int4.serving?.[0]?.decodeStepUs).toBeLessThan((plain.serving?.[0]?.decodeStepUs ?? 0) / 2);
  });

  it('refuses fp8 on GPUs without fp8 units, naming them and what would work', () => {
    const db = trainedStore();
    expect(() =>
      planWorkload(db, { ...llama8b, virtual: ['A100 SXM4 80GB', 'V100 SXM2 32GB'], weights: 'fp8' }),
    ).toThrow(
      '--weights fp8 needs fp8 units (Ada, Hopper, Blackwell), which NVIDIA A100 SXM4 80GB (Ampere), NVIDIA Tesla V100 SXM2 32GB (Volta) lack; give --weights int8, q8_0, int4, q4_k, q4_0 instead, or plan on an L40S, RTX 4090 or H100',
    );
    const ada = planWorkload(db, { ...llama8b, weights: 'fp8' });
    expect(ada.problem.bytesPerParam).toBe(1);
  });

  it('refuses a format wider than the dtype, and weights when training, each in one line', () => {
    const db = trainedStore();
    expect(() => planWorkload(db, { ...llama8b, weights: 'fp32' })).toThrow(
      /^--weights fp32: the model computes in bf16, which takes weights as bf16, int8, fp8, q8_0, int4, q4_k, q4_0$/,
    );
    expect(() => planWorkload(db, { ...llama8b, dtype: 'fp16', weights: 'bf16' })).toThrow(
      /^--weights bf16: the model computes in fp16/,
    );
    expect(() => planWorkload(db, { ...llama8b, mode: 'training', seq: 128, weights: 'q4_k' })).toThrow(
      '--weights q4_k is for serving (--mode inference); training keeps fp32 master weights: leave --weights out, or give --dtype',
    );
  });
});

describe('serving defaults', () => {
  it('serve one sequence unless a batch is given; training keeps 8', () => {
    expect(defaultBatch('inference')).toBe(1);
    expect(defaultBatch('training')).toBe(8);
  });

  it('plan a 1024-token prompt and 256 output tokens, the KV cache holding both', () => {
    const r = planWorkload(trainedStore(), llama8b);
    expect(r.served).toEqual({ prompt: 1024, tokens: 256, objective: 'latency', modelContext: 131072 });
    expect(r.warnings.some((w) => w.includes('KV cache of 1280 tokens per sequence (prompt 1024 + 256 output)'))).toBe(
      true,
    );
    const s = r.serving?.[0];
    // One request: its first token, then 255 decode steps around the mean context.
    expect((s?.requestUs ?? 0) / ((s?.ttftUs ?? 0) + 255 * (s?.decodeStepUs ?? 0))).toBeCloseTo(1, 2);
    expect(s?.maxBatch).toBeGreaterThan(1);
    // The kernel roofline without an engine: the same identity over all 256 tokens.
    const ideal = planWorkload(trainedStore(), { ...llama8b, engine: 'ideal' }).serving?.[0];
    expect(ideal?.requestUs).toBeCloseTo((ideal?.ttftUs ?? 0) + 256 * (ideal?.decodeStepUs ?? 0), 3);
  });

  it('take --seq as the prompt, leave room for the output under a short context, and refuse what does not fit', () => {
    const db = trainedStore();
    expect(planWorkload(db, { ...llama8b, seq: 2048, tokens: 64 }).served).toMatchObject({ prompt: 2048, tokens: 64 });
    // GPT-2 reads 1024 tokens: a 768-token prompt leaves room for 256 output tokens.
    const gpt2 = planWorkload(db, { ...llama8b, workload: 'gpt2-small' });
    expect(gpt2.served).toMatchObject({ prompt: 768, tokens: 256 });
    expect(() => planWorkload(db, { ...llama8b, workload: 'gpt2-small', prompt: 1000 })).toThrow(
      "gpt2-small: a prompt of 1000 and 256 output tokens make 1256, longer than the model's context of 1024; give --prompt 768 or less, or fewer --tokens",
    );
    const bert = planWorkload(db, { ...llama8b, workload: 'bert-base', tokens: 64 });
    expect(bert.served).toBeNull();
    expect(bert.warnings).toContain(
      '--tokens: for serving a decoder (a catalog LLM or GGUF with --mode inference); ignored',
    );
    // A training plan says which serving options it does not read, instead of dropping them silently.
    const training = planWorkload(db, {
      ...llama8b,
      mode: 'training',
      engine: 'vllm',
      kvCache: 'fp8',
      load: { kind: 'rate', perSecond: 5 },
    });
    expect(training.warnings).toContain(
      '--engine, --kv-cache, --rate: for serving a decoder (a catalog LLM or GGUF with --mode inference); ignored',
    );
  });

  it('refuses an fp8 KV cache on the kernel roofline, which holds it in the model dtype', () => {
    expect(() => planWorkload(trainedStore(), { ...llama8b, engine: 'ideal', kvCache: 'fp8' })).toThrow(
      /--kv-cache fp8 is priced by an engine's rules; the kernel roofline \(--engine ideal\) holds the KV cache/,
    );
  });
});

describe('the serving objective', () => {
  // The issue's case: Llama 3.1 70B on four datasheet H100s, eight sequences of 1024 + 256 tokens.
  const llama70b: PlanRequest = {
    workload: 'llama-3.1-70b',
    devices: 'none',
    virtual: ['4xH100 SXM5'],
    mode: 'inference',
    batch: 8,
  };
  const layout = (p: { stages: { tp?: number; devices: string[] }[] }): string =>
    p.stages.map((s) => `TP${s.tp ?? 1}x${s.devices.length / (s.tp ?? 1)}`).join('|');

  it('ranks TP4 above TP2xDP2 for latency (a whole request), though TP2xDP2 has the faster prefill', () => {
    const r = planWorkload(trainedStore(), llama70b);
    const layouts = r.result.plans.map(layout);
    const tp4 = layouts.indexOf('TP4x1');
    const tp2dp2 = layouts.indexOf('TP2x2');
    expect(tp4).toBe(0);
    expect(tp2dp2).toBeGreaterThan(tp4);
    const [a, b] = [r.serving?.[tp4], r.serving?.[tp2dp2]];
    expect(a?.requestUs).toBeLessThan(b?.requestUs ?? 0);
    expect(servingLaunchOf(r.exports).command).toContain('--tensor-parallel-size 4');
    // Each layout once, whatever its microbatch count.
    expect(new Set(layouts).size).toBe(layouts.length);
  });

  it("exports SGLang's launch with the memory share it was priced with at its TP degree (0.85 at TP4)", () => {
    const r = planWorkload(trainedStore(), { ...llama70b, engine: 'sglang', layout: 'tp=4' });
    expect(servingLaunchOf(r.exports).command).toContain('--mem-fraction-static 0.85');
  });

  it('ranks by tokens per second at the most concurrent sequences for throughput', () => {
    const r = planWorkload(trainedStore(), { ...llama70b, objective: 'throughput' });
    const there = (r.serving ?? []).map((s) => s.maxBatchTokensPerSecond);
    const feasible = r.result.plans.filter((p) => p.feasible).length;
    expect(there.slice(0, feasible)).toEqual([...there.slice(0, feasible)].sort((x, y) => y - x));
    expect(r.served?.objective).toBe('throughput');
  });

  it('searches one sequence per device for throughput when the batch is smaller, so replicas are candidates', () => {
    const r = planWorkload(trainedStore(), { ...llama70b, batch: 1, objective: 'throughput' });
    expect(r.problem.batch).toBe(4);
    expect(r.warnings.some((w) => w.startsWith('--objective throughput: planned at batch 4'))).toBe(true);
    expect(r.result.plans.map(layout)).toContain('TP2x2');
  });
});
