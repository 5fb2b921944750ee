/** The attention kernels a training stack runs: fused (FlashAttention, SDPA, cuDNN) or unfused (batched GEMMs and a softmax in memory). Pure. */
export const ATTENTION_KERNELS = ['fused', 'unfused'] as const;
export type AttentionKernel = (typeof ATTENTION_KERNELS)[number];

/**
 * Which fused kernel: FlashAttention-2 (the flash-attn 2.x package, PyTorch SDPA's flash backend),
 * or the newest the architecture has (cuDNN fused attention through Transformer Engine,
 * FlashAttention-3 on Hopper). On Ampere and older they are the same kernel; on Hopper
 * FlashAttention-2 reaches far less of the peak (engines/attention-kernels.ts, FlashAttention-3's
 * paper: 298 against 521 TFLOP/s causal at 2k keys).
 */
export const FUSED_ATTENTION_KERNELS = ['flash-attention-2', 'newest'] as const;
export type FusedAttentionKernel = (typeof FUSED_ATTENTION_KERNELS)[number];
