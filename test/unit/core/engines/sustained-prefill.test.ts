/**
 * An engine's compute-bound kernels at the sustained clock (bench/runs/h71-argh.md): the GEMM and
 * attention fractions are bursts at boost (mamf's MAMF, FlashAttention's tables); a prefill runs its
 * GEMMs back to back at the board's power limit, so compute takes the architecture's `sustained`
 * share (MSMF over MAMF) of the burst rate. Memory-bound kernels (a decode step's GEMVs, the KV
 * cache reads) keep their rate; an architecture without a measured `sustained` keeps its burst.
 */
import { describe, expect, it } from 'vitest';
import { stepCost, type EngineDeployment, type StepLoad } from '../../../../src-main/core/engines/engine-step.js';
import { gpuSpec } from '../../../../src-main/core/engines/gpu-spec.js';
import { WEIGHT_KERNELS, weightGemmUs } from '../../../../src-main/core/engines/weight-kernels.js';
import { datasheetFor } from '../../../../src-main/core/planner/cost/datasheets.js';
import { architectureEfficiency } from '../../../../src-main/core/predictor/kernel-efficiency.js';
import { deployment } from './engine-fixtures.js';

const H100 = gpuSpec(datasheetFor('H100 SXM5')!);
const A100 = gpuSpec(datasheetFor('A100 SXM4 40GB')!);
const HOPPER_SUSTAINED = architectureEfficiency('Hopper').sustained ?? NaN;

/** The same deployment priced at the burst rate (sustained 1). */
const atBurst = (dep: EngineDeployment): EngineDeployment => ({
  ...dep,
  stages: dep.stages.map((s) => ({ ...s, gpu: { ...s.gpu, sustained: 1 } })),
});
const prompts = (n: number, tokens: number): StepLoad => ({
  decodeSeqs: 0,
  decodeContext: 0,
  prefill: Array.from({ length: n }, () => ({ tokens, past: 0 })),
});

describe('compute at the sustained clock in an engine step', () => {
  it("takes Hopper's measured sustained share, and 1 where none is measured (Ampere)", () => {
    expect(HOPPER_SUSTAINED).toBeGreaterThan(0.5);
    expect(HOPPER_SUSTAINED).toBeLessThan(1);
    expect(H100.sustained).toBe(HOPPER_SUSTAINED);
    expect(A100.sustained).toBe(1);
  });

  it('prices a compute-bound GEMM at 1/sustained of its burst time, and a GEMV at the same time', () => {
    const cublas = WEIGHT_KERNELS.cublas;
    const burst = { ...H100, sustained: 1 };
    const prefill = (g: typeof H100) => weightGemmUs(g, cublas, 2, 16384, 14336, 4096);
    expect(prefill(H100) / prefill(burst)).toBeCloseTo(1 / HOPPER_SUSTAINED, 9);
    const decode = (g: typeof H100) => weightGemmUs(g, cublas, 2, 1, 14336, 4096);
    expect(decode(H100)).toBe(decode(burst));
  });

  it("slows a batch's prefill step on an H100, but not a one-sequence decode step", () => {
    const dep = deployment({ engine: 'tensorrt-llm', model: 'llama-7b', gpu: 'H100 SXM5' });
    const prefill = stepCost(dep, prompts(16, 1024)).gpuUs / stepCost(atBurst(dep), prompts(16, 1024)).gpuUs;
    expect(prefill).toBeGreaterThan(1.1);
    expect(prefill).toBeLessThanOrEqual(1 / HOPPER_SUSTAINED + 1e-9);
    const decode: StepLoad = { decodeSeqs: 1, decodeContext: 1024, prefill: [] };
    expect(stepCost(dep, decode).gpuUs).toBe(stepCost(atBurst(dep), decode).gpuUs);
  });

  it('leaves an A100 prefill as it was', () => {
    const dep = deployment({ engine: 'tensorrt-llm', model: 'llama-7b', gpu: 'A100 SXM4 40GB' });
    expect(stepCost(dep, prompts(16, 1024)).gpuUs).toBe(stepCost(atBurst(dep), prompts(16, 1024)).gpuUs);
  });
});
