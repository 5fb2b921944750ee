/** The exports state the plan's precision: fp8 training (Transformer Engine), served weight formats. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { planWorkload, type PlanRequest } from '../../../../src-main/services/plan/plan-service.js';
import { servingLaunchOf, trainingExports } from '../../../helpers/plan-exports.js';

const training: PlanRequest = {
  workload: 'llama-3.1-8b',
  devices: 'none',
  virtual: ['8xH100 SXM5'],
  mode: 'training',
  batch: 8,
  seq: 2048,
  topN: 1,
};

describe('plan exports and precision', () => {
  it('trains fp8 with Transformer Engine flags in Megatron, bf16 in DeepSpeed with a note, fp8 in accelerate', () => {
    const e = trainingExports(planWorkload(openDatabase(':memory:'), { ...training, dtype: 'fp8' }).exports);
    expect(e.megatron.args.join(' ')).toMatch(/--bf16 --fp8-format hybrid/);
    expect(e.deepspeed.config.bf16).toEqual({ enabled: true });
    expect(e.deepspeed.warnings.join(' ')).toMatch(/Transformer Engine/);
    expect(e.accelerate.yaml).toMatch(/mixed_precision: fp8/);
  });

  it('keeps bf16 when the plan is bf16', () => {
    const e = trainingExports(planWorkload(openDatabase(':memory:'), { ...training, dtype: 'bf16' }).exports);
    expect(e.megatron.args).toContain('--bf16');
    expect(e.megatron.args).not.toContain('--fp8-format');
  });

  it('trains bf16 where every GPU has bf16 units and no dtype is asked, fp16 on V100s, the asked dtype else', () => {
    const db = openDatabase(':memory:');
    const llama2 = { ...training, workload: 'llama-7b', seq: 512 };
    const a100 = trainingExports(planWorkload(db, { ...llama2, virtual: ['8xA100'] }).exports);
    expect(a100.deepspeed.config.bf16).toEqual({ enabled: true });
    expect(a100.torch.python).toContain('PRECISION = "bf16"');
    const v100 = trainingExports(planWorkload(db, { ...llama2, virtual: ['8xV100'] }).exports);
    expect(v100.deepspeed.config.fp16).toEqual({ enabled: true });
    const asked = trainingExports(planWorkload(db, { ...llama2, virtual: ['8xA100'], dtype: 'fp16' }).exports);
    expect(asked.megatron.args).toContain('--fp16');
  });

  // The user's bug: --weights q4_k printed a vllm serve line with no quantization.
  it('serves int4 weights with vLLM AWQ on Marlin and q4_k weights with llama-server and its llama-quantize line', () => {
    const serve: PlanRequest = { ...training, mode: 'inference', batch: 1, virtual: ['RTX 4090'], dtype: 'fp16' };
    const int4 = servingLaunchOf(planWorkload(openDatabase(':memory:'), { ...serve, weights: 'int4' }).exports);
    expect(int4.engine).toBe('vllm');
    expect(int4.args.join(' ')).toMatch(/--dtype float16 --quantization awq_marlin/);
    const q4 = servingLaunchOf(planWorkload(openDatabase(':memory:'), { ...serve, weights: 'q4_k' }).exports);
    expect(q4.engine).toBe('llama.cpp');
    expect(q4.command).toMatch(/^llama-server -m Llama-3\.1-8B-Q4_K_M\.gguf -ngl 33 /);
    expect(q4.warnings.join(' ')).toMatch(/llama-quantize Llama-3\.1-8B-F16\.gguf Llama-3\.1-8B-Q4_K_M\.gguf Q4_K_M/);
    const vllmGguf = servingLaunchOf(
      planWorkload(openDatabase(':memory:'), { ...serve, weights: 'q4_k', engine: 'vllm' }).exports,
    );
    expect(vllmGguf.args).toEqual(expect.arrayContaining(['--quantization', 'gguf']));
    expect(vllmGguf.warnings.join(' ')).toMatch(/experimental/);
  });
});
