/** A plan's assumptions as the tests start from them: Llama 3.1 8B trained at its defaults. */
import type { PlanAssumptionsView } from '../../src-main/core/planner/plan-assumptions.js';

export const TRAINING_DEFAULTS: PlanAssumptionsView = {
  sequence: { value: 8192, asked: false },
  modelContext: 131072,
  output: null,
  image: null,
  batch: { value: 8, asked: false },
  dtype: 'bf16',
  weights: 'bf16',
  stack: { name: 'adam', title: 'mixed-precision Adam (16 bytes a parameter)' },
  attention: {
    kernel: 'fused',
    title: 'fused attention (no s² scores kept)',
    source: 'Megatron-Core (Transformer Engine), PyTorch SDPA (FSDP, torchtitan, DeepSpeed, Trainer)',
  },
  engine: null,
};
