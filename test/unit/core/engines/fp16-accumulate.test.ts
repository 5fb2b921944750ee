/** llama.cpp's cuBLAS GEMMs accumulate in fp16 (CUBLAS_COMPUTE_16F): twice the tensor rate on GeForce cards. */
import { describe, expect, it } from 'vitest';
import { gpuSpec } from '../../../../src-main/core/engines/gpu-spec.js';
import { WEIGHT_KERNELS, weightGemmUs, type WeightKernel } from '../../../../src-main/core/engines/weight-kernels.js';
import { datasheetFor } from '../../../../src-main/core/planner/cost/datasheets.js';

const spec = (name: string) => gpuSpec(datasheetFor(name)!);
const fp32Accumulate = (k: WeightKernel): WeightKernel => {
  const { accumulate: _dropped, ...rest } = k;
  return rest;
};

describe('fp16 accumulation', () => {
  it('reads the fp16-accumulate peak where the datasheet lists it apart (GeForce), not elsewhere', () => {
    const rtx = spec('RTX 4090');
    expect((rtx.peakFp16AccFp16 ?? 0) / rtx.peak.fp16).toBeCloseTo(2, 2);
    expect(spec('A100 SXM4 80GB').peakFp16AccFp16).toBeUndefined();
  });

  it.each(['ggml-f16', 'ggml-cublas'] as const)(
    '%s: a compute-bound GEMM runs twice as fast on a GeForce card as accumulating in fp32',
    (name) => {
      const kernel: WeightKernel = WEIGHT_KERNELS[name];
      const gpu = spec('RTX 4090');
      const bytes = name === 'ggml-f16' ? 2 : 0.5625;
      const [m, n, k] = [4096, 14336, 4096];
      const fp16 = weightGemmUs(gpu, { ...kernel, dequantPass: false }, bytes, m, n, k);
      const fp32 = weightGemmUs(gpu, fp32Accumulate({ ...kernel, dequantPass: false }), bytes, m, n, k);
      expect(fp32 / fp16).toBeCloseTo(2, 2);
    },
  );

  it('changes nothing on a GPU whose fp16 units accumulate in fp32 at the same rate, nor for a GEMV', () => {
    const kernel: WeightKernel = WEIGHT_KERNELS['ggml-cublas'];
    const a100 = spec('A100 SXM4 80GB');
    expect(weightGemmUs(a100, kernel, 0.5625, 512, 4096, 4096)).toBeCloseTo(
      weightGemmUs(a100, fp32Accumulate(kernel), 0.5625, 512, 4096, 4096),
      9,
    );
    const rtx = spec('RTX 4090');
    expect(weightGemmUs(rtx, kernel, 0.5625, 1, 4096, 4096)).toBeCloseTo(
      weightGemmUs(rtx, fp32Accumulate(kernel), 0.5625, 1, 4096, 4096),
      9,
    );
  });
});
