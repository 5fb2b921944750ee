/**
 * A dense transformer block's GEMMs beside its tensor-parallel collectives, as shares of the block's
 * forward FLOPs (TensorSplit.gemms), read off the first block's nodes: attention's input
 * projections (qkv, or q, k, v) and its output projection, the MLP's input (fc, or gate and up)
 * and output (proj or down) projections. A mixture-of-experts block, or one whose GEMMs are not
 * found, gets none (its collectives are priced whole). Pure.
 */
import { attentionCoreName, blockName, isBlockName } from '../../catalog/block-names.js';
import type { Workload } from '../../workload/types.js';
import type { BlockGemms, PlanLayer } from '../types.js';

/** The shares of block 0's forward FLOPs, or null when a part is missing. */
export function blockGemms(w: Pick<Workload, 'nodes'>): BlockGemms | null {
  const pre = `${blockName(0)}.`;
  const core = attentionCoreName(blockName(0));
  const shares: BlockGemms = { attnIn: 0, attnOut: 0, mlpIn: 0, mlpOut: 0 };
  let total = 0;
  for (const n of w.nodes) {
    if (!n.name.startsWith(pre)) continue;
    total += n.flops;
    if (n.family !== 'gemm' || n.name.startsWith(core)) continue;
    if (n.name.includes('.mlp.experts.')) return null;
    if (n.name.endsWith('.attn.out')) shares.attnOut += n.flops;
    else if (n.name.includes('.attn.')) shares.attnIn += n.flops;
    else if (n.name.endsWith('.mlp.proj') || n.name.endsWith('.mlp.down')) shares.mlpOut += n.flops;
    else if (n.name.includes('.mlp.')) shares.mlpIn += n.flops;
  }
  if (total <= 0 || Object.values(shares).some((v) => v <= 0)) return null;
  return {
    attnIn: shares.attnIn / total,
    attnOut: shares.attnOut / total,
    mlpIn: shares.mlpIn / total,
    mlpOut: shares.mlpOut / total,
  };
}

/** The blocks' tensor splits with their GEMM shares (dense blocks of two all-reduces each way only). */
export function withBlockGemms(w: Pick<Workload, 'nodes'>, layers: PlanLayer[]): PlanLayer[] {
  const gemms = blockGemms(w);
  if (!gemms) return layers;
  return layers.map((l) =>
    l.tensor && isBlockName(l.name) && l.tensor.experts === undefined && l.tensor.forwardAllReduces === 2
      ? { ...l, tensor: { ...l.tensor, gemms } }
      : l,
  );
}
