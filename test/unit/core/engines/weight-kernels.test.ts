/** A GEMV streams weights at the smaller of its bandwidth share and what its SMs keep in flight (Little's law). */
import { describe, expect, it } from 'vitest';
import { stepCost } from '../../../../src-main/core/engines/engine-step.js';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import { gpuSpec, type GpuSpec } from '../../../../src-main/core/engines/gpu-spec.js';
import {
  gemvStreamBytesPerUs,
  WEIGHT_KERNELS,
  weightGemmUs,
  type WeightKernel,
} from '../../../../src-main/core/engines/weight-kernels.js';
import { datasheetFor } from '../../../../src-main/core/planner/cost/datasheets.js';
import { deployment } from './engine-fixtures.js';

const spec = (name: string): GpuSpec => gpuSpec(datasheetFor(name)!);
const gemv = (smBytesPerCycle?: number): WeightKernel => ({
  ...WEIGHT_KERNELS['ggml-f16'],
  ...(smBytesPerCycle === undefined ? {} : { smBytesPerCycle }),
});
const decode = { decodeSeqs: 1, decodeContext: 100, prefill: [] };

describe('gemvStreamBytesPerUs', () => {
  it('rises with the bytes kept in flight per SM cycle until the bandwidth share caps it', () => {
    const gpu = spec('A100 SXM4 80GB');
    const rates = [1, 2, 4, 8, 16, 32, 64].map((b) => gemvStreamBytesPerUs(gpu, gemv(b)));
    for (let i = 1; i < rates.length; i++) expect(rates[i]).toBeGreaterThanOrEqual(rates[i - 1] as number);
    expect(rates[0]).toBeCloseTo(gpu.smCount * gpu.clockMHz * 1, 6);
    expect(rates[1]).toBeCloseTo(2 * (rates[0] as number), 6);
    expect(rates.at(-1)).toBe(gpu.bytesPerUs);
  });

  it('leaves a kernel without a Little-law figure at its bandwidth share', () => {
    const gpu = spec('A100 SXM4 80GB');
    const { smBytesPerCycle: _, ...free } = WEIGHT_KERNELS['ggml-f16'];
    expect(gemvStreamBytesPerUs(gpu, free)).toBe(gpu.bytesPerUs * free.stream);
  });

  it('holds an HBM GPU below its bandwidth with the same kernel that keeps a GDDR card busy', () => {
    const kernel = WEIGHT_KERNELS['ggml-f16'];
    const hbm = spec('A100 SXM4 80GB');
    const gddr = spec('RTX 4090');
    expect(gemvStreamBytesPerUs(hbm, kernel)).toBeLessThan(0.6 * hbm.bytesPerUs);
    expect(gemvStreamBytesPerUs(gddr, kernel)).toBe(gddr.bytesPerUs);
  });

  it('bounds only the GEMV rows: past them the kernel streams at its bandwidth share', () => {
    const gpu = spec('H100 SXM5');
    const kernel = WEIGHT_KERNELS['ggml-f16'];
    const weights = 4096 * 4096 * 2;
    const one = weightGemmUs(gpu, kernel, 2, 1, 4096, 4096);
    const two = weightGemmUs(gpu, kernel, 2, 2, 4096, 4096);
    expect(one).toBeGreaterThan(weights / gemvStreamBytesPerUs(gpu, kernel));
    expect(two).toBeLessThan(one);
  });
});

describe("llama.cpp's f16 decode", () => {
  it('is slower on an A100 than its HBM bandwidth allows, while vLLM streams at it', () => {
    const llama = stepCost(deployment({ engine: 'llama.cpp', gpu: 'A100 SXM4 80GB', format: 'fp16' }), decode);
    const vllm = stepCost(deployment({ engine: 'vllm', gpu: 'A100 SXM4 80GB', format: 'fp16' }), decode);
    expect(llama.gpuUs).toBeGreaterThan(1.5 * vllm.gpuUs);
  });

  it('runs on the RTX 4090 at its bandwidth, as the kernel keeps enough in flight there', () => {
    const rules = engineRules('llama.cpp');
    const free = { ...rules, kernel: () => 'cublas' as const };
    const llama = stepCost(deployment({ engine: rules, gpu: 'RTX 4090', format: 'fp16' }), decode);
    const cublas = stepCost(deployment({ engine: free, gpu: 'RTX 4090', format: 'fp16' }), decode);
    expect(llama.gpuUs).toBeCloseTo(cublas.gpuUs, 6);
  });
});

describe("llama.cpp's MMVQ GEMV on GGUF blocks", () => {
  it('is one kernel shape under both of its versions: the same bytes per SM cycle', () => {
    expect(WEIGHT_KERNELS.ggml.smBytesPerCycle).toBeGreaterThan(0);
    expect(WEIGHT_KERNELS['ggml-cublas'].smBytesPerCycle).toBe(WEIGHT_KERNELS.ggml.smBytesPerCycle);
  });

  it('holds an HBM GPU below its streaming share, and a GDDR Ada card not at all', () => {
    const kernel = WEIGHT_KERNELS.ggml;
    const a100 = spec('A100 SXM4 80GB');
    const h100 = spec('H100 PCIe');
    const ada = spec('RTX 4090');
    expect(gemvStreamBytesPerUs(a100, kernel)).toBeLessThan(0.5 * a100.bytesPerUs * kernel.stream);
    expect(gemvStreamBytesPerUs(h100, kernel)).toBeLessThan(0.7 * h100.bytesPerUs * kernel.stream);
    expect(gemvStreamBytesPerUs(ada, kernel)).toBe(ada.bytesPerUs * kernel.stream);
  });

  it('bounds every MMVQ row count (up to 8), not the int8 MMQ GEMMs past them', () => {
    const gpu = spec('A100 SXM4 80GB');
    const kernel = WEIGHT_KERNELS.ggml;
    const bound = (4096 * 4096 * 0.5625) / gemvStreamBytesPerUs(gpu, kernel);
    expect(weightGemmUs(gpu, kernel, 0.5625, 8, 4096, 4096)).toBeGreaterThan(bound);
    expect(weightGemmUs(gpu, kernel, 0.5625, 9, 4096, 4096)).toBeLessThan(bound);
  });

  it('makes a Q4_K 8B decode step on an A100 take longer than its weights at the streaming share', () => {
    const gpu = spec('A100 SXM4 80GB');
    const dep = deployment({ engine: 'llama.cpp', gpu: 'A100 SXM4 80GB', format: 'q4_k' });
    const step = stepCost(dep, decode);
    const streamed = (dep.decoder.params * dep.bytesPerWeight) / (gpu.bytesPerUs * WEIGHT_KERNELS.ggml.stream);
    expect(step.gpuUs).toBeGreaterThan(1.5 * streamed);
  });
});
