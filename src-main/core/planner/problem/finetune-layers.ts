/** A fine-tuned catalog transformer's layers with the activations its training stack keeps. Pure. */
import type { CatalogEntry } from '../../catalog/index.js';
import type { FinetuneSpec } from '../../workload/finetune.js';
import type { Workload } from '../../workload/types.js';
import { tunedLayersMemory, type TunedLayerMemory } from '../memory/finetune-memory.js';
import { scoreBytesPerSample } from '../memory/selective-recompute.js';
import type { PlanLayer } from '../types.js';

/**
 * A fine-tuned model's activations as its stack keeps them (memory/finetune-memory.ts): fused
 * attention, gradient checkpointing over the blocks, the loss's logits on the head.
 */
export function withFinetuneMemory(
  w: Workload,
  e: CatalogEntry | null,
  layers: PlanLayer[],
  spec: FinetuneSpec,
): PlanLayer[] {
  if (!e || e.kind !== 'transformer') return layers;
  const memory = tunedLayersMemory(
    layers.map((l) => ({ name: l.name, activationBytes: l.activationBytesPerSample, outBytes: l.outBytesPerSample })),
    { scoreBytes: scoreBytesPerSample(w, e), logits: (w.bindings.seq ?? 1) * (e.vocab ?? 0), lmHead: e.head === 'lm' },
    spec.stack,
  );
  return layers.map((l, i) => {
    const m = memory[i] as TunedLayerMemory;
    return { ...l, activationBytesPerSample: m.activationBytesPerSample, fullRecompute: m.fullRecompute };
  });
}
