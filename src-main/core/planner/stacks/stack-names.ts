/**
 * The training stacks a plan can be restricted to (`plan --stack`, PlanRequest.stack): one rule file
 * each beside this one (megatron-stack.ts, torchtitan-stack.ts, fsdp-stack.ts, deepspeed-stack.ts),
 * as Vidur keeps one file per system. Pure.
 */
export const TRAINING_STACK_NAMES = ['megatron', 'torchtitan', 'fsdp', 'deepspeed'] as const;

export type TrainingStack = (typeof TRAINING_STACK_NAMES)[number];
