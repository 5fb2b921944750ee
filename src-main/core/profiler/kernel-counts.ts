/**
 * One count per thing a profile measures, and one way to say each, so the README, the profile
 * run's start line and summary, `roofline`, `export` and the app's Profile view agree (issue 60):
 *
 * - a run's **kernels**, by where each comes from (KERNEL_ORIGINS): the suite's kernels for the
 *   device, the kernels of the calibration models' nodes the suite lacks ("calibration nodes"),
 *   and those refinement adds where the curves bend;
 * - the **reorders**: the NCHWc reorders ORT runs around a conv or pool, stored beside the kernel
 *   that brought them along (TIMED_INSIDE_OPS), never kernels of their own;
 * - **measurements**: the rows stored, kernels and reorders of profile runs and the nodes
 *   `measure-model` measured.
 *
 * A kernel timed in several rounds or again while noisy is one kernel and one measurement. Pure.
 */
import { TIMED_INSIDE_OPS, type KernelOp } from '../kernels/types.js';
import { count } from '../text/plural.js';

/** Where a run's kernel comes from, and how its part of a count is said ("36 calibration nodes"). */
const KERNEL_ORIGINS = {
  suite: 'suite',
  calibration: 'calibration nodes',
  refinement: 'refinement',
} as const;
export type KernelOrigin = keyof typeof KERNEL_ORIGINS;
export type KernelsByOrigin = Record<KernelOrigin, number>;

export const noKernels = (): KernelsByOrigin => ({ suite: 0, calibration: 0, refinement: 0 });

function kernelTotal(c: KernelsByOrigin): number {
  return c.suite + c.calibration + c.refinement;
}

/**
 * "330 kernels (294 quick suite + 36 calibration nodes)": the total, then its parts that are not
 * 0; "294 kernels (quick suite)" when they are of one origin, and "0 kernels (quick suite)";
 * `verb` goes after the total ("336 kernels measured (...)").
 */
export function kernelsText(c: KernelsByOrigin, suite: string, verb = ''): string {
  const label = (o: KernelOrigin): string => (o === 'suite' ? `${suite} suite` : KERNEL_ORIGINS[o]);
  const present = (Object.keys(KERNEL_ORIGINS) as KernelOrigin[]).filter((o) => c[o] > 0);
  const parts =
    present.length > 1 ? present.map((o) => `${c[o]} ${label(o)}`).join(' + ') : label(present[0] ?? 'suite');
  return `${count(kernelTotal(c), 'kernel')}${verb ? ` ${verb}` : ''} (${parts})`;
}

/** A stored measurement as counted: its op, and whether a profile run or `measure-model` stored it. */
export interface CountedMeasurement {
  op: string;
  source: 'profile' | 'model';
}

export interface MeasurementCounts {
  kernels: number;
  reorders: number;
  /** Nodes `measure-model` measured in a real model. */
  modelNodes: number;
}

const isReorder = (op: string): boolean => TIMED_INSIDE_OPS.has(op as KernelOp);

export function countMeasurements(ms: readonly CountedMeasurement[]): MeasurementCounts {
  const c: MeasurementCounts = { kernels: 0, reorders: 0, modelNodes: 0 };
  for (const m of ms) {
    if (m.source === 'model') c.modelNodes++;
    else if (isReorder(m.op)) c.reorders++;
    else c.kernels++;
  }
  return c;
}

/** "336 kernels + 119 reorders": each part that is not 0 (the kernels always). */
function measuredPartsText(c: Partial<MeasurementCounts> & { kernels: number }): string {
  const parts = [count(c.kernels, 'kernel')];
  if (c.reorders) parts.push(count(c.reorders, 'reorder'));
  if (c.modelNodes) parts.push(count(c.modelNodes, 'model node'));
  return parts.join(' + ');
}

/** A device's kernels under a KERNELS heading (roofline, the Profile view): "336 + 119 reorders", "336". */
export function kernelsCell(s: { kernels: number; reorders?: number }): string {
  return s.reorders ? `${s.kernels} + ${count(s.reorders, 'reorder')}` : String(s.kernels);
}

/** "455 measurements (336 kernels + 119 reorders)"; "336 measurements (336 kernels)" when they are all kernels. */
export function measurementsText(c: MeasurementCounts): string {
  const total = c.kernels + c.reorders + c.modelNodes;
  return `${count(total, 'measurement')} (${measuredPartsText(c)})`;
}
