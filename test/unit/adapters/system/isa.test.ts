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

  it('implies FLOPs per cycle from the datapath: pipes x lanes x 2 for an FMA', () => {
    const avx512 = isaFromFlags('avx avx2 fma avx512f', 'x64');
    const avx2 = isaFromFlags('avx avx2 fma', 'x64');
    const amd = (family: number | null, model: number | null = null, brand = 'AMD EPYC') => ({
      manufacturer: 'AuthenticAMD',
      brand,
      family,
      model,
    });
    const intel = { manufacturer: 'GenuineIntel', brand: 'Intel Xeon', family: 6, model: 143 };
    expect(fp32FlopsPerCycle(avx512, intel)).toBe(64);
    // Zen 5 (family 26) has two 512-bit FMA pipes; its mobile parts (Ryzen AI 300) and Zen 4 (family 25)
    // run AVX-512 on two 256-bit ones; an AMD CPU of unknown family is counted as Zen 4.
    expect(fp32FlopsPerCycle(avx512, amd(26))).toBe(64);
    expect(fp32FlopsPerCycle(avx512, amd(26, 0x44, 'AMD RYZEN AI MAX+ 395'))).toBe(64);
    expect(fp32FlopsPerCycle(avx512, amd(26, 0x24, 'AMD Ryzen AI 9 HX 370'))).toBe(32);
    expect(fp32FlopsPerCycle(avx512, amd(25))).toBe(32);
    expect(fp32FlopsPerCycle(avx512, amd(null))).toBe(32);
    // Zen 3 and Zen 2: two 256-bit FMA pipes; Zen 1 (family 23, models below 0x30): two 128-bit ones.
    expect(fp32FlopsPerCycle(avx2, amd(25, 0x21))).toBe(32);
    expect(fp32FlopsPerCycle(avx2, amd(23, 0x31))).toBe(32);
    expect(fp32FlopsPerCycle(avx2, amd(23, 0x01))).toBe(16);
    expect(fp32FlopsPerCycle(avx2, intel)).toBe(32);
    expect(fp32FlopsPerCycle(isaFromFlags('sse4_2 avx', 'x64'), intel)).toBe(16);
    expect(fp32FlopsPerCycle(isaFromFlags('sse4_2', 'x64'), intel)).toBe(8);
  });
});
