/**
 * A plan's answer as the app's Plans view and `pipedejavu plan --json` show it (the API's
 * PlanView is this type). Pure.
 */
import type { EngineName } from '../engines/engine-names.js';
import type { FinetuneSpec } from '../workload/finetune.js';
import type { ServingFigures } from './serving/serving.js';
import type { PlanExports } from './exports/export-plan.js';
import type { LayoutAnswer } from './layout.js';
import type { PlanAssumptionsView } from './plan-assumptions.js';
import type { PlanAllResult } from './search/index.js';
import type { ServedDecoder } from './serving/served-decoder.js';
import type { SimEvent } from './simulator/pipeline-simulator.js';
import type { Mode, PlanDevice, PlanSuggestion } from './types.js';

/** A plan's step time range, from its devices' bands (µs). */
export interface StepBand {
  lowUs: number;
  highUs: number;
  /** Each stage's per-microbatch compute time and its band (its devices' widest factors), µs. */
  stages: { timeUs: number; lowUs: number; highUs: number }[];
}

/** What the planner answers beside the ranked plans: shared by the service's response and its summary. */
export interface PlanOutcome {
  /** What the figures rest on: sequence (prompt and output), batch, dtype and weights, engine or stack. */
  assumptions: PlanAssumptionsView;
  exports: PlanExports | null;
  /** What the exports launch: the recommended plan, or the layout the request gave (none when it does not fit). */
  exportsOf: 'recommended' | 'layout';
  /** The simulated schedule of the best plan (one step); empty when none fits. */
  timeline: SimEvent[];
  /** The simulated schedule of each listed plan, in the plans' order (empty when it does not fit). */
  timelines: SimEvent[][];
  /** Serving a decoder: time to first token, tokens per second and longest context per plan; null otherwise. */
  serving: ServingFigures[] | null;
  /** Serving a decoder: prompt and output tokens per request and the objective plans are ranked by; else null. */
  served: ServedDecoder | null;
  /** Serving a decoder: the engine its figures and launch lines are for ('ideal': the kernel roofline); else null. */
  engine: { name: EngineName | 'ideal'; title: string; since: string | null } | null;
  /** When no plan fits: changes that would make one fit, each verified by the same search; else []. */
  suggestions: PlanSuggestion[];
  /** The request's layout priced beside the best plan (its step over the best's: vsBest); null without one. */
  layout: LayoutAnswer | null;
  /** Fine-tuning with LoRA/QLoRA adapters: the adapter, rank, alpha and targets planned; null otherwise. */
  finetune: FinetuneSpec | null;
  /**
   * Each plan's step band, in the plans' order (the widest of its devices' ranges: 90% for profiled
   * devices, the published band for datasheet GPUs); null where none.
   */
  stepBands: (StepBand | null)[];
  warnings: string[];
}

/** A plan's answer as the app's Plans view and `pipedejavu plan --json` show it. */
export interface PlanSummary extends PlanOutcome {
  workload: string;
  mode: Mode;
  batch: number;
  devices: PlanDevice[];
  plans: PlanAllResult['plans'];
  rejected: PlanAllResult['rejected'];
  searchMs: number;
}
