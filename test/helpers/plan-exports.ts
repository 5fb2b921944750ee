/** A plan's exports narrowed to their kind: a test that expects one fails plainly on the other. */
import type { PlanExports, ServingExports, TrainingExports } from '../../src-main/core/planner/exports/export-plan.js';
import type { ServingLaunch } from '../../src-main/core/planner/exports/serving/serving-launch.js';

/** A training plan's launchers; throws for a serving plan or none. */
export function trainingExports(e: PlanExports | null | undefined): TrainingExports {
  if (e?.kind !== 'training') throw new Error(`expected training exports, got ${e ? e.kind : 'none'}`);
  return e;
}

/** A serving plan's launch line; throws for a training plan or none. */
export function servingLaunchOf(e: PlanExports | null | undefined): ServingLaunch {
  if (e?.kind !== 'serving') throw new Error(`expected a serving launch, got ${e ? e.kind : 'none'}`);
  return (e as ServingExports).launch;
}
