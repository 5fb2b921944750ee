/**
 * A catalog decoder served token by token: the prompt, the output tokens and the objective plans
 * are ranked by; and the refusal of a context longer than the model was trained for. Pure.
 */
import type { CatalogEntry } from '../../catalog/index.js';
import { UserError } from '../../errors.js';
import { count } from '../../text/plural.js';
import type { Workload } from '../../workload/types.js';
import type { ServingObjective } from './serving.js';
import type { Mode } from '../types.js';

/** A served decoder's request: tokens in and out, and what its plans are ranked by. */
export interface ServedDecoder {
  prompt: number;
  tokens: number;
  objective: ServingObjective;
  /** The model's own context (tokens per sequence), the most a plan may hold. */
  modelContext: number;
}

/** Serving a decoder beyond the context it was trained for is refused: the plan would promise what the model cannot do. */
export function checkServedContext(w: Workload, e: CatalogEntry | null, mode: Mode): void {
  if (mode !== 'inference' || !e || e.kind !== 'transformer' || !e.causal || e.head !== 'lm') return;
  const seq = w.bindings.seq ?? 0;
  if (e.context !== undefined && seq > e.context) {
    throw new UserError(
      `${w.name}: a context of ${count(seq, 'token')} is longer than the model's ${e.context}; give --seq ${e.context} or less`,
    );
  }
}
