/** Fused attention priced from its kernels' published tables: by key count, causal mask and kernel. */
import { describe, expect, it } from 'vitest';
import { ATTENTION_KERNELS, attentionPeakShare } from '../../../../src-main/core/engines/attention-kernels.js';
import type { EngineRules } from '../../../../src-main/core/engines/engine-rules.js';
import { flashPrefillUs, stepCost } from '../../../../src-main/core/engines/engine-step.js';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import { gpuSpec } from '../../../../src-main/core/engines/gpu-spec.js';
import { datasheetFor } from '../../../../src-main/core/planner/cost/datasheets.js';
import { deployment } from './engine-fixtures.js';

const LENGTHS = [256, 512, 1000, 2048, 3000, 8192, 16384, 65536];
const H200 = gpuSpec(datasheetFor('H200 SXM')!);
const A100 = gpuSpec(datasheetFor('A100 SXM4 80GB')!);
const withKernels = (chunk: 'fa2' | 'fa3', prefix: 'fa2' | 'fa3'): EngineRules => {
  const r = engineRules('sglang');
  return { ...r, attention: { ...r.attention, prefillKernels: { chunk, prefix } } };
};
const flat = (): EngineRules => {
  const r = engineRules('sglang');
  const { prefillKernels: _k, ...attention } = r.attention;
  return { ...r, attention };
};

describe('attentionPeakShare', () => {
  it.each(ATTENTION_KERNELS)('%s: the share grows with the keys a query attends, and is flat past the table', (k) => {
    for (const causal of [false, true]) {
      const shares = LENGTHS.map((n) => attentionPeakShare('Hopper', k, n, causal) as number);
      for (let i = 1; i < shares.length; i++) expect(shares[i]).toBeGreaterThanOrEqual(shares[i - 1] as number);
      expect(shares[0]).toBe(shares[1]);
      expect(shares[shares.length - 1]).toBe(shares[shares.length - 2]);
    }
  });

  it('gives the published cells at their lengths, log-linear between them (FlashAttention-3 paper, H100 SXM5)', () => {
    expect(attentionPeakShare('Hopper', 'fa2', 8192, false)).toBeCloseTo(370 / 989.4, 9);
    expect(attentionPeakShare('Hopper', 'fa3', 16384, true)).toBeCloseTo(616 / 989.4, 9);
    expect(attentionPeakShare('Hopper', 'fa2', Math.SQRT2 * 1024, true)).toBeCloseTo((260 + 298) / 2 / 989.4, 9);
  });

  it('is lower under the causal mask at the same length (the diagonal tiles), most at short lengths', () => {
    const gap = (n: number) =>
      (attentionPeakShare('Hopper', 'fa3', n, false) as number) /
      (attentionPeakShare('Hopper', 'fa3', n, true) as number);
    expect(gap(512)).toBeGreaterThan(gap(16384));
    expect(gap(16384)).toBeGreaterThan(1);
  });

  it('puts FlashAttention-3 above FlashAttention-2 on Hopper, and has no table for Ampere', () => {
    for (const n of LENGTHS)
      expect(attentionPeakShare('Hopper', 'fa3', n, true)).toBeGreaterThan(
        attentionPeakShare('Hopper', 'fa2', n, true) as number,
      );
    expect(attentionPeakShare('Ampere', 'fa2', 4096, true)).toBeUndefined();
  });
});

