/**
 * A datasheet GPU as the engine model prices it: achieved memory bandwidth, dense tensor peaks per
 * compute dtype, the architecture's calibrated GEMM and attention fractions, its GEMM tile, and the
 * fixed time of one kernel on the GPU. The fractions are the shipped ones (models/gpu-kernels.json)
 * or those a profiled GPU of the same architecture lends. Pure.
 */
import type { GpuDatasheet } from '../planner/cost/datasheets.js';
import {
  architectureEfficiency,
  KERNEL_EFFICIENCIES,
  memoryEfficiency,
  sustainedShare,
  type KernelEfficiencies,
} from '../predictor/kernel-efficiency.js';

export type ComputeDtype = 'fp16' | 'fp8' | 'int8' | 'fp32';

export interface GpuSpec {
  name: string;
  architecture: string;
  smCount: number;
  /** SM boost clock (MHz, cycles per µs): with smCount, the cycles a latency-bound kernel's SMs issue loads in. */
  clockMHz: number;
  memoryBytes: number;
  /** Achieved DRAM bandwidth, bytes per µs. */
  bytesPerUs: number;
  /** Dense peak per compute dtype (FLOP per µs); 0 where the GPU has no such units. */
  peak: Record<ComputeDtype, number>;
  /**
   * fp16 tensor math accumulating in fp16 (FLOP per µs), where the datasheet lists it apart
   * (GeForce: twice the fp32-accumulate rate of `peak.fp16`); absent: as `peak.fp16`.
   */
  peakFp16AccFp16?: number;
  /** Large GEMMs' share of the peak (cuBLAS), fp8 GEMMs', and fused attention's. */
  gemmFraction: number;
  gemmFp8Fraction: number;
  attentionFraction: number;
  /**
   * The share of those burst rates compute holds once the board sits at its power limit (the
   * architecture's `sustained` of models/gpu-kernels.json: mamf-finder's MSMF over MAMF; 1 where
   * none is measured). The fractions above are short bursts at the boost clock (mamf's best-of-sweep
   * GEMMs, FlashAttention's tables); an engine's compute-bound kernels (a prefill, a large batch's
   * GEMMs) run back to back and draw the board's full power, so the SM clock settles below boost.
   * Memory-bound kernels keep their rate.
   */
  sustained: number;
  /** Output tile of a GEMM kernel per SM and wave: [rows, columns]. */
  tile: readonly [number, number];
  /** Launch, ramp and tail of one kernel on the GPU when kernels are queued back to back (µs). */
  kernelUs: number;
}

export function gpuSpec(d: GpuDatasheet, table: KernelEfficiencies = KERNEL_EFFICIENCIES): GpuSpec {
  const arch = architectureEfficiency(d.architecture, table);
  const t = d.tflops;
  const perUs = (tflops: number | null | undefined): number => (tflops ?? 0) * 1e6;
  return {
    name: d.name,
    architecture: d.architecture,
    smCount: d.smCount,
    clockMHz: d.boostClockMHz,
    memoryBytes: d.memory.sizeGiB * 2 ** 30,
    bytesPerUs: d.memory.bandwidthGBps * memoryEfficiency(d.memory.type, table) * 1e3,
    peak: { fp16: perUs(t.bf16 ?? t.fp16), fp8: perUs(t.fp8), int8: perUs(t.int8), fp32: perUs(t.fp32) },
    ...(t.fp16AccFp16 ? { peakFp16AccFp16: perUs(t.fp16AccFp16) } : {}),
    gemmFraction: arch.gemm,
    gemmFp8Fraction: arch.gemmFp8 ?? arch.gemm,
    attentionFraction: arch.attention,
    sustained: sustainedShare(arch),
    tile: arch.tile,
    kernelUs: arch.kernelUs,
  };
}
