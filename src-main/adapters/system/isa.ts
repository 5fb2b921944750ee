import type { CpuInfo } from '../../core/domain/hardware.js';

/** ISA features from a /proc/cpuinfo-style flag string (systeminformation's cpuFlags()). */
export function isaFromFlags(flagString: string, arch: string): CpuInfo['isa'] {
  const flags = new Set(flagString.toLowerCase().split(/\s+/).filter(Boolean));
  const has = (...names: string[]): boolean => names.some((n) => flags.has(n));
  return {
    sse42: has('sse4_2', 'sse4.2'),
    avx: has('avx'),
    avx2: has('avx2'),
    fma: has('fma', 'fma3'),
    avx512f: has('avx512f'),
    avx512bf16: has('avx512_bf16', 'avx512bf16'),
    avx512vnni: has('avx512_vnni', 'avx512vnni'),
    amx: has('amx_tile', 'amx_bf16', 'amx_int8'),
    neon: arch === 'arm64' || arch === 'aarch64' || has('asimd', 'neon'),
  };
}

/**
 * Peak fp32 FLOPs per cycle per core implied by the ISA: FMA units x lanes x 2.
 * An estimate for the "theoretical peak" line next to measured figures: Intel cores
 * with AVX-512 are counted with two FMA units; AMD Zen 4 (family 25) executes AVX-512 as
 * two 256-bit halves (2 x 8 lanes), Zen 5 (family 26) has full 512-bit FMA units
 * (2 x 16 lanes). An AMD CPU of unknown family with AVX-512 is counted as Zen 4.
 */
export function fp32FlopsPerCycle(isa: CpuInfo['isa'], manufacturer: string, family: number | null = null): number {
  const amd = /amd/i.test(manufacturer);
  if (isa.avx512f && isa.fma) return amd && (family === null || family < 26) ? 32 : 64;
  if (isa.avx2 && isa.fma) return 32;
  if (isa.avx) return 16;
  if (isa.neon) return 16;
  if (isa.sse42) return 8;
  return 2;
}
