/**
 * What a workload runs for: inference (the forward pass) or training (forward, backward and the
 * optimizer step). One word for the planner, the per-layer prediction, the API and the app; a
 * fine-tuning plan is training with adapters (its own option, not a third mode). Pure.
 */
export const MODES = ['inference', 'training'] as const;

export type Mode = (typeof MODES)[number];
