/** One engine step: bounded by the bytes it must move, and shaped by the engine's host, graphs and splits. */
import { describe, expect, it } from 'vitest';
import { decodeAttentionUs, stepCost } from '../../../../src-main/core/engines/engine-step.js';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import { gpuSpec } from '../../../../src-main/core/engines/gpu-spec.js';
import { datasheetFor } from '../../../../src-main/core/planner/cost/datasheets.js';
import { deployment } from './engine-fixtures.js';

const decode = (seqs: number, context = 1000) => ({ decodeSeqs: seqs, decodeContext: seqs * context, prefill: [] });
const prefill = (tokens: number) => ({ decodeSeqs: 0, decodeContext: 0, prefill: [{ tokens, past: 0 }] });

describe('stepCost', () => {
  it('never decodes faster than the weights stream at the achieved bandwidth', () => {
    const dep = deployment({ model: 'llama-3.1-8b', gpu: 'H100 SXM5' });
    const gpu = gpuSpec(datasheetFor('H100 SXM5')!);
    const weightsUs = (dep.decoder.params * 2) / gpu.bytesPerUs;
    const step = stepCost(dep, decode(1)).us;
    expect(step).toBeGreaterThan(weightsUs);
    // ... and not absurdly slower: kernels' fixed costs and the host add a fraction, not a multiple.
    expect(step).toBeLessThan(2 * weightsUs);
  });

  it.each([
    ['q4_k', 'llama.cpp'],
    ['int4', 'vllm'],
    ['fp8', 'vllm'],
  ] as const)('reads fewer bytes in %s than in bf16, so decodes faster (%s)', (format, engine) => {
    const packed = stepCost(deployment({ engine, format }), decode(1)).gpuUs;
    const bf16 = stepCost(deployment({ engine, format: 'bf16' }), decode(1)).gpuUs;
    expect(packed).toBeLessThan(bf16);
  });

  it('adds the host serial time once a step and per sequence', () => {
    const base = engineRules('vllm');
    const slow = {
      ...base,
      host: { ...base.host, stepUs: base.host.stepUs + 1000, perSequenceUs: base.host.perSequenceUs + 10 },
    };
    const a = stepCost(deployment({ engine: base }), decode(8)).us;
    const b = stepCost(deployment({ engine: slow }), decode(8)).us;
    expect(b - a).toBeCloseTo(1000 + 8 * 10, 6);
  });

  it('replays a CUDA graph within the engine’s graph sizes, else pays a launch per kernel', () => {
    const base = engineRules('vllm');
    const eager = { ...base, host: { ...base.host, graphMaxBatch: 0, launchUs: 200 } };
    const graphed = { ...base, host: { ...base.host, launchUs: 200 } };
    const e = stepCost(deployment({ engine: eager }), decode(1));
    const g = stepCost(deployment({ engine: graphed }), decode(1));
    // 200 µs a launch makes the eager step host-bound; the graph replays it in one launch.
    expect(e.us).toBeGreaterThan(e.gpuUs);
    expect(g.us).toBeLessThan(e.us / 5);
  });

  it('leaves the GPU idle for the stream gap after each kernel outside a CUDA graph, not in one', () => {
    const base = engineRules('llama.cpp');
    const gapped = { ...base, launches: { ...base.launches, streamGapUs: 3 } };
    const eager = { ...gapped, host: { ...gapped.host, graphMaxBatch: 0 } };
    const noGap = { ...eager, launches: { ...eager.launches, streamGapUs: 0 } };
    const g = stepCost(deployment({ engine: gapped, format: 'q4_k' }), decode(1));
    const e = stepCost(deployment({ engine: eager, format: 'q4_k' }), decode(1));
    const n = stepCost(deployment({ engine: noGap, format: 'q4_k' }), decode(1));
    const kernels = 32 * base.launches.perBlock + base.launches.perStep;
    expect(e.gpuUs - n.gpuUs).toBeCloseTo(3 * kernels, 6);
    expect(g.gpuUs).toBeCloseTo(n.gpuUs, 6);
    // A prompt step (more than one token) runs outside the graph, and pays the gap.
    const p = stepCost(deployment({ engine: gapped, format: 'q4_k' }), prefill(64));
    const pn = stepCost(deployment({ engine: noGap, format: 'q4_k' }), prefill(64));
    expect(p.gpuUs - pn.gpuUs).toBeCloseTo(3 * kernels, 6);
  });

  it("replays llama.cpp's graph for a prompt's token at -b 1 as for a decoded one, and not before graphs (b2946)", () => {
    const now = engineRules('llama.cpp');
    const gapped = { ...now, launches: { ...now.launches, streamGapUs: 3 } };
    const noGap = { ...gapped, launches: { ...gapped.launches, streamGapUs: 0 } };
    const one = stepCost(deployment({ engine: gapped, format: 'q4_k' }), prefill(1));
    const oneNoGap = stepCost(deployment({ engine: noGap, format: 'q4_k' }), prefill(1));
    expect(one.gpuUs).toBeCloseTo(oneNoGap.gpuUs, 6);
    // Two tokens (a prompt piece or two sequences) leave the graph.
    expect(stepCost(deployment({ engine: gapped, format: 'q4_k' }), prefill(2)).gpuUs).toBeGreaterThan(
      stepCost(deployment({ engine: noGap, format: 'q4_k' }), prefill(2)).gpuUs + 100,
    );
    const before = engineRules('llama.cpp', { version: 'b2413' });
    const eager = stepCost(deployment({ engine: before, format: 'q4_k' }), prefill(1));
    const eagerNoGap = stepCost(
      deployment({ engine: { ...before, launches: { ...before.launches, streamGapUs: 0 } }, format: 'q4_k' }),
      prefill(1),
    );
    expect(eager.gpuUs).toBeGreaterThan(eagerNoGap.gpuUs);
    // vLLM graphs decode steps only: a one-token prompt step runs eagerly.
    const vllm = engineRules('vllm');
    expect(vllm.host.graphBy).toBeUndefined();
    const v = stepCost(deployment({ engine: { ...vllm, host: { ...vllm.host, launchUs: 200 } } }), prefill(1));
    expect(v.hostUs).toBeGreaterThan(v.gpuUs);
  });

  it('splits the weights over a tensor-parallel group and pays two all-reduces a block', () => {
    const one = stepCost(deployment({ model: 'llama-3.1-70b', tp: 1 }), decode(1));
    const four = stepCost(deployment({ model: 'llama-3.1-70b', tp: 4 }), decode(1));
    expect(four.gpuUs).toBeLessThan(one.gpuUs / 2);
    expect(four.commUs).toBeCloseTo(80 * 2 * (10 + (8192 * 2) / 100e3), 3);
    expect(one.commUs).toBe(0);
  });

  it('runs sequential pipeline stages one after the other: no faster than one GPU holding them all', () => {
    const llama = engineRules('llama.cpp');
    const one = stepCost(deployment({ engine: llama, format: 'q4_k' }), decode(1));
    const two = stepCost(deployment({ engine: llama, format: 'q4_k', pp: 2 }), decode(1));
    expect(two.gpuUs).toBeGreaterThanOrEqual(one.gpuUs);
  });

  it('prices a prompt by its arithmetic: a long prompt costs more per token than decoding', () => {
    const dep = deployment();
    const p = stepCost(dep, prefill(4096)).gpuUs;
    const d = stepCost(dep, decode(1)).gpuUs;
    expect(p).toBeGreaterThan(10 * d);
    // Wave quantisation: 128 tokens cost more per token than 4096 (the GEMMs fill fewer SMs).
    expect(stepCost(dep, prefill(128)).gpuUs / 128).toBeGreaterThan(p / 4096);
  });

  it('quantises each W8A8 GEMM input in a kernel of its own where the engine does, not where it fuses it', () => {
    const vllm = engineRules('vllm');
    const fused = { ...vllm, launches: { ...vllm.launches, activationQuant: undefined } };
    const tokens = 1000;
    const fp8 = deployment({ engine: vllm, format: 'fp8', gpu: 'H200 SXM' });
    const fp8Fused = deployment({ engine: fused, format: 'fp8', gpu: 'H200 SXM' });
    const d = fp8.decoder;
    const gpu = fp8.stages[0]!.gpu;
    // Per block: one kernel and a 16-bit read plus an 8-bit write of the input, for each GEMM.
    let perBlock = 0;
    for (const g of d.blocks[0]!.gemms) perBlock += vllm.launches.gpuUs + (tokens * g.k * 3) / gpu.bytesPerUs;
    const extra = stepCost(fp8, prefill(tokens)).gpuUs - stepCost(fp8Fused, prefill(tokens)).gpuUs;
    expect(extra).toBeCloseTo(d.layers * perBlock, 3);
    // A decode step pays the kernels' fixed time too.
    const decodeExtra = stepCost(fp8, decode(8)).gpuUs - stepCost(fp8Fused, decode(8)).gpuUs;
    expect(decodeExtra).toBeGreaterThan(d.layers * d.blocks[0]!.gemms.length * vllm.launches.gpuUs);
    // bf16 weights take bf16 activations: nothing to quantise.
    const bf16 = stepCost(deployment({ engine: vllm, gpu: 'H200 SXM' }), prefill(tokens)).gpuUs;
    const bf16Fused = stepCost(deployment({ engine: fused, gpu: 'H200 SXM' }), prefill(tokens)).gpuUs;
    expect(bf16).toBe(bf16Fused);
  });
});

