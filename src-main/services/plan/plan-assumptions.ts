/**
 * A resolved plan request's assumptions (resolve-request.ts) as the plan states them: each value
 * the figures rest on, and whether the request gave it or a default did (core/planner/plan-assumptions.ts).
 */
import { ADAM_STACK, type PlanAssumptionsView } from '../../core/planner/plan-assumptions.js';
import { FINETUNE_STACKS } from '../../core/workload/finetune.js';
import { ATTENTION_KERNELS, TRAINING_STACK_ATTENTION } from '../../core/planner/memory/attention-memory.js';
import type { PlanRequest } from './plan-request.js';
import { NO_STACK, stackAssumes } from '../../core/planner/stacks/stacks.js';
import type { ResolvedPlanRequest } from './resolve-request.js';
import { servedFormat } from './serving-engine.js';

/** What `asked` (the request before its defaults) left to the defaults, and what they gave. */
export function assumptionsView(
  asked: PlanRequest,
  {
    request,
    assumptions: a,
    workload,
    model,
  }: Pick<ResolvedPlanRequest, 'request' | 'assumptions' | 'workload' | 'model'>,
): PlanAssumptionsView {
  const tokens = model?.kind === 'transformer' && model.input === 'tokens';
  const { seq, image } = workload.bindings;
  const promptAsked = asked.prompt !== undefined || asked.seq !== undefined;
  return {
    sequence:
      tokens && seq !== undefined ? { value: seq, asked: a.served ? promptAsked : asked.seq !== undefined } : null,
    modelContext: tokens ? (model.context ?? null) : null,
    output: a.served ? { value: a.served.tokens, asked: asked.tokens !== undefined } : null,
    image: model && !tokens && image !== undefined ? { value: image, asked: asked.image !== undefined } : null,
    batch: { value: a.batch, asked: asked.batch !== undefined },
    dtype: a.dtype,
    weights:
      request.mode === 'inference'
        ? servedFormat(request.weights, a.dtype)
        : a.finetune?.adapter === 'qlora'
          ? 'nf4'
          : a.dtype,
    stack:
      request.mode !== 'training'
        ? null
        : a.finetune
          ? { name: a.finetune.stack, title: FINETUNE_STACKS[a.finetune.stack].title }
          : { ...ADAM_STACK },
    attention:
      request.mode === 'training' && model?.kind === 'transformer'
        ? {
            kernel: TRAINING_STACK_ATTENTION.kernel,
            title: ATTENTION_KERNELS[TRAINING_STACK_ATTENTION.kernel].title,
            source: TRAINING_STACK_ATTENTION.source,
          }
        : null,
    trainingStack:
      request.mode !== 'training' || a.finetune
        ? null
        : a.stack
          ? { name: a.stack.name, title: a.stack.title, assumes: stackAssumes(a.stack) }
          : { name: 'any', title: NO_STACK.title, assumes: NO_STACK.assumes },
    engine: a.engine
      ? {
          name: a.engine.summary.name,
          title: a.engine.summary.title,
          version: request.engineVersion ?? a.engine.summary.since,
        }
      : null,
  };
}
