import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EFFICIENCIES,
  defaultEfficiencies,
  GPU_DATASHEETS,
  datasheetFor,
  nvlinkGBps,
  transferEfficiencies,
  virtualDevice,
} from '../../../../../src-main/core/planner/cost/datasheets.js';
import { normalizeGpuName } from '../../../../../src-main/core/planner/cost/gpu-names.js';
import { UserError } from '../../../../../src-main/core/errors.js';

const REQUIRED = [
  'h100-sxm5-80gb',
  'h100-pcie-80gb',
  'h200-sxm-141gb',
  'a100-sxm4-80gb',
  'a100-pcie-40gb',
  'l40s',
  'rtx-4090',
  'rtx-4080-super',
  'rtx-3090',
  'rtx-2080-super',
  'v100-sxm2-32gb',
  't4',
];

/** FP32 lanes per SM: 64 on Volta, Turing and GA100 (cc 8.0); 128 on GA10x, Ada, Hopper and Blackwell. */
const lanesPerSm = (cc: string): number => (cc === '7.0' || cc === '7.5' || cc === '8.0' ? 64 : 128);

describe('GPU datasheets', () => {
  it('covers the required GPUs, each with sources', () => {
    const ids = GPU_DATASHEETS.map((g) => g.id);
    for (const id of REQUIRED) expect(ids).toContain(id);
    for (const g of GPU_DATASHEETS) expect(g.sources.length).toBeGreaterThan(0);
  });

  it('matches nvidia-smi names of probed GPUs', () => {
    expect(datasheetFor('NVIDIA H100 80GB HBM3')?.id).toBe('h100-sxm5-80gb');
    expect(datasheetFor('NVIDIA GeForce RTX 4080 SUPER')?.id).toBe('rtx-4080-super');
    expect(datasheetFor('NVIDIA GeForce RTX 2080 SUPER')?.id).toBe('rtx-2080-super');
    expect(datasheetFor('NVIDIA H100 PCIe')?.id).toBe('h100-pcie-80gb');
    expect(datasheetFor('NVIDIA A100-SXM4-80GB')?.id).toBe('a100-sxm4-80gb');
    expect(datasheetFor('NVIDIA A100-PCIE-40GB')?.id).toBe('a100-pcie-40gb');
    expect(datasheetFor('Tesla V100-SXM2-32GB')?.id).toBe('v100-sxm2-32gb');
    expect(datasheetFor('Tesla T4')?.id).toBe('t4');
    expect(datasheetFor('NVIDIA GeForce RTX 4090')?.id).toBe('rtx-4090');
    expect(datasheetFor('  nvidia  geforce rtx 3090 ')?.id).toBe('rtx-3090');
  });

  it('does not match look-alike GPUs', () => {
    expect(datasheetFor('NVIDIA GeForce RTX 4070 SUPER')).toBeNull();
    expect(datasheetFor('NVIDIA GeForce RTX 4090 Laptop GPU')).toBeNull();
    expect(datasheetFor('NVIDIA L20')).toBeNull();
    expect(datasheetFor('NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition')).toBeNull();
    expect(datasheetFor('NVIDIA H100 NVL')).toBeNull();
    expect(normalizeGpuName('NVIDIA A100-SXM4-80GB')).toBe('a100 sxm4 80gb');
  });

  it('has fp32 peaks equal to SMs x lanes x 2 x boost clock (within 2%)', () => {
    // GB200: NVIDIA's FP32 figure assumes a clock it does not publish (see its notes).
    for (const g of GPU_DATASHEETS.filter((d) => d.id !== 'gb200')) {
      const derived = (g.smCount * lanesPerSm(g.computeCapability) * 2 * g.boostClockMHz) / 1e6;
      expect(Math.abs(derived / g.tflops.fp32 - 1), g.id).toBeLessThan(0.02);
    }
  });

  it('has tensor peaks above fp32 and no TF32/BF16 before Ampere', () => {
    for (const g of GPU_DATASHEETS) {
      expect(g.tflops.fp16 ?? 0, g.id).toBeGreaterThan(g.tflops.fp32);
      const preAmpere = g.architecture === 'Volta' || g.architecture === 'Turing';
      expect(g.tflops.tf32 === null, g.id).toBe(preAmpere);
      expect(g.tflops.bf16 === null, g.id).toBe(preAmpere);
    }
  });

  it('gives NVLink per direction: 18 x 25 GB/s on H100 SXM, none on L40S', () => {
    expect(nvlinkGBps(datasheetFor('H100 SXM5')!)).toBe(450);
    expect(nvlinkGBps(datasheetFor('RTX 3090')!)).toBeCloseTo(56.25, 6);
    expect(nvlinkGBps(datasheetFor('L40S')!)).toBeNull();
  });
});

