/** Which devices a request names, and the CPUs a fine-tuning plan leaves out. Pure. */
import { UserError } from '../../errors.js';
import type { PlanCandidate } from './plan-candidate.js';

/** The device keys `--devices` names: 'all' or a non-empty list. */
export function deviceKeys(devices: string): string[] | 'all' {
  if (devices === 'all') return 'all';
  const keys = devices
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (keys.length === 0) throw new UserError('--devices is empty; name devices like cpu,cuda:0 or all');
  return keys;
}

/**
 * Fine-tuning beside GPUs leaves the CPUs out: the adapters' tools run NF4 kernels and NCCL on
 * GPUs only (a CPU alone still fine-tunes, slowly).
 */
export function withoutCpus<T extends { candidates: PlanCandidate[] }>(devices: T, warnings: string[]): T {
  const gpus = devices.candidates.filter((c) => c.device.kind === 'gpu');
  if (gpus.length === 0 || gpus.length === devices.candidates.length) return devices;
  const cpus = devices.candidates.filter((c) => c.device.kind === 'cpu').map((c) => c.device.id);
  warnings.push(
    `fine-tuning plans the GPUs only: ${cpus.join(', ')} left out (PEFT, bitsandbytes and NCCL run the adapters' steps on GPUs)`,
  );
  return { ...devices, candidates: gpus };
}
