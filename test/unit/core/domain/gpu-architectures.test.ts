/** The GPU architecture table: the one list the datasheets, the kernel fractions, engines and virtual nodes read. */
import { describe, expect, it } from 'vitest';
import {
  FP8_ARCHITECTURES,
  FP8_ARCHITECTURES_TEXT,
  GPU_ARCHITECTURES,
  GPU_ARCHITECTURE_NAMES,
  gpuArchitecture,
} from '../../../../src-main/core/domain/gpu-architectures.js';
import { KERNEL_EFFICIENCIES } from '../../../../src-main/core/predictor/kernel-efficiency.js';
import { standardKernel } from '../../../../src-main/core/engines/weight-kernels.js';
import { GPU_DATASHEETS } from '../../../../src-main/core/planner/cost/datasheets.js';
import { virtualNodes } from '../../../../src-main/core/planner/problem/virtual-nodes.js';

describe('the GPU architecture table (one definition)', () => {
  it('lists the architectures oldest first, each with its kernel fractions in models/gpu-kernels.json', () => {
    expect(GPU_ARCHITECTURE_NAMES).toEqual(['Volta', 'Turing', 'Ampere', 'Ada', 'Hopper', 'Blackwell']);
    // Same order: an architecture the file lacked would take the newest listed one's fractions.
    expect(Object.keys(KERNEL_EFFICIENCIES.architectures)).toEqual(GPU_ARCHITECTURE_NAMES);
    expect(gpuArchitecture('Hopper')).toBe(GPU_ARCHITECTURES.Hopper);
    expect(gpuArchitecture('Kepler')).toBeNull();
    expect(gpuArchitecture('toString')).toBeNull();
  });

  it('names the fp8 architectures in help and messages from the table', () => {
    expect(FP8_ARCHITECTURES).toEqual(['Ada', 'Hopper', 'Blackwell']);
    expect(FP8_ARCHITECTURES_TEXT).toBe('Ada, Hopper and Blackwell');
  });

  it('picks the engines’ fp8 and int4 kernels by the table', () => {
    const fp8 = GPU_ARCHITECTURE_NAMES.map((a) => standardKernel('fp8', a));
    expect(fp8).toEqual(['fp8-marlin', 'fp8-marlin', 'fp8-marlin', 'fp8-gemm', 'fp8-gemm', 'fp8-gemm']);
    const int4 = GPU_ARCHITECTURE_NAMES.map((a) => standardKernel('int4', a));
    expect(int4).toEqual(['awq-gemm', 'awq-gemm', 'marlin', 'marlin', 'marlin', 'marlin']);
  });

  it('links virtual nodes of each architecture by 8 rails of its generation’s InfiniBand (HDR before Hopper, NDR from it)', () => {
    for (const a of GPU_ARCHITECTURE_NAMES) {
      const gpu = GPU_DATASHEETS.find((g) => g.architecture === a);
      expect(gpu, a).toBeDefined();
      const { network } = virtualNodes(Array<string>(9).fill(gpu?.id ?? ''), undefined);
      expect(network, a).toBe(a === 'Hopper' || a === 'Blackwell' ? '8x400Gb-IB' : '8x200Gb-IB');
    }
  });
});
