/**
 * Kernel times of a GPU nobody profiled, from its datasheet (models/gpus.json) and the achieved
 * fractions of models/gpu-kernels.json, calibrated on published measurements. Nothing here
 * depends on this machine or its profile: the same GPU and model give the same numbers anywhere.
 *
 * Per kernel (µs), `kernelUs` of launch and tail added to each:
 * - GEMM {B,M,N,K}: tiles, in the spirit of NeuSight (ASPLOS'25). The output is cut into tiles
 *   (the architecture's tile, its rows shrunk to a power of two >= 16 for few-row GEMMs) whose
 *   padded FLOPs run at the dense tensor peak times `gemm` (`gemmFp8` in fp8); split-K and
 *   stream-K spread them over all SMs (no whole-wave rounding); a short K loop pays its prologue
 *   (K / (K + 64)). The time is the larger of that and the bytes at the achieved memory
 *   bandwidth, so few-row GEMMs (decode) are memory-bound as they are on the GPU.
 * - Attention {batch,heads,seq,headDim}: the fused kernel frameworks run (FlashAttention/SDPA) at
 *   `attention` of the tensor peak; a causal model's kernel skips the masked half of the scores.
 *   A stack that runs FlashAttention-2 (`fusedAttention`) where the architecture has faster kernels
 *   (Hopper: FlashAttention-3, cuDNN) gets that fraction times FlashAttention-2's rate over
 *   FlashAttention-3's at the sequence's key count, as FlashAttention-3's paper measured both on the
 *   H100 (engines/attention-kernels.ts): 0.57 of it at 2k keys causal, 0.55 at 8k.
 *   Unfused where the stack ran it so (`unfusedAttention`, unfused-attention.ts): two batched
 *   GEMMs through the tile model and the scores through memory. In a training step its backward
 *   is priced apart (Prediction.backwardUs): FlashAttention-2's at 2.5x the FLOPs and 63/73 of the
 *   forward's rate, or the unfused kernels' own; every other kernel's backward is twice its forward.
 * - Everything else (norms, element-wise ops, softmax, copies): bytes at the achieved bandwidth of
 *   the memory type (HBM vs GDDR), or its FLOPs at half the fp32 peak when those take longer.
 * - Quantized weights (serving): a GEMM's weight bytes are the packed format's; a many-row GEMM
 *   pays its dequantisation (`dequant` x its fp16 compute), a GEMV streams the packed bytes at
 *   `bandwidth` of the achieved bandwidth.
 * - fp8 GEMMs run at the fp8 peak (Transformer Engine style; other kernels stay in bf16), after a
 *   cast of their bf16 activations (3 bytes moved per element, one more kernel; 4 in training, the
 *   transpose written too, and the backward casts the output gradient likewise, once). A dtype
 *   the GPU has no units for is priced at its fp32 rate, with a warning.
 * In a training step compute runs at `sustained` of its burst rate: a step is one long saturated
 * run, so the board sits at its power limit and the SM clock below boost, where the fractions above
 * (mamf's best-of-sweep GEMMs, FlashAttention's tables) are short bursts at boost. mamf-finder
 * measures both on the same GPUs (MSMF over MAMF); memory-bound kernels keep their rate. An
 * architecture with no such measurement (Ampere) still takes the fitted `training` share of each
 * kernel's time. The band is the spread the calibration cells left (`band`). Pure.
 */
import { DTYPE_BYTES } from '../domain/dtypes.js';
import type { Dtype } from '../domain/measurement.js';
import type { GpuDatasheet } from '../planner/cost/datasheets.js';
import {
  architectureEfficiency,
  KERNEL_EFFICIENCIES,
  memoryEfficiency,
  sustainedShare,
  type KernelEfficiencies,
  type WeightKindEfficiency,
} from './kernel-efficiency.js';
import type { FusedAttentionKernel } from './attention-kernels.js';
import { attentionPeakShare } from '../engines/attention-kernels.js';
import type { OpQuery, Prediction, Predictor, PredictorJson, Sample } from './types.js';
import {
  unfusedAttentionBackwardUs,
  unfusedAttentionForwardUs,
  type UnfusedAttentionPricing,
  type UnfusedAttentionShape,
} from './unfused-attention.js';

/**
 * FlashAttention-2's backward against its forward (Dao 2023, Sec. 4.1, A100 80GB SXM4): up to 73% of
 * the peak forward and up to 63% backward; the backward's matmul FLOPs are 2.5x the forward's.
 */
