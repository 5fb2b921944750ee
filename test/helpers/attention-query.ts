/**
 * A fused-attention kernel query for the datasheet predictor's tests: bf16, the FLOPs and bytes of
 * FlashAttention's forward over the full score matrix (QK^T and PV: 4 x b x h x s^2 x d; Q, K, V, O read or written once).
 */
import type { DeviceFeatures, OpQuery } from '../../src-main/core/predictor/types.js';

export interface AttentionShape {
  batch: number;
  heads: number;
  seq: number;
  headDim: number;
}

export function attentionQuery(device: { features: DeviceFeatures }, shape: AttentionShape): OpQuery {
  return {
    op: 'Attention',
    family: 'attention',
    shape: { ...shape },
    dtype: 'bf16',
    flops: 4 * shape.batch * shape.heads * shape.seq * shape.seq * shape.headDim,
    bytes: 4 * shape.batch * shape.seq * shape.heads * shape.headDim * 2,
    device: device.features,
  };
}
