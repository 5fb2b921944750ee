/** The theoretical CPU peak every view prints: cores x max boost clock x FLOP/cycle, or unknown and why. */
import { describe, expect, it } from 'vitest';
import type { CpuInfo } from '../../../../src-main/core/domain/hardware.js';
import { cpuPeak } from '../../../../src-main/core/profiler/cpu-peak.js';
import { fp32FlopsPerCycle, isaFromFlags } from '../../../../src-main/adapters/system/isa.js';

/** A CPU as the probe records it: the FLOP/cycle from its flags and identity, as probe-system.ts reckons it. */
function cpu(o: {
  brand: string;
  family: number;
  model: number;
  flags: string;
  cores: number;
  base: number | null;
  max: number | null;
}): CpuInfo {
  const isa = isaFromFlags(o.flags, 'x64');
  return {
    manufacturer: 'AMD',
    brand: o.brand,
    physicalCores: o.cores,
    logicalCores: o.cores * 2,
    baseClockGHz: o.base,
    maxClockGHz: o.max,
    cacheBytes: { l1d: null, l1i: null, l2: null, l3: null },
    isa,
    fp32FlopsPerCycle: fp32FlopsPerCycle(isa, {
      manufacturer: 'AMD',
      brand: o.brand,
      family: o.family,
      model: o.model,
    }),
  };
}

const AVX512 = 'sse4_2 avx avx2 fma avx512f';
const AVX2 = 'sse4_2 avx avx2 fma';
const zen5 = cpu({ brand: 'EPYC 9575F', family: 26, model: 2, flags: AVX512, cores: 64, base: 3.3, max: 5.0 });
const zen4 = cpu({ brand: 'Ryzen 9 7950X', family: 25, model: 0x61, flags: AVX512, cores: 16, base: 4.5, max: 5.7 });
const zen3 = cpu({ brand: 'Ryzen 9 5950X', family: 25, model: 0x21, flags: AVX2, cores: 16, base: 3.4, max: 4.9 });
/** The virtual machine: 2 vCPUs of a Zen 5 EPYC, a nominal 2.6 GHz and no boost clock reported. */
const vm = cpu({ brand: 'EPYC', family: 26, model: 2, flags: AVX512, cores: 2, base: 2.6, max: null });

describe('the theoretical CPU peak', () => {
  it('is cores x max boost clock x the FLOP/cycle of Zen 5, Zen 4 and Zen 3 datapaths', () => {
    // Zen 5: two 512-bit FMA pipes, 64 FLOP/cycle.
    expect(cpuPeak(zen5, null, [])).toMatchObject({
      state: 'ceiling',
      gflops: 64 * 5.0 * 64,
      flopsPerCycle: 64,
      clockGHz: 5.0,
      label: '20480 GFLOP/s at 5.00 GHz max boost',
    });
    // Zen 4: AVX-512 on two 256-bit pipes, 32; Zen 3: AVX2 on two 256-bit FMA pipes, 32.
    expect(cpuPeak(zen4, null, []).gflops).toBeCloseTo(16 * 5.7 * 32, 9);
    expect(cpuPeak(zen3, null, []).gflops).toBeCloseTo(16 * 4.9 * 32, 9);
    expect(cpuPeak(zen3, null, []).note).toBe(
      'theoretical fp32 peak 2509 GFLOP/s = 16 cores x 4.90 GHz max boost clock x 32 FLOP/cycle: a ceiling no kernel ' +
        'passes; sustained all-core clocks run below the max boost, so the best kernels reach less',
    );
  });

  it('counts the cores the threads use, at most the physical ones', () => {
    expect(cpuPeak(zen4, 1, []).gflops).toBeCloseTo(5.7 * 32, 9);
    expect(cpuPeak(zen4, 64, []).cores).toBe(16);
  });

  it('is unknown without a boost clock, and says what the reported clock would give and what was measured', () => {
    const p = cpuPeak(vm, 2, [{ gflops: 526, threads: 2 }]);
    expect(p).toMatchObject({ state: 'no-boost-clock', gflops: null, boostClockGHz: null, clockGHz: 2.6 });
    expect(p.impliedClockGHz).toBeCloseTo(526 / (2 * 64), 9);
    expect(p.label).toBe('unknown: no boost clock reported');
    expect(p.note).toBe(
      'theoretical fp32 peak unknown: the OS reports a 2.60 GHz clock but no boost clock (a virtual machine often ' +
        'reports only a nominal one); at that clock, 2 cores x 2.60 GHz x 64 FLOP/cycle would be 333 GFLOP/s, but ' +
        '526 GFLOP/s measured on 2 cores needs 4.11 GHz or more at 64 FLOP/cycle: the cores boost past it',
    );
    // An older probe copied the base clock as the maximum: no boost clock either.
    expect(cpuPeak({ ...vm, maxClockGHz: 2.6 }, 2, []).state).toBe('no-boost-clock');
    expect(cpuPeak({ ...vm, baseClockGHz: null }, 2, []).state).toBe('no-clock');
  });

  it('is unknown at every thread count once a peak measured at any of them needs a faster clock than the boost', () => {
    // 250 GFLOP/s on one core at 32 FLOP/cycle needs 7.81 GHz: above the 5.70 GHz boost.
    const measured = [
      { gflops: 250, threads: 1 },
      { gflops: 2000, threads: 16 },
    ];
    for (const threads of [1, 16, null]) {
      const p = cpuPeak(zen4, threads, measured);
      expect(p.state).toBe('measured-above');
      expect(p.gflops).toBeNull();
    }
    expect(cpuPeak(zen4, 16, measured).note).toBe(
      'theoretical fp32 peak unknown: 250 GFLOP/s measured on 1 core needs 7.81 GHz or more at 32 FLOP/cycle, above ' +
        'the 5.70 GHz max boost clock the OS reports (16 cores x 5.70 GHz x 32 FLOP/cycle = 2918 GFLOP/s): the cores ' +
        'run faster than reported or do more than 32 FLOP/cycle',
    );
    // Measured below the ceiling at every thread count: it stands.
    expect(cpuPeak(zen4, 16, [{ gflops: 150, threads: 1 }]).state).toBe('ceiling');
  });
});
