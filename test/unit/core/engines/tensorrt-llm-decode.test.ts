/** TensorRT-LLM's generation attention: per query head before 0.12, once per KV head from multi_block_mode on (0.12). */
import { describe, expect, it } from 'vitest';
import { decodeAttentionUs, stepCost } from '../../../../src-main/core/engines/engine-step.js';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import { deployment } from './engine-fixtures.js';

const decode = (seqs: number, context: number) => ({ decodeSeqs: seqs, decodeContext: seqs * context, prefill: [] });
const v011 = engineRules('tensorrt-llm', { version: '0.11.0' });
const v012 = engineRules('tensorrt-llm', { version: '0.12.0' });

describe("TensorRT-LLM's generation attention by version", () => {
  it('prices the query-head floor from 0.9 to 0.11, and not from 0.12 (multi_block_mode on by default at run time) nor in the PyTorch backend', () => {
    for (const version of ['0.9.0', '0.10.0', '0.11.0']) {
      expect(engineRules('tensorrt-llm', { version }).attention.paged?.blockTokens).toBe(1);
    }
    for (const version of ['0.12.0', '0.13.0', '0.17.0', '0.20.0', '1.0.0']) {
      expect(engineRules('tensorrt-llm', { version }).attention.paged).toBeUndefined();
    }
  });

  it("reads a grouped-query model's cache once per query head at the fitted rate: Llama 3.1 8B (4 query heads a KV head)", () => {
    const a = deployment({ engine: v011, model: 'llama-3.1-8b', gpu: 'A100 SXM4 40GB' });
    const b = deployment({ engine: v012, model: 'llama-3.1-8b', gpu: 'A100 SXM4 40GB' });
    const rate = v011.attention.paged?.queryHeadRate ?? NaN;
    const ratio =
      decodeAttentionUs(a, a.stages[0]!, decode(64, 1500)) / decodeAttentionUs(b, b.stages[0]!, decode(64, 1500));
    // Four query heads' reads at `rate` x the bandwidth against one read at the bandwidth (decodeShare 1).
    expect(ratio).toBeCloseTo(4 / rate, 6);
    expect(ratio).toBeGreaterThan(1.5);
  });

  it('follows the query heads, not the KV heads: halving the KV heads leaves the floor where it is', () => {
    const base = deployment({ engine: v011, model: 'llama-3.1-8b' });
    const fewerKv = {
      ...base,
      decoder: { ...base.decoder, kvHeads: 4, kvValuesPerLayer: base.decoder.kvValuesPerLayer / 2 },
    };
    const stage = base.stages[0]!;
    expect(decodeAttentionUs(fewerKv, stage, decode(32, 1000))).toBeCloseTo(
      decodeAttentionUs(base, stage, decode(32, 1000)),
      6,
    );
  });

  it('leaves a multi-head model (one query head a KV head) as it was', () => {
    const a = deployment({ engine: v011, model: 'llama-7b' });
    const b = deployment({ engine: v012, model: 'llama-7b' });
    expect(a.decoder.heads).toBe(a.decoder.kvHeads);
    expect(decodeAttentionUs(a, a.stages[0]!, decode(64, 1500))).toBeCloseTo(
      decodeAttentionUs(b, b.stages[0]!, decode(64, 1500)),
      6,
    );
  });

  it('slows a long-context batch decode step of a grouped-query model, and barely a lone short one', () => {
    const a = deployment({ engine: v011, model: 'llama-3.1-8b', gpu: 'H100 SXM5' });
    const b = deployment({ engine: v012, model: 'llama-3.1-8b', gpu: 'H100 SXM5' });
    const long = stepCost(a, decode(64, 3000)).us / stepCost(b, decode(64, 3000)).us;
    const short = stepCost(a, decode(1, 100)).us / stepCost(b, decode(1, 100)).us;
    expect(long).toBeGreaterThan(1.2);
    expect(short).toBeLessThan(1.01);
  });
});
