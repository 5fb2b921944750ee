/**
 * What a whole-model prediction of a described model (a catalog entry, a config.json or model
 * folder, a GGUF header) rests on, named as `plan` names it (core/planner/plan-assumptions.ts):
 * the sequence it was built at, by the one default rule (core/catalog/default-sequence.ts) unless
 * asked, or its image side, the batch and the dtype. An ONNX graph has its own shapes: none.
 */
import type { PlanAssumptionsView } from '../../core/planner/plan-assumptions.js';
import type { Workload } from '../../core/workload/types.js';
import type { Database } from '../../adapters/store/types.js';
import { describedEntry, type WorkloadSpecOptions } from '../workload/workload-service.js';

export function predictionAssumptions(
  db: Database,
  spec: string,
  asked: Pick<WorkloadSpecOptions, 'decoder' | 'seq' | 'image' | 'batch' | 'dtype'>,
  workload: Pick<Workload, 'bindings'>,
): PlanAssumptionsView | null {
  const model = asked.decoder ?? describedEntry(db, spec);
  if (!model) return null;
  const tokens = model.kind === 'transformer' && model.input === 'tokens';
  const { seq, image, batch } = workload.bindings;
  const dtype = asked.dtype ?? model.defaults.dtype;
  return {
    sequence: tokens && seq !== undefined ? { value: seq, asked: asked.seq !== undefined } : null,
    modelContext: tokens ? (model.context ?? null) : null,
    output: null,
    image: !tokens && image !== undefined ? { value: image, asked: asked.image !== undefined } : null,
    batch: { value: batch ?? model.defaults.batch, asked: asked.batch !== undefined },
    dtype,
    weights: dtype,
    stack: null,
    engine: null,
  };
}
