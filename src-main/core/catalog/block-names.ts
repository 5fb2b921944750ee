/**
 * The names the catalog gives a transformer's layers and nodes (transformer.ts builds them; the
 * planner and the adapters find blocks, experts and attention cores by them). Pure.
 */

/** The layer of transformer block i: `block.<i>`. */
export function blockName(i: number): string {
  return `block.${i}`;
}

const BLOCK_NAME = /^block\.\d+$/;

/** Whether a layer is a transformer block (`block.<i>`, not the embedding or the head). */
export function isBlockName(layer: string): boolean {
  return BLOCK_NAME.test(layer);
}

/** The attention core node (scores, softmax, weighted values) of a block. */
export function attentionCoreName(block: string): string {
  return `${block}.attn.core`;
}

/** The prefix of a block's routed experts' nodes (`<block>.mlp.experts.gate`, `.up`, `.down`...). */
export function expertsName(block: string): string {
  return `${block}.mlp.experts`;
}

/** Whether a node is one of a mixture-of-experts block's routed experts. */
export function isExpertNode(node: string): boolean {
  return node.includes('.mlp.experts.');
}
