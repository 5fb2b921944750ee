/** The engine a served decoder is planned for changes its figures, its memory check and its launch line. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { planWorkload, priceLayout, type PlanRequest } from '../../../../src-main/services/plan/plan-service.js';

const db = openDatabase(':memory:');
const request: PlanRequest = {
  workload: 'llama-3.1-8b',
  devices: 'none',
  virtual: ['H100 SXM5'],
  mode: 'inference',
  batch: 8,
  prompt: 1024,
  tokens: 128,
};

describe('plan --engine', () => {
  const engines = ['vllm', 'tensorrt-llm', 'sglang', 'llama.cpp', 'transformers', 'tgi', 'exllamav2'] as const;

  it.each(engines)('%s prices the plan with its own rules and writes its own launch line', (engine) => {
    const r = planWorkload(db, { ...request, engine, ...(engine === 'exllamav2' ? { weights: 'int4' as const } : {}) });
    expect(r.engine?.name).toBe(engine);
    expect(r.serving?.[0]?.engine?.name).toBe(engine);
    expect(r.exports?.kind).toBe('serving');
    if (r.exports?.kind === 'serving') expect(r.exports.launch.engine).toBe(engine);
  });

  it('gives each engine its own numbers, and the kernel roofline (ideal) the fastest decode', () => {
    const decode = Object.fromEntries(
      (['ideal', 'vllm', 'tensorrt-llm', 'transformers'] as const).map((engine) => [
        engine,
        planWorkload(db, { ...request, engine }).serving?.[0]?.decodeStepUs ?? NaN,
      ]),
    );
    expect(new Set(Object.values(decode)).size).toBe(4);
    // Eager PyTorch launches every op from Python: far slower a step than a compiled engine.
    expect(decode.transformers).toBeGreaterThan(2 * (decode['tensorrt-llm'] ?? 0));
    expect(decode.ideal).toBeLessThan(Math.min(decode.vllm ?? 0, decode['tensorrt-llm'] ?? 0));
  });

  it('picks llama.cpp for GGUF block formats and vLLM otherwise (auto), and refuses a format the engine cannot load', () => {
    expect(planWorkload(db, { ...request, weights: 'q4_k' }).engine?.name).toBe('llama.cpp');
    expect(planWorkload(db, { ...request, weights: 'int4' }).engine?.name).toBe('vllm');
    expect(() => planWorkload(db, { ...request, engine: 'tgi', weights: 'q4_k' })).toThrow(
      /^--engine tgi: Text Generation Inference does not load q4_k weights; vllm \(vLLM\), llama.cpp \(llama.cpp\) do$/,
    );
  });

  it('refuses a layout the engine does not run (transformers does not split layers over GPUs)', () => {
    const two = { ...request, virtual: ['2xH100 SXM5'], layout: 'tp=2,pp=1,dp=1' };
    expect(priceLayout(db, { ...two, engine: 'transformers' }).layout.serving?.engineRefusal).toMatch(
      /does not split layers over GPUs \(tensor parallel 2\)/,
    );
    expect(priceLayout(db, { ...two, engine: 'vllm' }).layout.serving?.engineRefusal).toBeUndefined();
  });

  it("holds each GPU at the engine's share: what fits the card's datasheet may not fit what vLLM leaves of it", () => {
    // Qwen2.5 32B in int4 (17 GB) and an 8k-token KV cache fit a 24 GB RTX 4090 by its datasheet, but not
    // vLLM's 90% of it less its reserve and the activations of an 8192-token step.
    const tight = { ...request, workload: 'qwen2.5-32b', virtual: ['RTX 4090'], batch: 1, weights: 'int4' as const };
    const fits = (engine: 'ideal' | 'vllm', prompt: number): boolean =>
      planWorkload(db, { ...tight, engine, prompt }).result.plans.some((p) => p.feasible);
    expect(fits('ideal', 8192)).toBe(true);
    expect(fits('vllm', 8192)).toBe(false);
    expect(fits('vllm', 2048)).toBe(true);
  });
});
