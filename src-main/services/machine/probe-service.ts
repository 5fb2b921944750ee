/**
 * Probing this machine: CPU/memory/OS and NVIDIA GPUs, assembled into one
 * ProbeResult with a stable machine id. Dependencies are injected so tests can
 * replay recorded nvidia-smi output.
 */
import { createHash } from 'node:crypto';
import type { NvidiaInfo, ProbeResult } from '../../core/domain/hardware.js';
import type { SystemProbe } from '../../adapters/system/probe-system.js';

export interface NvidiaProbeOptions {
  smiPath?: string;
  timeoutMs?: number;
  /** Environment to resolve PIPEDEJAVU_NVIDIA_SMI and PATH in, and to run nvidia-smi with. */
  env?: NodeJS.ProcessEnv;
}

export interface ProbeDeps {
  probeSystem: () => Promise<SystemProbe>;
  probeNvidia: (opts: NvidiaProbeOptions) => Promise<{ nvidia: NvidiaInfo; warnings: string[] }>;
  now: () => Date;
}

export interface MachineProbe {
  machineId: string;
  /** The id an older store may know this machine by (legacyMachineIdFor). */
  legacyMachineId: string;
  probe: ProbeResult;
}

/**
 * A machine id that survives reboots and re-probes and tells cloned nodes apart: a hash of the OS
 * install id (/etc/machine-id; else CPU and memory) and the hostname. Nodes booted from one image
 * share the install id, so it alone would make a second node replace the first. The GPUs' UUIDs
 * are left out on purpose: an nvidia-smi that fails once, or a swapped GPU, would otherwise split
 * one machine's history in two.
 */
export function machineIdFor(system: SystemProbe): string {
  const install = system.osUuid ?? `${system.cpu.brand}|${system.memory.totalBytes}`;
  return createHash('sha256').update(`${install}|${system.hostname}`).digest('hex').slice(0, 16);
}

/** The id stores made before the hostname was in it (kept for a machine already recorded under it). */
export function legacyMachineIdFor(system: SystemProbe): string {
  const basis = system.osUuid ?? `${system.hostname}|${system.cpu.brand}|${system.memory.totalBytes}`;
  return createHash('sha256').update(basis).digest('hex').slice(0, 16);
}

export async function probeMachine(deps: ProbeDeps, opts: NvidiaProbeOptions = {}): Promise<MachineProbe> {
  const [system, nv] = await Promise.all([deps.probeSystem(), deps.probeNvidia(opts)]);
  const probe: ProbeResult = {
    probedAt: deps.now().toISOString(),
    hostname: system.hostname,
    os: system.os,
    cpu: system.cpu,
    memory: system.memory,
    nvidia: nv.nvidia,
    warnings: [...system.warnings, ...nv.warnings],
  };
  return {
    machineId: machineIdFor(system),
    legacyMachineId: legacyMachineIdFor(system),
    probe,
  };
}
