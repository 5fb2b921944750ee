/**
 * Host memory of an optimizer offload (ZeRO-Offload): the fp32 master weights and Adam moments
 * of every offloaded parameter live in the RAM of the host its device sits in, partitioned over
 * the devices of its stage (as DeepSpeed does from ZeRO stage 1 on, which the exports use): each
 * device of a stage holds (bytesPerParam - 4) x the stage's parameters / its device count there.
 * A CPU device of the plan on the same host uses the same RAM, so its need counts too. Pure.
 */
import { count } from '../../text/plural.js';
import { formatBytes } from '../../text/bytes.js';
import { GRAD_BYTES_PER_PARAM, WEIGHT_BYTES_PER_PARAM } from './memory.js';
import type { Plan, PlanProblem } from '../types.js';

export interface HostNeed {
  machine: string;
  /** Offloaded optimizer state on this host, bytes. */
  offloadedBytes: number;
  /** What the plan's CPU devices of this host need themselves, bytes. */
  cpuDeviceBytes: number;
  availableBytes: number;
  source: 'probed' | 'assumed';
}

/** What each checked host holds for the plan; [] without an offload or without host figures. */
function hostNeeds(problem: PlanProblem, plan: Plan): HostNeed[] {
  const offload = problem.optimizerOffload;
  if (problem.mode !== 'training' || !offload?.hostMemory) return [];
  const machineOf = new Map(problem.devices.map((d) => [d.id, d.machine]));
  const offloadedPerParam = Math.max(0, problem.bytesPerParam - WEIGHT_BYTES_PER_PARAM - GRAD_BYTES_PER_PARAM);
  const offloaded = new Map<string, number>();
  for (const s of plan.stages) {
    const params = problem.layers.slice(s.from, s.to).reduce((sum, l) => sum + l.params, 0);
    const share = (offloadedPerParam * params) / Math.max(1, s.devices.length);
    for (const d of s.devices) {
      const m = machineOf.get(d);
      if (m !== undefined) offloaded.set(m, (offloaded.get(m) ?? 0) + share);
    }
  }
  const cpuBytes = new Map<string, number>();
  const cpus = new Set(problem.devices.filter((d) => d.kind === 'cpu').map((d) => d.id));
  for (const m of plan.memory) {
    const machine = machineOf.get(m.device);
    if (cpus.has(m.device) && machine !== undefined)
      cpuBytes.set(machine, (cpuBytes.get(machine) ?? 0) + m.neededBytes);
  }
  return [...offloaded].flatMap(([machine, bytes]) => {
    const host = offload.hostMemory?.[machine];
    if (!host) return [];
    return [
      {
        machine,
        offloadedBytes: bytes,
        cpuDeviceBytes: cpuBytes.get(machine) ?? 0,
        availableBytes: host.bytes,
        source: host.source,
      },
    ];
  });
}

/** "host memory of m: ... needs 89.7 GiB ...; the host has 23.5 GiB (probed)" for each host that overflows. */
function hostMemoryReasons(problem: PlanProblem, plan: Plan): string[] {
  return hostNeeds(problem, plan)
    .filter((h) => h.offloadedBytes + h.cpuDeviceBytes > h.availableBytes)
    .map(
      (h) =>
        `host memory of ${h.machine}: the offloaded fp32 master weights and Adam moments need ${formatBytes(h.offloadedBytes)}` +
        (h.cpuDeviceBytes > 0 ? ` besides ${formatBytes(h.cpuDeviceBytes)} for the CPU's own stage` : '') +
        `; the host has ${formatBytes(h.availableBytes)} (${h.source})`,
    );
}

/**
 * Plans whose hosts cannot hold their offloaded state marked as not fitting (with the reason), and
 * one rejection for them all: how many, and the one that needs least.
 */
export function checkHostMemory(
  problem: PlanProblem,
  plans: readonly Plan[],
): { plans: Plan[]; rejected: { kind: Plan['kind']; reason: string; plans: number }[] } {
  let failed = 0;
  let least: { plan: Plan; bytes: number; reasons: string[] } | null = null;
  const checked = plans.map((p) => {
    const reasons = hostMemoryReasons(problem, p);
    if (reasons.length === 0) return p;
    failed++;
    const bytes = hostNeeds(problem, p).reduce((s, h) => s + h.offloadedBytes + h.cpuDeviceBytes, 0);
    if (!least || bytes < least.bytes) least = { plan: p, bytes, reasons };
    return { ...p, feasible: false, reasons: [...reasons, ...p.reasons] };
  });
  const worst = least as { plan: Plan; reasons: string[] } | null;
  const rejected = worst
    ? [
        {
          kind: worst.plan.kind,
          reason: `${failed} of ${count(plans.length, 'plan')} need more memory than the host has; the least of them: ${worst.reasons.join('; ')}`,
          plans: failed,
        },
      ]
    : [];
  return { plans: checked, rejected };
}
