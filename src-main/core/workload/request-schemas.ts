/**
 * The zod pieces requests share, whoever sends them (the API contract, the CLI, the plan request):
 * counts and rates inside REQUEST_LIMITS' ranges, a catalog model's dtype, a LoRA/QLoRA request.
 * Each refusal names its range. Pure.
 */
import { z } from 'zod';
import { REQUEST_LIMITS, type Range } from './limits.js';
import { FLOAT_DTYPES } from '../domain/dtypes.js';
import type { Equal, Expect } from '../util/type-checks.js';
import { ADAPTER_KINDS, FINETUNE_STACK_NAMES, LORA_TARGETS, type FinetuneRequest } from './finetune.js';

/**
 * A whole number inside one of REQUEST_LIMITS' ranges, the bounds the CLI's options take too; a
 * refusal names the range ("batch: a whole number from 1 to 65536").
 */
export const countIn = (r: Range) => {
  const message = `a whole number from ${r.min} to ${r.max}`;
  return z.number().int(message).min(r.min, message).max(r.max, message);
};

/** A number above `r.min`, at most `r.max` (a rate, LoRA alpha). */
export const aboveIn = (r: Range) => {
  const message = `a number above ${r.min}, at most ${r.max}`;
  return z.number().gt(r.min, message).max(r.max, message);
};

/** The dtypes a catalog model may be built in (fp8: fp8 GEMMs, bf16 elsewhere). */
export const CATALOG_DTYPE = z.enum(FLOAT_DTYPES);
export type CatalogDtype = z.output<typeof CATALOG_DTYPE>;

/** LoRA/QLoRA fine-tuning (`plan:create`, `workload:fit`, `plan --mode finetune`): the adapter, its rank, alpha and targets. */
export const FINETUNE_REQUEST = z.strictObject({
  adapter: z.enum(ADAPTER_KINDS),
  stack: z.enum(FINETUNE_STACK_NAMES).optional(),
  rank: countIn(REQUEST_LIMITS.rank).optional(),
  alpha: aboveIn(REQUEST_LIMITS.alpha).optional(),
  targets: z.array(z.enum(LORA_TARGETS)).min(1).max(LORA_TARGETS.length).optional(),
});

// The schema and finetune.ts's FinetuneRequest describe the same request (checked both ways).
type _FinetuneMatches = Expect<Equal<z.output<typeof FINETUNE_REQUEST>, FinetuneRequest>>;
