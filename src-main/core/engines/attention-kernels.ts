/**
 * Fused attention forward kernels (prefill) and the share of the GPU's dense fp16 tensor peak they
 * reach, by kernel, causal masking and the number of keys each query attends, from the kernels'
 * own published tables. A short sequence keeps the kernel's prologue and epilogue (and, causal, the
 * unequal work of its diagonal tiles) on a short K/V loop; a long one reaches the kernel's plateau,
 * which is set by how it overlaps its two matrix products with the softmax (FlashAttention-2:
 * none on Hopper, no TMA or wgmma; FlashAttention-3: warp-specialised, ping-pong).
 *
 * Calibration cells: FlashAttention-3 (Shah, Bikshandi, Zhang, Thakkar, Ramani, Dao; arXiv
 * 2407.08608, Figure 5: "Attention forward speed (FP16/BF16) on H100 80GB SXM5", batch x seqlen =
 * 16k, hidden 2048, head dim 128; the paper's own benchmark of its kernel and of FlashAttention-2),
 * bar labels as transcribed (the figure's numbers are printed above its bars):
 * - fa3-paper-fig5-hd128-noncausal: FlashAttention-2 309 350 362 368 370 370, FlashAttention-3
 *   467 565 625 638 646 648 TFLOP/s at 512 1k 2k 4k 8k 16k;
 * - fa3-paper-fig5-hd128-causal: FlashAttention-2 191 260 298 319 333 335, FlashAttention-3
 *   292 423 521 579 602 616.
 * Unsure: the 512 bar of FlashAttention-3 non-causal is transcribed 467 by one reading and 497 (with
 * cuDNN 467) by another; the causal panel is told from the non-causal one by its lower figures (its
 * title, as transcribed, names only the head dim). Head dims other than 128 take the 128 table.
 * Measured on the H100 SXM5 (dense bf16 989.4 TFLOP/s); another GPU of the architecture is priced at
 * the same share of its own peak. Architectures without a table: absent (the caller keeps the
 * architecture's flat fused-attention fraction). Pure.
 */

export const ATTENTION_KERNELS = ['fa2', 'fa3'] as const;
export type AttentionKernel = (typeof ATTENTION_KERNELS)[number];

interface KernelTable {
  /** TFLOP/s by key count (SEQLENS), without and with the causal mask. */
  full: readonly number[];
  causal: readonly number[];
}

interface ArchitectureTable {
  /** Dense fp16/bf16 peak of the GPU the table was measured on (TFLOP/s). */
  peak: number;
  kernels: Readonly<Record<AttentionKernel, KernelTable>>;
  from: readonly string[];
}

/** Keys per query (the benchmark's sequence length) of the published columns. */
const SEQLENS = [512, 1024, 2048, 4096, 8192, 16384] as const;

const TABLES: Readonly<Partial<Record<string, ArchitectureTable>>> = {
  Hopper: {
    peak: 989.4,
    kernels: {
      fa2: { full: [309, 350, 362, 368, 370, 370], causal: [191, 260, 298, 319, 333, 335] },
      fa3: { full: [467, 565, 625, 638, 646, 648], causal: [292, 423, 521, 579, 602, 616] },
    },
    from: ['fa3-paper-fig5-hd128-noncausal', 'fa3-paper-fig5-hd128-causal'],
  },
};

/** Linear in log2(keys) between the published lengths, flat beyond the first and the last. */
function interpolate(values: readonly number[], keys: number): number {
  const x = Math.log2(Math.max(1, keys));
  const first = Math.log2(SEQLENS[0]);
  const last = SEQLENS.length - 1;
  const at = Math.min(last, Math.max(0, x - first));
  const i = Math.min(last - 1, Math.floor(at));
  const lo = values[i] as number;
  const hi = values[i + 1] as number;
  return lo + (hi - lo) * (at - i);
}

/**
 * Share of the dense fp16 peak a fused attention forward reaches on the architecture, over `keys`
 * keys per query (causal: the sequence length, whose mask skips the upper half); undefined when
 * the architecture has no published table. FlashAttention-3 is a Hopper kernel: an architecture's
 * table lists the kernels it runs.
 */
export function attentionPeakShare(
  architecture: string,
  kernel: AttentionKernel,
  keys: number,
  causal: boolean,
): number | undefined {
  const table = TABLES[architecture];
  if (!table) return undefined;
  const k = table.kernels[kernel];
  return interpolate(causal ? k.causal : k.full, keys) / table.peak;
}