describe("vLLM's own PagedAttention decode kernel (before 0.4.3)", () => {
  const paged = engineRules('vllm', { version: '0.4.1' });
  const flash = engineRules('vllm', { version: '0.4.3' });
  const at = (seqs: number, context: number) => decode(seqs, context);

  it('is the decode kernel up to 0.4.2 only', () => {
    expect(engineRules('vllm', { version: '0.4.2' }).attention.paged).toBeDefined();
    expect(flash.attention.paged).toBeUndefined();
    expect(engineRules('vllm', { version: '0.6.0' }).attention.paged).toBeUndefined();
    expect(engineRules('vllm').attention.paged).toBeUndefined();
  });

  it('reproduces the kernel table it was fitted on (vllm#1880: A100-40GB PCIe, 56 query / 8 KV heads, context 4096) within 15%', () => {
    const base = deployment({ engine: paged, gpu: 'A100 PCIe 40GB' });
    const dep = {
      ...base,
      decoder: { ...base.decoder, heads: 56, kvHeads: 8, headDim: 128, kvValuesPerLayer: 2 * 8 * 128 },
    };
    const stage = dep.stages[0]!;
    for (const [seqs, us] of [
      [16, 552.368],
      [64, 2504.497],
      [256, 7878.213],
    ] as const) {
      const priced = decodeAttentionUs(dep, stage, at(seqs, 4096));
      expect(Math.abs(priced / us - 1)).toBeLessThan(0.15);
    }
  });

  it('reads a grouped-query cache once per query head: Llama 3.1 8B (32 query, 8 KV heads) costs more than through FlashAttention', () => {
    const a = deployment({ engine: paged, model: 'llama-3.1-8b' });
    const b = deployment({ engine: flash, model: 'llama-3.1-8b' });
    expect(a.decoder.heads / a.decoder.kvHeads).toBe(4);
    const ratio = decodeAttentionUs(a, a.stages[0]!, at(64, 2000)) / decodeAttentionUs(b, b.stages[0]!, at(64, 2000));
    // Four query heads' reads at 2.58x the bandwidth, against one read at 0.8 of it: about 1.24x.
    expect(ratio).toBeCloseTo((4 / 2.58) * 0.8 * ((2000 + 8.5) / 2001), 2);
  });

  it('costs a multi-head model (one query head a KV head) only the half block read past each sequence', () => {
    const a = deployment({ engine: paged, model: 'llama-7b' });
    const b = deployment({ engine: flash, model: 'llama-7b' });
    expect(a.decoder.heads).toBe(a.decoder.kvHeads);
    const ratio = decodeAttentionUs(a, a.stages[0]!, at(32, 300)) / decodeAttentionUs(b, b.stages[0]!, at(32, 300));
    expect(ratio).toBeCloseTo((300 + 8.5) / 301, 6);
  });

  it('slows a long-context batch decode step, and barely a lone short one', () => {
    const a = deployment({ engine: paged, gpu: 'A100 SXM4 80GB' });
    const b = deployment({ engine: flash, gpu: 'A100 SXM4 80GB' });
    const long = stepCost(a, at(64, 4000)).us / stepCost(b, at(64, 4000)).us;
    const short = stepCost(a, at(1, 100)).us / stepCost(b, at(1, 100)).us;
    expect(long).toBeGreaterThan(1.05);
    expect(short).toBeLessThan(1.01);
  });
});