describe('a prompt chunk’s flash attention', () => {
  const dep = deployment({ engine: withKernels('fa3', 'fa2'), gpu: 'H200 SXM' });
  const heads = dep.decoder.heads;
  const perPair = 4 * heads * dep.decoder.headDim;

  it('prices the causal chunk at half the pairs of an unmasked one: at one flat rate, a prefix as long as the chunk costs twice the chunk', () => {
    const f = deployment({ engine: flat(), gpu: 'H200 SXM' });
    const own = flashPrefillUs(f, H200, heads, 8192, 0);
    const withPrefix = flashPrefillUs(f, H200, heads, 8192, 8192);
    expect((withPrefix - own) / own).toBeCloseTo(8192 / ((8192 + 1) / 2), 9);
  });

  it('prices the chunk on its kernel and the cached prefix on the prefix kernel, each at its own key count', () => {
    // The tables are bursts at boost; a prompt's attention runs at the sustained clock (GpuSpec.sustained).
    const rate = H200.peak.fp16 * H200.sustained;
    const own = (perPair * 8192 * (8193 / 2)) / (rate * (attentionPeakShare('Hopper', 'fa3', 8192, true) as number));
    const prefix = (perPair * 8192 * 24576) / (rate * (attentionPeakShare('Hopper', 'fa2', 24576, false) as number));
    expect(flashPrefillUs(dep, H200, heads, 8192, 0)).toBeCloseTo(own, 6);
    expect(flashPrefillUs(dep, H200, heads, 8192, 24576)).toBeCloseTo(own + prefix, 6);
  });

  it('grows attention’s share of a prompt step with the prompt: a 32k prompt costs more per token than a 4k one', () => {
    const perToken = (tokens: number, past: number) =>
      stepCost(dep, { decodeSeqs: 0, decodeContext: 0, prefill: [{ tokens, past }] }).gpuUs / tokens;
    expect(perToken(8192, 24576)).toBeGreaterThan(1.5 * perToken(4096, 0));
    const share = (past: number) =>
      (flashPrefillUs(dep, H200, heads, 8192, past) * 32) /
      stepCost(dep, { decodeSeqs: 0, decodeContext: 0, prefill: [{ tokens: 8192, past }] }).gpuUs;
    expect(share(24576)).toBeGreaterThan(2 * share(0));
  });

  it('runs slower on FlashAttention-2 than on FlashAttention-3 (SGLang 0.3 against 0.4 rules)', () => {
    const v03 = deployment({ engine: engineRules('sglang', { version: '0.3.0' }), gpu: 'H200 SXM' });
    const v04 = deployment({ engine: engineRules('sglang', { version: '0.4.4' }), gpu: 'H200 SXM' });
    expect(flashPrefillUs(v03, H200, heads, 8192, 0)).toBeGreaterThan(1.5 * flashPrefillUs(v04, H200, heads, 8192, 0));
    // The cached prefix runs FlashAttention-2 under both.
    const prefixUs = (d: typeof v03) =>
      flashPrefillUs(d, H200, heads, 8192, 24576) - flashPrefillUs(d, H200, heads, 8192, 0);
    expect(prefixUs(v03)).toBeCloseTo(prefixUs(v04), 6);
  });

  it('runs vLLM V1’s prompt attention faster than 0.6’s on Hopper (FlashAttention-3 against its -2 fork), alike on an A100', () => {
    const at = (version: string, gpu: string) => {
      const d = deployment({ engine: engineRules('vllm', { version }), gpu });
      return flashPrefillUs(d, gpuSpec(datasheetFor(gpu)!), heads, 8192, 8192);
    };
    expect(at('0.6.0', 'H200 SXM')).toBeGreaterThan(1.5 * at('0.8.0', 'H200 SXM'));
    expect(at('0.6.0', 'A100 SXM4 80GB')).toBe(at('0.8.0', 'A100 SXM4 80GB'));
  });

  it('keeps the architecture’s flat fraction where it has no table (A100)', () => {
    const a = deployment({ engine: withKernels('fa3', 'fa2'), gpu: 'A100 SXM4 80GB' });
    const b = deployment({ engine: flat(), gpu: 'A100 SXM4 80GB' });
    expect(flashPrefillUs(a, A100, heads, 4096, 8192)).toBe(flashPrefillUs(b, A100, heads, 4096, 8192));
    const flops = perPair * 4096 * (8192 + 4097 / 2);
    expect(flashPrefillUs(b, A100, heads, 4096, 8192)).toBeCloseTo(
      flops / (A100.peak.fp16 * A100.attentionFraction),
      6,
    );
  });
});
