/** vLLM's V0 decode with an fp8 KV cache: FlashAttention-2 refused, PagedAttention (one block per query head) instead. */
import { describe, expect, it } from 'vitest';
import { decodeAttentionUs } from '../../../../src-main/core/engines/engine-step.js';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import { deployment } from './engine-fixtures.js';

const decode = (seqs: number, context: number) => ({ decodeSeqs: seqs, decodeContext: seqs * context, prefill: [] });
const v05 = engineRules('vllm', { version: '0.5.3' });
const v04 = engineRules('vllm', { version: '0.4.1' });

describe('decode attention with an fp8 KV cache', () => {
  it("falls back to vLLM's PagedAttention from 0.4.3 through the V0 engine, and not in V1", () => {
    for (const version of ['0.4.3', '0.5.3', '0.6.0', '0.7.3']) {
      const rules = engineRules('vllm', { version });
      expect(rules.attention.paged).toBeUndefined();
      expect(rules.attention.fp8CachePaged).toEqual(v04.attention.paged);
    }
    expect(engineRules('vllm', { version: '0.8.0' }).attention.fp8CachePaged).toBeUndefined();
    expect(engineRules('vllm').attention.fp8CachePaged).toBeUndefined();
  });

  it("reads a grouped-query model's fp8 cache once per query head at the kernel's rate (Llama 3.1 8B, A100 40GB)", () => {
    const fp8 = deployment({ engine: v05, model: 'llama-3.1-8b', gpu: 'A100 SXM4 40GB', kvCache: 'fp8' });
    const auto = deployment({ engine: v05, model: 'llama-3.1-8b', gpu: 'A100 SXM4 40GB' });
    const stage = fp8.stages[0]!;
    const { queryHeadRate, blockTokens } = v04.attention.paged!;
    const [seqs, context] = [64, 2000];
    const fp8Us = decodeAttentionUs(fp8, stage, decode(seqs, context));
    const autoUs = decodeAttentionUs(auto, stage, decode(seqs, context));
    // fp16 through FlashAttention: one read of 2-byte values at decodeShare (0.8) of the bandwidth, the new token added.
    // fp8 through PagedAttention: four query heads' reads of 1-byte values at queryHeadRate x the bandwidth, each
    // sequence's last 16-token block read whole.
    const expected =
      ((4 / queryHeadRate) * (context + 1 + (blockTokens - 1) / 2) * 1) /
      (((1 + context) * 2) / v05.attention.decodeShare);
    expect(fp8Us / autoUs).toBeCloseTo(expected, 6);
    // The floor binds: more than the fp8 cache read once per KV head.
    expect(fp8Us).toBeGreaterThan(autoUs / 2);
  });

  it('leaves a 16-bit cache, and engines without a fallback, as they were', () => {
    const auto = deployment({ engine: v05, model: 'llama-3.1-8b', gpu: 'A100 SXM4 40GB', kvCache: 'auto' });
    const plain = { ...auto, kvCache: undefined };
    const stage = auto.stages[0]!;
    expect(decodeAttentionUs(auto, stage, decode(32, 1000))).toBe(decodeAttentionUs(plain, stage, decode(32, 1000)));
    const v1 = engineRules('vllm');
    const v1Fp8 = deployment({ engine: v1, model: 'llama-3.1-8b', gpu: 'A100 SXM4 40GB', kvCache: 'fp8' });
    const v1Auto = deployment({ engine: v1, model: 'llama-3.1-8b', gpu: 'A100 SXM4 40GB' });
    const ratio =
      decodeAttentionUs(v1Fp8, stage, decode(32, 1000)) / decodeAttentionUs(v1Auto, stage, decode(32, 1000));
    expect(ratio).toBeCloseTo(0.5, 6);
  });
});