describe('virtual devices', () => {
  it('turns a datasheet into a PlanDevice and a roofline with the default efficiencies', () => {
    const v = virtualDevice('NVIDIA H100 80GB HBM3');
    expect(v.device).toEqual({
      id: 'virtual/h100-sxm5-80gb',
      name: 'NVIDIA H100 SXM5 80GB',
      kind: 'gpu',
      machine: 'virtual',
      memoryBytes: 79 * 2 ** 30,
      estimate: 'datasheet',
    });
    expect(v.features.peakGflops.fp32).toBeCloseTo(66_900 * DEFAULT_EFFICIENCIES.fp32, 6);
    // Hopper's large-GEMM fraction and HBM3's achieved bandwidth (models/gpu-kernels.json).
    expect(v.features.peakGflops.fp16).toBeCloseTo(989_400 * 0.8, 6);
    expect(v.features.bandwidthGBps).toBeCloseTo(3350 * 0.88, 6);
    expect(v.features.smCount).toBe(132);
    expect(v.features.dispatchUs).toBe(5);
  });

  it('names several of one model apart and leaves out dtypes the GPU lacks', () => {
    const v = virtualDevice('RTX 2080 SUPER', { machine: 'what-if', index: 1, reserveBytes: 0 });
    expect(v.device.id).toBe('what-if/rtx-2080-super:1');
    expect(v.device.memoryBytes).toBe(8 * 2 ** 30);
    expect(v.features.peakGflops.bf16).toBeUndefined();
    expect(v.features.peakGflops.int8).toBeCloseTo(178_400 * 0.5, 6);
  });

  it('rejects an unknown GPU naming the known ones', () => {
    expect(() => virtualDevice('Voodoo 5 6000')).toThrow(UserError);
    expect(() => virtualDevice('Voodoo 5 6000')).toThrow(/NVIDIA GeForce RTX 4090/);
  });
});

describe('efficiency transfer', () => {
  it('takes measured fractions of a profiled GPU and applies them to a virtual one', () => {
    const t = transferEfficiencies('NVIDIA GeForce RTX 4080 SUPER', {
      peakGflops: { fp32: 0.7 * 52_200, fp16: 0.65 * 104_400 },
      bandwidthGBps: 0.9 * 736,
      dispatchOverheadUs: 7,
    });
    expect(t.efficiencies.fp32).toBeCloseTo(0.7, 9);
    expect(t.efficiencies.fp16).toBeCloseTo(0.65, 9);
    expect(t.efficiencies.bandwidth).toBeCloseTo(0.9, 9);
    expect(t.measured).toEqual({ fp32: true, fp16: true, bf16: false, int8: false, bandwidth: true });
    expect(t.efficiencies.bf16).toBe(defaultEfficiencies(t.datasheet).bf16);
    const v = virtualDevice('H100 SXM', { transfer: t });
    expect(v.features.peakGflops.fp16).toBeCloseTo(989_400 * 0.65, 6);
    expect(v.features.bandwidthGBps).toBeCloseTo(3350 * 0.9, 6);
    expect(v.features.dispatchUs).toBe(7);
    expect(v.warnings.join(' ')).toMatch(/Ada GPU/);
    expect(virtualDevice('RTX 4090', { transfer: t }).warnings).toEqual([]);
  });

  it('reads an fp32 peak above the fp32 datasheet figure as TF32', () => {
    const t = transferEfficiencies('NVIDIA A100-SXM4-80GB', {
      peakGflops: { fp32: 100_000 },
      bandwidthGBps: null,
      dispatchOverheadUs: null,
    });
    expect(t.efficiencies.fp32UsesTf32).toBe(true);
    expect(t.efficiencies.fp32).toBeCloseTo(100 / 156, 9);
    expect(virtualDevice('H100 SXM', { transfer: t }).features.peakGflops.fp32).toBeCloseTo(494_700 * (100 / 156), 3);
    // a GPU without TF32 falls back to the default fp32 fraction
    expect(virtualDevice('T4', { transfer: t }).features.peakGflops.fp32).toBeCloseTo(
      8100 * DEFAULT_EFFICIENCIES.fp32,
      6,
    );
  });

  it('clamps a fraction above 1 with a warning', () => {
    const t = transferEfficiencies('NVIDIA GeForce RTX 2080 SUPER', {
      peakGflops: { fp16: 80_000 },
      bandwidthGBps: 450,
      dispatchOverheadUs: 6,
    });
    expect(t.efficiencies.fp16).toBe(1);
    expect(t.warnings[0]).toMatch(/fp16 GFLOP\/s is 1\.79x/);
  });
});
