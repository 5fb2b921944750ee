/**
 * A plan request's training stack (`plan --stack`, core/planner/stacks/): resolved and refused where
 * it cannot apply, and what the search may try under it.
 */
import { UserError } from '../../core/errors.js';
import type { Layout } from '../../core/planner/layout.js';
import type { PlanRequest } from '../../core/planner/plan-request.js';
import type { RecomputeRequest, ZeroRequest } from '../../core/planner/search/plan-ranking.js';
import type { StackRule } from '../../core/planner/stacks/stack-rule.js';
import {
  TRAINING_STACK_RULES,
  stackLayoutRefusal,
  stackOffload,
  stackRecompute,
  stackZeroStages,
} from '../../core/planner/stacks/stacks.js';

/** The request's stack's rule; null without one. Refused when serving and when fine-tuning with adapters. */
export function trainingStackOf(req: Pick<PlanRequest, 'stack' | 'mode' | 'finetune'>): StackRule | null {
  if (req.stack === undefined) return null;
  if (req.mode !== 'training')
    throw new UserError(`--stack ${req.stack} is a training stack; serving names its --engine`);
  if (req.finetune)
    throw new UserError(
      `--stack ${req.stack}: fine-tuning with adapters names its tool (peft, torchtune, unsloth) instead`,
    );
  return TRAINING_STACK_RULES[req.stack];
}

/** What the search tries: the request's own choices, kept to what the stack runs (refused outside it). */
export function stackSearchOptions(
  rule: StackRule | null,
  req: Pick<PlanRequest, 'zero'> & Required<Pick<PlanRequest, 'offload' | 'recompute'>>,
): {
  zero: ZeroRequest;
  recompute: RecomputeRequest;
  offload: 'auto' | 'yes' | 'no';
  pipelineZeroStages?: readonly number[];
} {
  if (!rule) return { zero: req.zero ?? 'auto', recompute: req.recompute, offload: req.offload };
  const stages = stackZeroStages(rule, req.zero);
  return {
    zero: req.zero ?? stages,
    recompute: stackRecompute(rule, req.recompute),
    offload: stackOffload(rule, req.offload),
    pipelineZeroStages: rule.pipelineParallel ? rule.pipelineZeroStages : [],
  };
}

/** A --layout outside what the stack runs is refused before anything is priced. */
export function checkLayoutStack(rule: StackRule | null, layout: Layout | null): void {
  const refusal = rule && layout ? stackLayoutRefusal(rule, layout) : null;
  if (refusal) throw new UserError(refusal);
}
