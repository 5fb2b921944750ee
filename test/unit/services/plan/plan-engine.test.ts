/** The engine a served decoder is planned for changes its figures, its memory check and its launch line. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { getCatalogEntry } from '../../../../src-main/core/catalog/index.js';
import { planWorkload, priceLayout, type PlanRequest } from '../../../../src-main/services/plan/plan-service.js';
import { servingEngine } from '../../../../src-main/services/plan/serving-engine.js';

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

  describe("llama.cpp's input token embedding stays in host memory", () => {
    // Llama 3 8B f16 on a 16 GB RTX 4080: llama-bench ran pp512 and tg512 (XiongjieDai's README, bench/published).
    const card = { ...request, virtual: ['RTX 4080'], batch: 1, tokens: 1, layout: 'tp=1,pp=1,dp=1', search: false };
    const priced = (engine: 'ideal' | 'llama.cpp', prompt: number) =>
      priceLayout(db, { ...card, engine, prompt, seq: prompt }).layout;
    const table = 128256 * 4096 * 2;

    it('counts none of the 1 GiB table on the GPU, so pp512 fits the card', () => {
      const cpp = priced('llama.cpp', 512);
      const ideal = priced('ideal', 512);
      expect(cpp.fits).toBe(true);
      expect((ideal.plan.memory[0]?.neededBytes ?? 0) - (cpp.plan.memory[0]?.neededBytes ?? 0)).toBe(table);
      // The card's 16 GiB less llama.cpp's own reserve, the activations of a 512-token ubatch, and (no -fa)
      // one layer's f32 scores and mask over the 513-token context: 513 x 512 x (32 heads + 1) x 4 B.
      expect(cpp.plan.memory[0]?.availableBytes).toBe(
        16 * 2 ** 30 - 0.6 * 2 ** 30 - 512 * 4096 * 40 - 513 * 512 * 33 * 4,
      );
      // With the table on the card it would not fit: the placement decides it, not a margin.
      const need = (cpp.plan.memory[0]?.neededBytes ?? 0) + table;
      expect(need).toBeGreaterThan(cpp.plan.memory[0]?.availableBytes ?? Infinity);
    });

    it('holds the attention scores of the whole context without -fa, none with it', () => {
      const fa = (prompt: number, flashAttention: boolean) =>
        priceLayout(db, { ...card, engine: 'llama.cpp', prompt, seq: prompt, engineSettings: { flashAttention } })
          .layout.plan.memory[0]?.availableBytes ?? 0;
      // 4,096 + 1 tokens of context: 4097 x 512 x 33 x 4 B = 264 MiB more held without flash attention.
      expect(fa(4096, true) - fa(4096, false)).toBe(4097 * 512 * 33 * 4);
      expect(fa(512, true) - fa(512, false)).toBe(513 * 512 * 33 * 4);
    });

    it('writes -fa as it priced the attention: off by default, on when asked or for an 8-bit cache', () => {
      const plan = (extra: Partial<PlanRequest>) =>
        planWorkload(db, { ...card, engine: 'llama.cpp', prompt: 512, ...extra });
      const fa = (r: ReturnType<typeof plan>): string | undefined => {
        if (r.exports?.kind !== 'serving') return undefined;
        return r.exports.launch.args[r.exports.launch.args.indexOf('-fa') + 1];
      };
      const scores = (extra: Partial<PlanRequest>) =>
        priceLayout(db, { ...card, engine: 'llama.cpp', prompt: 512, seq: 512, ...extra }).layout.plan.memory[0]
          ?.availableBytes ?? 0;
      const unfused = plan({});
      const flash = plan({ engineSettings: { flashAttention: true } });
      const off = plan({ engineSettings: { flashAttention: false } });
      const fp8 = plan({ kvCache: 'fp8' });
      expect([fa(unfused), fa(off), fa(flash), fa(fp8)]).toEqual(['off', 'off', 'on', 'on']);
      // The line's -fa off holds the scores the plan counted, -fa on none: 513 x 512 x 33 x 4 B.
      const held = scores({ engineSettings: { flashAttention: false } });
      expect(scores({}) - held).toBe(0);
      expect(scores({ engineSettings: { flashAttention: true } }) - held).toBe(513 * 512 * 33 * 4);
      expect(scores({ kvCache: 'fp8' }) - held).toBeGreaterThanOrEqual(513 * 512 * 33 * 4);
      const ttft = (extra: Partial<PlanRequest>) =>
        priceLayout(db, { ...card, engine: 'llama.cpp', prompt: 512, seq: 512, ...extra }).layout.serving?.ttftUs ??
        NaN;
      expect(ttft({})).toBe(ttft({ engineSettings: { flashAttention: false } }));
      expect(ttft({ engineSettings: { flashAttention: true } })).toBeLessThan(ttft({}));
      expect(ttft({ kvCache: 'fp8' })).toBeLessThan(ttft({}));
      expect(() => plan({ kvCache: 'fp8', engineSettings: { flashAttention: false } })).toThrow(
        /^llama\.cpp's 8-bit KV cache \(-ctk q8_0 -ctv q8_0\) needs flash attention/,
      );
    });

    it("refuses flash attention for heads ggml-cuda's kernels do not take, and prices it for those they do", () => {
      const llama = getCatalogEntry('llama-3.1-8b');
      const asked = { engine: 'llama.cpp' as const, engineSettings: { flashAttention: true } };
      expect(servingEngine(db, asked, llama, 'fp16').serving?.rules.attention.prefill).toBe('flash');
      expect(() => servingEngine(db, asked, { ...llama, headDim: 160 } as typeof llama, 'fp16')).toThrow(
        /^llama\.cpp's GPU flash attention has kernels for heads 64, 80, 96, 112, 128, 256 wide, not 160/,
      );
      // Unfused attention runs any head width.
      expect(
        servingEngine(db, { engine: 'llama.cpp' }, { ...llama, headDim: 160 } as typeof llama, 'fp16').serving,
      ).toBeTruthy();
    });

    it('still refuses 8,192 tokens (out of memory there, the same README) and a context just over what the model leaves (3,072)', () => {
      for (const prompt of [3072, 8192]) {
        const l = priced('llama.cpp', prompt);
        expect(l.fits).toBe(false);
        expect(l.reasons[0]).toMatch(
          /^virtual\/rtx-4080:0 \(NVIDIA GeForce RTX 4080, 1[45]\.\d GiB\): needs 1\d\.\d GiB: 14\.0 GiB weights/,
        );
      }
    });
  });
});
