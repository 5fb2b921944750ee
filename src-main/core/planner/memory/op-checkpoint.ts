/**
 * Selective activation checkpointing as the stacks do it (the taxonomy below), and torchtitan's
 * op-level policy priced on a catalog block. Pure.
 *
 * torchtitan's "selective op" AC (torchtitan/parallelisms/parallelize_llama.py @157a12c5, lines
 * 36-60; torchtitan/distributed/activation_checkpoint.py @b5bcd76c, _get_default_save_ops and
 * SelectiveAC._wrap_block) wraps each block in torch's selective checkpoint with a policy that
 * saves the outputs of the ops in its save list (aten.mm, SDPA flash/efficient, reduce-scatter,
 * max) except every second mm of the block (the 2nd, 4th, ...), and recomputes everything else in
 * backward. A block therefore keeps, per sample (s tokens, e bytes an element, h hidden):
 *   its input s·h·e (the checkpoint's input), the odd-numbered matmul outputs in forward order,
 *   SDPA's output (query width) and its fp32 log-sum-exp (4·heads·s);
 * for a Llama block (q, k, v, o, w1, w3, w2): q, v, w1 and w2 saved; k, o, w3 recomputed.
 * In backward the block runs its forward again (the unsaved ops), so its whole count is rebuilt
 * once while it back-propagates: that is the peak.
 */
import { queryWidth } from '../../catalog/block-layout.js';
import type { TransformerEntry } from '../../catalog/index.js';
import { kvWidth } from '../../catalog/transformer.js';

/** What a stack's selective recomputation keeps (StackRule.selective). */
export const SELECTIVE_KINDS = {
  'attention-core':
    "Megatron-LM's --recompute-activations (Korthikanti et al. 2022): everything but the attention core's s² terms",
  'op-policy':
    "torchtitan's op-level policy: the block's input, every other matmul's output and SDPA's output; the rest recomputed",
} as const;
export type SelectiveKind = keyof typeof SELECTIVE_KINDS;

/** One matmul of a block: its catalog node (suffix after `block.<i>.`) and its output width. */
interface BlockMatmul {
  node: string;
  width: number;
}

/** A dense block's matmuls in forward order (the catalog's fused QKV node holds q, k, v); null for MLA or MoE blocks. */
function blockMatmuls(e: TransformerEntry): BlockMatmul[] | null {
  if (e.mla || e.experts !== undefined) return null;
  const q = queryWidth(e);
  const kv = kvWidth(e);
  const mlp: BlockMatmul[] =
    e.mlp === 'gelu'
      ? [
          { node: 'mlp.fc', width: e.ffn },
          { node: 'mlp.proj', width: e.hidden },
        ]
      : [
          { node: 'mlp.gate', width: e.ffn },
          { node: 'mlp.up', width: e.ffn },
          { node: 'mlp.down', width: e.hidden },
        ];
  return [
    { node: 'attn.qkv', width: q },
    { node: 'attn.qkv', width: kv },
    { node: 'attn.qkv', width: kv },
    { node: 'attn.out', width: e.hidden },
    ...mlp,
  ];
}

export interface OpPolicyBlock {
  /** Bytes a block keeps per sample under the policy. */
  keptBytes: number;
  /** Per catalog node suffix: the share of its forward work recomputed (a node not named: all of it). */
  recomputedShare: Record<string, number>;
}

/** torchtitan's op-level policy on a dense block of `e` at `seq` tokens, `elementBytes` an element; null where it is not priced (MLA, MoE). */
export function opPolicyBlock(e: TransformerEntry, seq: number, elementBytes: number): OpPolicyBlock | null {
  const mms = blockMatmuls(e);
  if (!mms) return null;
  const saved = new Map<string, number>();
  const total = new Map<string, number>();
  mms.forEach((m, i) => {
    total.set(m.node, (total.get(m.node) ?? 0) + m.width);
    // The policy counts matmuls from 1 and recomputes the even ones.
    if (i % 2 === 0) saved.set(m.node, (saved.get(m.node) ?? 0) + m.width);
  });
  const savedWidth = [...saved.values()].reduce((a, b) => a + b, 0);
  const sdpa = queryWidth(e) * seq * elementBytes + 4 * e.heads * seq;
  const recomputedShare = Object.fromEntries(
    [...total].map(([node, width]) => [node, (width - (saved.get(node) ?? 0)) / width]),
  );
  return { keptBytes: (e.hidden + savedWidth) * seq * elementBytes + sdpa, recomputedShare };
}
