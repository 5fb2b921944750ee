/**
 * The plan spaces the exact searches cover, shared by the DP and the brute force. Pure.
 *
 * Devices are split into classes; a stage runs on a group: 1..maxGroupSize devices of one class.
 * A plan is an ordered sequence of stages over contiguous layer ranges; each device is used at most
 * once; devices may be left out. Inside a class the devices are handed out in a fixed order: walking
 * the stages from the last to the first, each group of the class takes the next devices of the
 * class's list (the last stage of a class gets its first devices).
 *
 * - pipeline space: every device is its own class, groups of one device: every ordered sequence of
 *   distinct devices.
 * - hybrid space: classes of equal memory (same name and memoryBytes), groups of any size: pipelines
 *   whose stages are data-parallel groups of like devices (which like device goes where follows the
 *   fixed order above).
 * - mixed space: the GPUs of one machine form a class whatever their kind (other devices stay
 *   alone), and a group is one device or one tensor-parallel group of t unlike GPUs (no replicas:
 *   splitting a microbatch over unlike replicas is the whole-model data-parallel search's job).
 * In the hybrid space a group of n devices may also run tensor parallel at every allowed degree t
 * dividing n (tensorDegreesOf): n / t replicas of t devices.
 */
import type { PlanDevice, PlanProblem } from '../types.js';

export interface DeviceClass {
  key: string;
  /** Device indices into problem.devices, in hand-out order. */
  devices: number[];
  /** Largest group, in members. */
  maxGroupSize: number;
  /**
   * Devices per member (default 1). With unit u the class hands out whole members of u devices
   * (the GPUs of one machine in the cluster space): groups are 1..maxGroupSize members, and
   * tensor parallelism stays inside a member (tp ≤ u).
   */
  unit?: number;
}

export interface GroupSpace {
  name: 'pipeline' | 'hybrid' | 'mixed' | 'cluster';
  classes: DeviceClass[];
}

export function pipelineSpace(problem: Pick<PlanProblem, 'devices'>): GroupSpace {
  return {
    name: 'pipeline',
    classes: problem.devices.map((d, i) => ({ key: d.id, devices: [i], maxGroupSize: 1 })),
  };
}

/** Devices of one memory class: same name and same memory. */
export function memoryClassKey(d: PlanDevice): string {
  return `${d.name}\u0000${d.memoryBytes}`;
}

export function hybridSpace(
  problem: Pick<PlanProblem, 'devices'>,
  classKey: (d: PlanDevice) => string = memoryClassKey,
): GroupSpace {
  const byKey = new Map<string, DeviceClass>();
  problem.devices.forEach((d, i) => {
    const key = classKey(d);
    const c = byKey.get(key) ?? { key, devices: [], maxGroupSize: 0 };
    c.devices.push(i);
    c.maxGroupSize = c.devices.length;
    byKey.set(key, c);
  });
  return { name: 'hybrid', classes: [...byKey.values()] };
}

/** GPUs of one machine together; every other device alone. */
function machineClassKey(d: PlanDevice): string {
  return d.kind === 'gpu' ? `gpu\u0000${d.machine}` : `dev\u0000${d.id}`;
}

export function mixedSpace(problem: Pick<PlanProblem, 'devices'>): GroupSpace {
  return { ...hybridSpace(problem, machineClassKey), name: 'mixed' };
}

/** Whether a group of `size` devices at tensor-parallel degree tp belongs to the space (members of `unit` devices). */
export function groupAllowed(space: Pick<GroupSpace, 'name'>, size: number, tp: number, unit = 1): boolean {
  if (size % tp !== 0) return false;
  if (space.name === 'cluster') return tp <= unit && unit % tp === 0;
  if (space.name === 'pipeline') return size === 1 && tp === 1;
  return space.name === 'mixed' ? size === tp : true;
}

/**
 * Tensor-parallel degrees a search may use: 1, and each allowed degree (problem.tensorDegrees)
 * that divides every split layer's heads and KV heads, when some layer splits at all.
 */
export function tensorDegreesOf(problem: Pick<PlanProblem, 'layers' | 'tensorDegrees'>): number[] {
  const split = problem.layers.filter((l) => l.tensor);
  if (split.length === 0) return [1];
  const ok = (t: number): boolean => split.every((l) => (l.tensor?.divides ?? []).every((n) => n % t === 0));
  return [...new Set([1, ...(problem.tensorDegrees ?? [])])].filter((t) => t >= 1 && ok(t)).sort((a, b) => a - b);
}
