import { describe, expect, it } from 'vitest';
import { fp32FlopsPerCycle, isaFromFlags } from '../../../../src-main/adapters/system/isa.js';

describe('ISA flags', () => {
  it('reads AVX2, FMA and AVX-512 features from /proc/cpuinfo flags', () => {
    const isa = isaFromFlags('fpu sse4_2 avx avx2 fma avx512f avx512_bf16 avx512_vnni', 'x64');
    expect(isa).toMatchObject({ avx2: true, fma: true, avx512f: true, avx512bf16: true, avx512vnni: true, amx: false });
  });

  it('recognises AMX and ARM NEON', () => {
    expect(isaFromFlags('amx_tile amx_bf16 avx512f fma', 'x64').amx).toBe(true);
    expect(isaFromFlags('fp asimd evtstrm', 'arm64').neon).toBe(true);
  });

  it('implies FLOPs per cycle from the widest FMA', () => {
    const avx512 = isaFromFlags('avx avx2 fma avx512f', 'x64');
    expect(fp32FlopsPerCycle(avx512, 'GenuineIntel')).toBe(64);
    expect(fp32FlopsPerCycle(avx512, 'AMD')).toBe(32);
    // Zen 4 (family 25) splits AVX-512 into 256-bit halves; Zen 5 (family 26) has full 512-bit FMA units.
    expect(fp32FlopsPerCycle(avx512, 'AuthenticAMD', 25)).toBe(32);
    expect(fp32FlopsPerCycle(avx512, 'AuthenticAMD', 26)).toBe(64);
    expect(fp32FlopsPerCycle(isaFromFlags('avx avx2 fma', 'x64'), 'Intel')).toBe(32);
    expect(fp32FlopsPerCycle(isaFromFlags('sse4_2', 'x64'), 'Intel')).toBe(8);
  });
});
