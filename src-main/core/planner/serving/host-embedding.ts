/**
 * A served decoder's layers as an engine that keeps the input token embedding in host memory places
 * them (EngineMemory.inputEmbedding 'host': llama.cpp's llm_load_tensors puts the input layer on the
 * CPU at any -ngl and looks the tokens' rows up there): the embeddings layer holds no weights on the
 * plan's GPUs, so no GPU's memory check counts them and no decode step reads them. An LM head tied
 * to the table keeps its own copy on the GPU (llama.cpp creates `output` from token_embd in the
 * output layer's buffer): the head holds the table's vocab x hidden parameters. Pure.
 */
import type { TransformerEntry } from '../../catalog/index.js';
import type { PlanLayer } from '../types.js';

const EMBEDDINGS = 'embeddings';
const HEAD = 'head';

/** The layers with the embeddings' weights off the GPUs (and a tied head's copy on them); unchanged without an embeddings layer. */
export function withHostEmbedding(e: TransformerEntry, layers: PlanLayer[]): PlanLayer[] {
  if (!layers.some((l) => l.name === EMBEDDINGS && l.params > 0)) return layers;
  const tiedCopy = e.tiedEmbeddings ? (e.vocab ?? 0) * e.hidden : 0;
  return layers.map((l): PlanLayer => {
    if (l.name === EMBEDDINGS) return { ...l, params: 0 };
    if (l.name === HEAD && tiedCopy > 0) return { ...l, params: l.params + tiedCopy };
    return l;
  });
}