export const FUSED_ATTENTION_BACKWARD = { flops: 2.5, rate: 63 / 73 } as const;

export interface DatasheetPredictorOptions {
  /** Served weights in a packed format: its name (gpu-kernels.json `weights`) and bytes per weight. */
  weights?: { format: string; bytesPerWeight: number };
  /** The model masks future tokens (decoders): its attention kernel skips half the scores. */
  causalAttention?: boolean;
  /**
   * Kernels of a training step: compute runs at the architecture's `sustained` share of its burst
   * rate (a step holds the board at its power limit); where that is unmeasured, each kernel takes
   * 1 / `training` of its own time.
   */
  training?: boolean;
  /**
   * Attention as batched GEMMs and a softmax over the scores in memory (SC'21-era Megatron-LM), not
   * the fused kernel; `dropout`: the probabilities are dropped out too (training a model with dropout).
   */
  unfusedAttention?: { dropout: boolean };
  /** The fused attention kernel the stack runs (default the architecture's newest). */
  fusedAttention?: FusedAttentionKernel;
  /** fp8 GEMMs whose inputs are already fp8 (a GEMM benchmark): no cast priced. Default false. */
  fp8Inputs?: boolean;
  /** Other fractions (tests, calibration); default the shipped ones. */
  table?: KernelEfficiencies;
}

const dim = (shape: Record<string, number>, k: string, dflt = 1): number => shape[k] ?? dflt;

export class DatasheetPredictor implements Predictor {
  static readonly NAME = 'datasheet';
  static readonly VERSION = 1;
  readonly name = DatasheetPredictor.NAME;
  readonly version = DatasheetPredictor.VERSION;
  private readonly table: KernelEfficiencies;
  private readonly weightKind: WeightKindEfficiency | null;

  constructor(
    readonly datasheet: GpuDatasheet,
    private readonly opts: DatasheetPredictorOptions = {},
  ) {
    this.table = opts.table ?? KERNEL_EFFICIENCIES;
    this.weightKind = opts.weights ? (this.table.weights[opts.weights.format] ?? null) : null;
  }

  /** Nothing to learn: the fractions ship with the product. */
  train(_samples: readonly Sample[]): void {}

  predict(queries: readonly OpQuery[]): Prediction[] {
    const { low, high } = this.table.band;
    return queries.map((q) => {
      const { us, warning } = this.kernelUs(q);
      const own = !this.opts.training
        ? {}
        : q.op === 'Attention'
          ? { backwardUs: this.attentionBackwardUs(q) }
          : this.isCastFp8Gemm(q)
            ? { backwardUs: this.fp8GemmBackwardUs(q) }
            : {};
      return { timeUs: us, lowUs: us * low, highUs: us * high, warning, ...own };
    });
  }

  toJSON(): PredictorJson {
    return { name: this.name, version: this.version, gpu: this.datasheet.id };
  }

  private get arch() {
    return architectureEfficiency(this.datasheet.architecture, this.table);
  }

  /** Achieved memory bandwidth, bytes per µs. */
  private bytesPerUs(): number {
    return this.datasheet.memory.bandwidthGBps * memoryEfficiency(this.datasheet.memory.type, this.table) * 1e3;
  }

  /** Dense tensor (or fp32) peak for a dtype, GFLOP/s, and whether the GPU lacks such units. */
  private peakGflops(dtype: Dtype): { gflops: number; missing: boolean } {
    const t = this.datasheet.tflops;
    const own: Partial<Record<Dtype, number | null | undefined>> = {
      fp32: t.fp32,
      fp16: t.fp16,
      bf16: t.bf16,
      fp8: t.fp8,
      int8: t.int8,
    };
    const v = own[dtype];
    const share = this.computeShare();
    return v
      ? { gflops: v * 1e3 * share, missing: false }
      : { gflops: t.fp32 * 1e3 * share, missing: dtype !== 'int32' && dtype !== 'int64' };
  }

  /**
   * The share of the burst compute rate a run holds: `sustained` in a training step (the SM clock
   * under the board's power limit), else 1. Memory-bound kernels keep their rate.
   */
  private computeShare(): number {
    return this.opts.training ? sustainedShare(this.arch) : 1;
  }

