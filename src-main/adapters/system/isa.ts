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
 * The floating-point datapaths a core can have: fp32 FLOPs per cycle = pipes x (bits / 32) lanes x FLOPs per
 * lane (2 for a fused multiply-add, 1 where adds and multiplies go to separate pipes). Sources: Agner Fog, "The
 * microarchitecture of Intel, AMD and VIA CPUs" (agner.org/optimize); AMD's Software Optimization Guides for
 * family 17h (Zen 1/2), 19h (Zen 3/4) and 1Ah (Zen 5); A. J. Yee, "Zen4's AVX512 teardown" (2022) and "Zen5's
 * AVX512 teardown" (2024), numberworld.org/blogs.
 */
const FP_DATAPATHS = {
  /** Zen 5 desktop and server (family 26; EPYC 9005, Ryzen 9000), Intel Skylake-SP and later Xeons: 64. */
  'avx512 on two 512-bit FMA pipes': { pipes: 2, bits: 512, flopsPerLane: 2 },
  /** Zen 4 (family 25) runs each 512-bit op on two 256-bit halves; so does Zen 5 mobile (Ryzen AI 300): 32. */
  'avx512 on two 256-bit FMA pipes': { pipes: 2, bits: 256, flopsPerLane: 2 },
  /** Intel Haswell and later, Zen 2 and Zen 3: 32. */
  'avx2 on two 256-bit FMA pipes': { pipes: 2, bits: 256, flopsPerLane: 2 },
  /** Zen 1 and Zen+ (family 23, models below 0x30) split each 256-bit op into two 128-bit halves: 16. */
  'avx2 on two 128-bit FMA pipes': { pipes: 2, bits: 128, flopsPerLane: 2 },
  /** Sandy Bridge and Ivy Bridge: one 256-bit add and one 256-bit multiply pipe, no FMA: 16. */
  'avx on a 256-bit add and a 256-bit multiply pipe': { pipes: 2, bits: 256, flopsPerLane: 1 },
  /** Cortex-A76 and Neoverse N1; Apple's and Neoverse V2's cores have four such pipes (32): a count half theirs. */
  'neon on two 128-bit FMA pipes': { pipes: 2, bits: 128, flopsPerLane: 2 },
  'sse on a 128-bit add and a 128-bit multiply pipe': { pipes: 2, bits: 128, flopsPerLane: 1 },
  'scalar FMA': { pipes: 1, bits: 32, flopsPerLane: 2 },
} as const;
type FpDatapath = keyof typeof FP_DATAPATHS;

/** What identifies a core's datapath beyond its ISA flags: x86 family and model numbers, the brand string. */
export interface CpuIdentity {
  manufacturer: string;
  brand: string;
  family: number | null;
  model: number | null;
}

/**
 * The datapath a core has, from its ISA and identity. Intel cores with AVX-512 are counted with two FMA pipes,
 * though Ice Lake and Tiger Lake client cores and some Xeon Bronze and Silver have one: their figure is twice the
 * real one, still a ceiling. An AMD CPU of unknown family with AVX-512 is counted as Zen 4.
 */
function fpDatapath(isa: CpuInfo['isa'], cpu: CpuIdentity): FpDatapath {
  const amd = /amd/i.test(cpu.manufacturer);
  if (isa.avx512f && isa.fma) {
    if (!amd) return 'avx512 on two 512-bit FMA pipes';
    const zen5 = cpu.family !== null && cpu.family >= 26;
    return zen5 && !/ryzen ai (?!max)/i.test(cpu.brand)
      ? 'avx512 on two 512-bit FMA pipes'
      : 'avx512 on two 256-bit FMA pipes';
  }
  if (isa.avx2 && isa.fma)
    return amd && cpu.family === 23 && cpu.model !== null && cpu.model < 0x30
      ? 'avx2 on two 128-bit FMA pipes'
      : 'avx2 on two 256-bit FMA pipes';
  if (isa.avx) return 'avx on a 256-bit add and a 256-bit multiply pipe';
  if (isa.neon) return 'neon on two 128-bit FMA pipes';
  if (isa.sse42) return 'sse on a 128-bit add and a 128-bit multiply pipe';
  return 'scalar FMA';
}

/** Peak fp32 FLOPs per cycle per core: the datapath's pipes x lanes x FLOPs per lane. */
export function fp32FlopsPerCycle(isa: CpuInfo['isa'], cpu: CpuIdentity): number {
  const d = FP_DATAPATHS[fpDatapath(isa, cpu)];
  return d.pipes * (d.bits / 32) * d.flopsPerLane;
}
