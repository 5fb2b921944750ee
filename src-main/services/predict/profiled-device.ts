/**
 * The profiled device a prediction or a plan is made for: a device key (and thread count) on
 * this machine or a named one; of several matches, the backend the mode runs on (preferredGroup),
 * then the one with the most measurements.
 */
import { quoted } from '../../core/text/shown.js';
import { isTorchEpName } from '../../core/domain/execution-provider.js';
import type { Mode } from '../../core/planner/types.js';
import { UserError } from '../../core/errors.js';
import type { Database } from '../../adapters/store/types.js';
import { findMachine } from '../machine/machine-service.js';
import type { DeviceGroup } from './training-data.js';
import { count } from '../../core/text/plural.js';

export interface DeviceQuery {
  device: string;
  threads?: number;
  /** An imported machine's id or label; this machine when absent. */
  machine?: string;
  /** Inference (default) prefers ONNX Runtime's measurements, training PyTorch's. */
  mode?: Mode;
}

/**
 * Which measured backend stands for a device: training runs in PyTorch, so a device profiled
 * with the PyTorch backend is planned and predicted for training with those measurements;
 * inference prefers ONNX Runtime's. Within a backend, the group with the most measurements.
 */
export function preferredGroup<T extends { executionProvider: string; measurements: number }>(
  groups: readonly T[],
  mode: Mode = 'inference',
): T | undefined {
  const rank = (g: T): number => (isTorchEpName(g.executionProvider) === (mode === 'training') ? 1 : 0);
  return [...groups].sort((a, b) => rank(b) - rank(a) || b.measurements - a.measurements)[0];
}

/**
 * With no thread count asked, a CPU is predicted at the most threads it was profiled at (all
 * cores by default: what ONNX Runtime runs with), not at whichever count stored more kernels, so
 * the default does not move when one count's profile was noisier. Devices without threads pass.
 */
function mostThreads<T extends { threads: number | null }>(groups: readonly T[]): T[] {
  const most = Math.max(0, ...groups.map((g) => g.threads ?? 0));
  return groups.filter((g) => (g.threads ?? 0) === most);
}

/**
 * The device among `devices` (from loadTrainingData) that the query names, or null, with
 * what the machine has profiled ("cpu (8 threads)") for the caller's message.
 */
export function findProfiledDevice(
  db: Database,
  devices: readonly DeviceGroup[],
  q: DeviceQuery,
): { match: DeviceGroup | null; known: string[] } {
  const machineId = findMachine(db, q.machine)?.id;
  if (!machineId)
    throw new UserError(
      q.machine ? `no machine ${quoted(q.machine)} in the store` : 'no machine recorded yet: run pipedejavu profile',
    );
  const onMachine = devices.filter((d) => d.machineId === machineId);
  const candidates = onMachine.filter(
    (d) => d.deviceKey === q.device && (q.threads === undefined || d.threads === q.threads),
  );
  const known = [...new Set(onMachine.map((d) => d.deviceKey + (d.threads ? ` (${count(d.threads, 'thread')})` : '')))];
  const match = preferredGroup(q.threads === undefined ? mostThreads(candidates) : candidates, q.mode) ?? null;
  return { match, known };
}