  private kernelUs(q: OpQuery): { us: number; warning: string | null } {
    const { gflops, missing } = this.peakGflops(q.dtype);
    const warning = missing ? `${this.datasheet.name} has no ${q.dtype} units: priced at its fp32 rate` : null;
    const body =
      q.op === 'MatMul' || q.op === 'Gemm'
        ? this.gemmUs(q, gflops)
        : q.op === 'Attention'
          ? this.attentionUs(q, gflops)
          : Math.max(
              q.bytes / this.bytesPerUs(),
              q.flops / (this.datasheet.tflops.fp32 * 0.5 * 1e6 * this.computeShare()),
            );
    return { us: this.trainingShare(body + this.arch.kernelUs), warning };
  }

  /** A kernel's time in a training step where the architecture has only the fitted `training` share (no `sustained`). */
  private trainingShare(us: number): number {
    return this.opts.training ? us / (this.arch.training ?? 1) : us;
  }

  /**
   * Attention's backward in a training step (µs). Fused: FlashAttention-2's backward runs 2.5x the
   * forward's matmul FLOPs (five GEMMs to the forward's two, S and P recomputed) at 63/73 of the
   * forward's rate, reading and writing twice the forward's bytes; unfused: its own GEMMs and bytes.
   */
  private attentionBackwardUs(q: OpQuery): number {
    const launch = this.arch.kernelUs;
    if (this.opts.unfusedAttention) {
      const body = unfusedAttentionBackwardUs(
        this.attentionShape(q),
        this.opts.unfusedAttention.dropout,
        this.unfusedPricing(q, this.peakGflops(q.dtype).gflops),
      );
      return this.trainingShare(body);
    }
    const work = this.opts.causalAttention ? 0.5 : 1;
    const rate = this.peakGflops(q.dtype).gflops * this.attentionFraction(q) * FUSED_ATTENTION_BACKWARD.rate * 1e3;
    const computeUs = (q.flops * work * FUSED_ATTENTION_BACKWARD.flops) / rate;
    return this.trainingShare(Math.max(computeUs, (2 * q.bytes) / this.bytesPerUs()) + launch);
  }

  /** `cast`: with the fp8 cast of its activation input (the forward GEMM), else the GEMM alone. */
  private gemmUs(q: OpQuery, gflops: number, cast = true): number {
    const B = dim(q.shape, 'B');
    const M = dim(q.shape, 'M');
    const N = dim(q.shape, 'N');
    const K = dim(q.shape, 'K');
    const [tileM, tileN] = this.arch.tile;
    const rows = Math.min(tileM, 2 ** Math.ceil(Math.log2(Math.max(16, M))));
    // The output rounded up to whole tiles; split-K and stream-K kernels spread the tiles' work
    // over every SM, so there is no whole-wave rounding.
    const paddedFlops = 2 * B * Math.ceil(M / rows) * rows * Math.ceil(N / tileN) * tileN * K;
    const fraction = q.dtype === 'fp8' ? (this.arch.gemmFp8 ?? this.arch.gemm) : this.arch.gemm;
    let computeUs = paddedFlops / (gflops * fraction * 1e3 * (K / (K + 64)));
    let bytes = q.bytes;
    const w = this.opts.weights;
    if (w && this.weightKind) {
      const elementBytes = DTYPE_BYTES[q.dtype];
      bytes = Math.max(0, q.bytes - B * K * N * elementBytes) + B * K * N * w.bytesPerWeight;
      if (M > 16) computeUs *= 1 + this.weightKind.dequant;
      const memoryUs = bytes / (this.bytesPerUs() * this.weightKind.bandwidth);
      return Math.max(computeUs, memoryUs);
    }
    const castUs = cast ? this.fp8CastUs(q.dtype, B * M * K, this.opts.training ? 4 : 3) : 0;
    return Math.max(computeUs, bytes / this.bytesPerUs()) + castUs;
  }

  /**
   * An fp8 GEMM's activation input is cast from bf16 first, one more kernel: serving reads 2 bytes
   * and writes 1 per element; training (Transformer Engine's Linear, delayed scaling, its default
   * recipe on Hopper) writes the transpose too for the weight gradient (`input_quantizer.set_usage(
   * rowwise=True, columnwise=backward_needs_input)`: read 2, write 1 + 1). Weights are cast once per
   * step (fp8 weight cache) or stored in fp8 for serving: not counted. 0 in other dtypes.
   */
  private fp8CastUs(dtype: Dtype, elements: number, bytesPerElement: number): number {
    return dtype === 'fp8' && !this.opts.fp8Inputs
      ? (elements * bytesPerElement) / this.bytesPerUs() + this.arch.kernelUs
      : 0;
  }

