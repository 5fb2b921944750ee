/** The attention kernels a training stack runs: fused (FlashAttention, SDPA, cuDNN) or unfused (batched GEMMs and a softmax in memory). Pure. */
export const ATTENTION_KERNELS = ['fused', 'unfused'] as const;
export type AttentionKernel = (typeof ATTENTION_KERNELS)[number];
