/**
 * What the published-figure benches (bench/published, bench/engines) share: a cell's GPU by one
 * of its exact names, and a published architecture as a catalog transformer description.
 */
import type { CatalogEntry } from '../../src-main/core/catalog/index.js';
import { datasheetFor, GPU_DATASHEETS, type GpuDatasheet } from '../../src-main/core/planner/cost/datasheets.js';
import { compactGpuName } from '../../src-main/core/planner/cost/gpu-names.js';

/** The GPU a cell names exactly (no partial match: "L40" is not the L40S, "A100 80G" names no form factor). */
export function exactGpu(name: string): GpuDatasheet | null {
  const c = compactGpuName(name);
  return (
    datasheetFor(name) ??
    GPU_DATASHEETS.find((d) => [d.id, d.name, ...d.aliases].some((n) => compactGpuName(n) === c)) ??
    null
  );
}

/** A published architecture: Llama-style (RMSNorm, SwiGLU, rotary, untied) or GPT-style; experts when given. */
export interface PublishedArch {
  family: 'gpt' | 'llama';
  layers: number;
  hidden: number;
  heads: number;
  kvHeads?: number | undefined;
  ffn: number;
  vocab: number;
  context: number;
  params?: number | undefined;
  experts?: number | undefined;
  topK?: number | undefined;
}

/** The architecture as a catalog transformer description, named `id`. */
export function archDecoder(id: string, a: PublishedArch, defaultSeq = a.context): CatalogEntry {
  const llama = a.family === 'llama';
  return {
    name: id,
    title: id,
    family: 'published',
    sources: [],
    config: 'bench (published architecture)',
    reportedParams: Math.round(a.params ?? 1),
    defaults: { batch: 1, seq: defaultSeq, dtype: 'bf16' },
    kind: 'transformer',
    input: 'tokens',
    layers: a.layers,
    hidden: a.hidden,
    heads: a.heads,
    ...(a.kvHeads !== undefined && a.kvHeads !== a.heads ? { kvHeads: a.kvHeads } : {}),
    ffn: a.ffn,
    ...(a.experts !== undefined && a.topK !== undefined ? { experts: a.experts, topK: a.topK } : {}),
    vocab: a.vocab,
    context: a.context,
    contextPolicy: 'warn',
    norm: llama ? 'rmsnorm' : 'layernorm',
    normPlacement: 'pre',
    embeddingNorm: false,
    finalNorm: true,
    mlp: llama ? 'swiglu' : 'gelu',
    bias: !llama,
    position: llama ? 'rope' : 'learned',
    tiedEmbeddings: !llama,
    head: 'lm',
    causal: true,
    dropout: false,
  } as CatalogEntry;
}