  private isCastFp8Gemm(q: OpQuery): boolean {
    return (q.op === 'MatMul' || q.op === 'Gemm') && q.dtype === 'fp8' && !this.opts.fp8Inputs;
  }

  /**
   * An fp8 GEMM's backward in a training step: the input-gradient and weight-gradient GEMMs (each as
   * long as the forward's), after one cast of the output gradient dY to fp8 with its transpose
   * (Transformer Engine's Linear backward: `grad_output_quantizer.set_usage(rowwise=True,
   * columnwise=True)`, the dgrad GEMM reads it row-wise, the wgrad GEMM column-wise: read 2 bytes,
   * write 1 + 1 per element of dY). The forward's input cast is not run again: wgrad reads its saved
   * transpose.
   */
  private fp8GemmBackwardUs(q: OpQuery): number {
    const gemm = this.gemmUs(q, this.peakGflops(q.dtype).gflops, false) + this.arch.kernelUs;
    const dy = dim(q.shape, 'B') * dim(q.shape, 'M') * dim(q.shape, 'N');
    return this.trainingShare(2 * gemm + this.fp8CastUs(q.dtype, dy, 4));
  }

  private attentionUs(q: OpQuery, gflops: number): number {
    if (this.opts.unfusedAttention) return this.unfusedAttentionUs(q, gflops, this.opts.unfusedAttention.dropout);
    const work = this.opts.causalAttention ? 0.5 : 1;
    const computeUs = (q.flops * work) / (gflops * this.attentionFraction(q) * 1e3);
    return Math.max(computeUs, q.bytes / this.bytesPerUs());
  }

  /**
   * The fused kernel's fraction of the tensor peak: `attention`, or where the stack runs
   * FlashAttention-2 on an architecture whose newest kernels outrun it, `attention` times
   * FlashAttention-2's rate over FlashAttention-3's at this many keys (their published table).
   */
  private attentionFraction(q: OpQuery): number {
    const own = this.arch.attention;
    if (this.opts.fusedAttention !== 'flash-attention-2') return own;
    const [keys, causal, arch] = [dim(q.shape, 'seq'), this.opts.causalAttention ?? false, this.datasheet.architecture];
    const flash2 = attentionPeakShare(arch, 'fa2', keys, causal);
    const flash3 = attentionPeakShare(arch, 'fa3', keys, causal);
    return flash2 !== undefined && flash3 !== undefined ? (own * flash2) / flash3 : own;
  }

  /** Unfused attention's forward (µs) less the one launch kernelUs adds back. */
  private unfusedAttentionUs(q: OpQuery, gflops: number, dropout: boolean): number {
    return (
      unfusedAttentionForwardUs(this.attentionShape(q), dropout, this.unfusedPricing(q, gflops)) - this.arch.kernelUs
    );
  }

  private attentionShape(q: OpQuery): UnfusedAttentionShape {
    const d = (k: string): number => dim(q.shape, k);
    return { batch: d('batch'), heads: d('heads'), seq: d('seq'), headDim: d('headDim') };
  }

  /** Unfused attention's kernels on this GPU, one launch each; its GEMMs and scores stay 16-bit in an fp8 model. */
  private unfusedPricing(q: OpQuery, gflops: number): UnfusedAttentionPricing {
    const dtype: Dtype = q.dtype === 'fp8' ? 'bf16' : q.dtype;
    const elementBytes = DTYPE_BYTES[dtype];
    const launch = this.arch.kernelUs;
    const peak = dtype === q.dtype ? gflops : this.peakGflops(dtype).gflops;
    return {
      gemmUs: (shape) =>
        this.gemmUs(
          {
            ...q,
            op: 'MatMul',
            family: 'gemm',
            shape,
            dtype,
            flops: 2 * shape.B * shape.M * shape.N * shape.K,
            bytes: shape.B * (shape.M * shape.K + shape.K * shape.N + shape.M * shape.N) * elementBytes,
          },
          peak,
        ) + launch,
      bytesUs: (bytes) => bytes / this.bytesPerUs() + launch,
    };
  }
}
