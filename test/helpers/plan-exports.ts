/**
 * What the export tests build and read: a plan's exports narrowed to their kind (a test that expects
 * one fails plainly on the other), the layers, GPUs and pipeline plans they export, and YAML as
 * Debian's python3-yaml reads it.
 */
import { execFileSync } from 'node:child_process';
import type { PlanExports, ServingExports, TrainingExports } from '../../src-main/core/planner/exports/export-plan.js';
import type { ServingLaunch } from '../../src-main/core/planner/exports/serving/serving-launch.js';
import type { Plan, PlanDevice, PlanLayer, Stage } from '../../src-main/core/planner/types.js';
import { ORACLE_PYTHON } from './oracle.js';

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

/** Layers known by their parameters alone: no times, no activations (the exports read neither). */
export function paramLayers(layers: readonly { name: string; params: number }[]): PlanLayer[] {
  return layers.map((l) => ({
    ...l,
    forwardUs: {},
    backwardUs: {},
    outBytesPerSample: 0,
    activationBytesPerSample: 0,
  }));
}

/** GPU `i` of a machine, as a plan names it (`machine/cuda:i`). */
export function planGpu(
  machine: string,
  i: number,
  name: string,
  memoryGiB: number,
  estimate: PlanDevice['estimate'],
): PlanDevice {
  return { id: `${machine}/cuda:${i}`, name, kind: 'gpu', machine, memoryBytes: memoryGiB * 2 ** 30, estimate };
}

/** A plan's figures where the exports read none: a step of 1 µs, no bubble, no traffic, feasible. */
export const UNREAD_FIGURES = {
  stepUs: 1,
  throughputSamplesPerS: 1,
  bubbleFraction: 0,
  commFraction: 0,
  bottleneckStage: 0,
  memory: [],
  feasible: true,
  reasons: [],
} satisfies Partial<Plan>;

/** A feasible pipeline plan over these stage bounds and devices; its figures are placeholders. */
export function pipelinePlan(
  bounds: number[],
  devices: string[][],
  microbatches: number,
  schedule: Plan['schedule'] = '1f1b',
): Plan {
  const stages: Stage[] = devices.map((ds, i) => ({
    from: bounds[i] as number,
    to: bounds[i + 1] as number,
    devices: ds,
    timeUs: 1000,
    memoryBytes: {},
  }));
  return {
    kind: 'pipeline',
    stages,
    microbatches,
    schedule,
    stepUs: 1e5,
    throughputSamplesPerS: 100,
    bubbleFraction: 0.2,
    commFraction: 0.05,
    bottleneckStage: 0,
    memory: [],
    feasible: true,
    reasons: [],
  };
}

/** A YAML text as Debian's python3-yaml reads it (yaml.safe_load), back as JSON. */
export function oracleYaml(source: string): Record<string, unknown> {
  const out = execFileSync(
    ORACLE_PYTHON,
    ['-c', 'import json,sys,yaml; print(json.dumps(yaml.safe_load(sys.stdin.read())))'],
    { input: source, stdio: 'pipe' },
  );
  return JSON.parse(out.toString()) as Record<string, unknown>;
}
