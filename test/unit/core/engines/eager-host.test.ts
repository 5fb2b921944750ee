/**
 * Eager PyTorch engines on the host: bitsandbytes LLM.int8's operations around every weight GEMM
 * (transformers load_in_8bit), and TGI decoding without CUDA graphs before 2.0.
 */
import { describe, expect, it } from 'vitest';
import { stepCost } from '../../../../src-main/core/engines/engine-step.js';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import { BNB_INT8_HOST_OPS, WEIGHT_KERNELS } from '../../../../src-main/core/engines/weight-kernels.js';
import { deployment } from './engine-fixtures.js';

const decode = (seqs: number) => ({ decodeSeqs: seqs, decodeContext: seqs * 500, prefill: [] });

describe('bitsandbytes LLM.int8 in transformers', () => {
  const transformers = engineRules('transformers', { version: '4.30.2' });
  const int8 = deployment({ engine: transformers, model: 'llama-7b', gpu: 'A100 SXM4 80GB', format: 'int8' });
  const fp16 = deployment({ engine: transformers, model: 'llama-7b', gpu: 'A100 SXM4 80GB', format: 'fp16' });
  // modeling_llama.py: q, k, v, o, gate, up, down are seven Linear8bitLt modules a block.
  const linearModules = int8.decoder.layers * 7;

  it('runs on the LLM.int8 kernel, whose host code issues its counted operations around each GEMM', () => {
    expect(int8.kernels[0]).toBe(WEIGHT_KERNELS['bnb-int8']);
    expect(WEIGHT_KERNELS['bnb-int8'].hostOps).toBe(BNB_INT8_HOST_OPS);
  });

  it('launches those operations once per Linear module of every block: the host time grows by exactly that', () => {
    const extra = stepCost(int8, decode(1)).hostUs - stepCost(fp16, decode(1)).hostUs;
    expect(extra).toBeCloseTo(linearModules * BNB_INT8_HOST_OPS * transformers.host.launchUs, 3);
  });

  it('counts a fused projection once where the engine runs it fused', () => {
    const fused = { ...transformers, launches: { perBlock: 45, perStep: 40, gpuUs: 3 } };
    const a = stepCost({ ...int8, engine: fused }, decode(1)).hostUs;
    const b = stepCost({ ...fp16, engine: fused }, decode(1)).hostUs;
    expect(a - b).toBeCloseTo(int8.decoder.layers * 4 * BNB_INT8_HOST_OPS * transformers.host.launchUs, 3);
  });

  it('decodes a lone sequence host-bound, several times slower than fp16 (the GPU waits on Python)', () => {
    const a = stepCost(int8, decode(1));
    const b = stepCost(fp16, decode(1));
    expect(a.us).toBeGreaterThan(a.gpuUs * 2);
    expect(a.us / b.us).toBeGreaterThan(3);
  });

  it('adds nothing to a kernel without host operations (vLLM on cuBLAS)', () => {
    expect(WEIGHT_KERNELS.cublas).not.toHaveProperty('hostOps');
    const vllm = deployment({ engine: 'vllm', model: 'llama-7b', format: 'fp16' });
    const eager = { ...vllm.engine, host: { ...vllm.engine.host, graphMaxBatch: 0 } };
    const a = stepCost({ ...vllm, engine: eager }, decode(1));
    const kernelsPerBlock = eager.launches.perBlock;
    // The launches are the engine's own kernels only: per block, per step, nothing per GEMM.
    const launches = vllm.decoder.layers * kernelsPerBlock + eager.launches.perStep;
    expect(a.hostUs - eager.host.stepUs - eager.host.perSequenceUs).toBeCloseTo(launches * eager.host.launchUs, 3);
  });
});

describe('TGI before CUDA graphs (0.9 to 1.4)', () => {
  it.each(['0.9.3', '1.3', '1.4.5'])('decodes eagerly at %s: no graph replays a step', (version) => {
    expect(engineRules('tgi', { version }).host.graphMaxBatch).toBe(0);
  });

  it('replays graphs from 2.0, when they became the default', () => {
    expect(engineRules('tgi', { version: '2.0.0' }).host.graphMaxBatch).toBeGreaterThan(0);
    expect(engineRules('tgi', { date: '2023-08-21' }).since).toBe('0.9.0');
  });

  it('pays a launch per kernel where 2.0 pays one graph launch', () => {
    const old = stepCost(deployment({ engine: engineRules('tgi', { version: '1.3' }), model: 'llama-7b' }), decode(1));
    const now = stepCost(
      deployment({ engine: engineRules('tgi', { version: '2.0.0' }), model: 'llama-7b' }),
      decode(1),
    );
    expect(old.hostUs).toBeGreaterThan(now.hostUs + 1000);
    expect(old.gpuUs).toBeCloseTo(now.gpuUs, 6);
  });

  it('runs int4 on the AWQ GEMM before Marlin, and Marlin from 2.0 on Ampere', () => {
    expect(engineRules('tgi', { version: '1.3' }).kernel('int4', 'Ampere')).toBe('awq-gemm');
    expect(engineRules('tgi', { version: '2.0.0' }).kernel('int4', 'Ampere')).toBe('marlin');
    expect(engineRules('tgi', { version: '1.3' }).kernel('fp16', 'Ampere')).toBe('cublas');
  });

  it('runs 8-bit weights on bitsandbytes LLM.int8 before EETQ (1.1), and not from 1.1 on', () => {
    expect(engineRules('tgi', { version: '0.9.3' }).kernel('int8', 'Ampere')).toBe('bnb-int8');
    expect(engineRules('tgi', { version: '1.0.3' }).kernel('int8', 'Ampere')).toBe('bnb-int8');
    expect(engineRules('tgi', { date: '2023-07-20' }).kernel('int8', 'Ampere')).toBe('bnb-int8');
    expect(engineRules('tgi', { version: '1.1.0' }).kernel('int8', 'Ampere')).not.toBe('bnb-int8');
    expect(engineRules('tgi', { version: '0.9.3' }).kernel('int4', 'Ampere')).toBe('awq-gemm');
  });

  it("pays LLM.int8's host operations once per fused Linear8bitLt of 0.9 (four a Llama block), at TGI's launch cost", () => {
    const tgi = engineRules('tgi', { version: '0.9.3' });
    const int8 = deployment({ engine: tgi, model: 'llama-7b', gpu: 'A100 SXM4 80GB', format: 'int8' });
    const fp16 = deployment({ engine: tgi, model: 'llama-7b', gpu: 'A100 SXM4 80GB', format: 'fp16' });
    expect(int8.kernels[0]).toBe(WEIGHT_KERNELS['bnb-int8']);
    const extra = stepCost(int8, decode(1)).hostUs - stepCost(fp16, decode(1)).hostUs;
    expect(extra).toBeCloseTo(int8.decoder.layers * 4 * BNB_INT8_HOST_OPS * tgi.host.launchUs, 3);
  });
});
