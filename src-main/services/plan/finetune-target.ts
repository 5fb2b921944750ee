/**
 * The model a fine-tuning request adapts and its spec with the defaults: a catalog transformer, a
 * Hugging Face folder (read or stored), or a decoder described apart; `plan` and `fit` both ask here.
 */
import type { CatalogEntry, TransformerEntry } from '../../core/catalog/index.js';
import { availableTargets } from '../../core/catalog/lora.js';
import { UserError } from '../../core/errors.js';
import { finetuneSpec, type FinetuneRequest, type FinetuneSpec } from '../../core/workload/finetune.js';
import type { Database } from '../../adapters/store/types.js';
import { describedEntry } from '../workload/workload-service.js';

export type FinetunedEntry = TransformerEntry & { family: string; sources: string[] };

/** One line for a model adapters cannot be planned on (an ONNX graph, a CNN). */
export function finetuneTarget(
  db: Database,
  workload: string,
  decoder: CatalogEntry | undefined,
  request: FinetuneRequest,
): { decoder: FinetunedEntry; spec: FinetuneSpec } {
  const e = decoder ?? describedEntry(db, workload);
  if (!e || e.kind !== 'transformer')
    throw new UserError(
      `${workload}: LoRA and QLoRA fine-tuning is planned for transformers described by a catalog name or a Hugging Face model folder (config.json), not for ONNX graphs`,
    );
  return { decoder: e, spec: finetuneSpec(request, availableTargets(e)) };
}
