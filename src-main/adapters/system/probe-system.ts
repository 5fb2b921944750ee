/**
 * CPU, memory and OS from systeminformation. Every field it cannot read becomes
 * null plus a warning; the probe never fails because of one.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import si from 'systeminformation';
import type { CpuInfo, MemoryInfo, OsInfo } from '../../core/domain/hardware.js';
import { errorMessage } from '../../core/errors.js';
import { fp32FlopsPerCycle, isaFromFlags } from './isa.js';

export interface SystemProbe {
  hostname: string;
  os: OsInfo;
  cpu: CpuInfo;
  memory: MemoryInfo;
  /** Stable identifier of the OS install (machine-id), when readable. */
  osUuid: string | null;
  warnings: string[];
}

const positiveOrNull = (v: number | undefined | null): number | null =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null;

async function attempt<T>(what: string, fn: () => Promise<T>, fallback: T, warnings: string[]): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    warnings.push(`could not read ${what}: ${errorMessage(e)}`);
    return fallback;
  }
}

/** Linux VMs often report no clock through cpufreq; /proc/cpuinfo still has "cpu MHz". */
function procCpuinfoMHz(): number | null {
  try {
    const m = /^cpu MHz\s*:\s*([\d.]+)/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    return m?.[1] ? positiveOrNull(Number(m[1])) : null;
  } catch {
    return null;
  }
}

export async function probeSystem(): Promise<SystemProbe> {
  const warnings: string[] = [];
  const [cpu, flags, mem, osInfo, uuid] = await Promise.all([
    attempt('CPU', () => si.cpu(), null, warnings),
    attempt('CPU flags', () => si.cpuFlags(), '', warnings),
    attempt('memory', () => si.mem(), null, warnings),
    attempt('OS', () => si.osInfo(), null, warnings),
    attempt('machine id', () => si.uuid(), null, warnings),
  ]);
  const nodeCpus = os.cpus();
  const arch = osInfo?.arch || os.arch();
  const isa = isaFromFlags(flags || cpu?.flags || '', arch);
  const manufacturer = cpu?.manufacturer || 'unknown';
  // systeminformation reports 0 GHz inside many VMs; fall back to the kernel's current MHz.
  const nodeMHz = positiveOrNull(nodeCpus[0]?.speed) ?? (process.platform === 'linux' ? procCpuinfoMHz() : null) ?? 0;
  const baseClockGHz = positiveOrNull(cpu?.speed) ?? (nodeMHz > 0 ? nodeMHz / 1000 : null);
  // Only the OS's own maximum (cpufreq) is a boost clock; the current or nominal one is no stand-in for it.
  const maxClockGHz = positiveOrNull(cpu?.speedMax);
  if (baseClockGHz === null) warnings.push('CPU clock speed unknown (the OS does not report it)');
  const cpuInfo: CpuInfo = {
    manufacturer,
    brand: cpu ? `${cpu.manufacturer} ${cpu.brand}`.trim() : (nodeCpus[0]?.model ?? 'unknown CPU'),
    physicalCores: cpu?.physicalCores || nodeCpus.length,
    logicalCores: cpu?.cores || nodeCpus.length,
    baseClockGHz,
    maxClockGHz,
    cacheBytes: {
      l1d: positiveOrNull(cpu?.cache?.l1d),
      l1i: positiveOrNull(cpu?.cache?.l1i),
      l2: positiveOrNull(cpu?.cache?.l2),
      l3: positiveOrNull(cpu?.cache?.l3),
    },
    isa,
    fp32FlopsPerCycle: fp32FlopsPerCycle(isa, {
      manufacturer,
      brand: cpu?.brand ?? '',
      family: positiveOrNull(Number(cpu?.family)),
      model: cpu?.model ? positiveOrNull(Number(cpu.model)) : null,
    }),
  };
  return {
    hostname: osInfo?.hostname || os.hostname(),
    os: {
      platform: osInfo?.platform || os.platform(),
      distro: osInfo?.distro || '',
      release: osInfo?.release || os.release(),
      kernel: osInfo?.kernel || os.release(),
      arch,
    },
    cpu: cpuInfo,
    memory: { totalBytes: mem?.total || os.totalmem() },
    osUuid: uuid?.os || null,
    warnings,
  };
}
