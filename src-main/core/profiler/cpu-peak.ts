/**
 * The theoretical fp32 peak of a CPU, reckoned once for every view (the probe, the roofline table, the
 * Workstation and Profile views, the roofline chart): cores x max boost clock x FLOP/cycle of the ISA's
 * datapath (adapters/system/isa.ts). It is a ceiling only where the OS reports a boost clock and no measured
 * fp32 peak of the machine needs a faster one; otherwise it is unknown, and the note says why and what the
 * measurements imply. Pure.
 */
import type { CpuInfo } from '../domain/hardware.js';
import { count } from '../text/plural.js';

/** Each state of the theoretical peak, with what a table cell or the chart says where it is unknown. */
const CPU_PEAK_STATES = {
  /** Cores x max boost clock x FLOP/cycle, and no measured peak needs a faster clock: the label is the figure. */
  ceiling: null,
  /** A measured fp32 peak needs a clock above the max boost clock the OS reports. */
  'measured-above': 'unknown: a measured peak needs a faster clock',
  /** The OS reports a clock, but no boost clock (a virtual machine's nominal clock). */
  'no-boost-clock': 'unknown: no boost clock reported',
  /** The OS reports no clock at all. */
  'no-clock': 'unknown: no clock reported',
} as const;
export type CpuPeakState = keyof typeof CPU_PEAK_STATES;

/** A measured fp32 peak of the CPU and the threads it ran on (null: all of them). */
export interface MeasuredCpuPeak {
  gflops: number;
  threads: number | null;
}

export interface CpuPeak {
  /** The theoretical fp32 ceiling (GFLOP/s): null unless it is one (a boost clock known, nothing measured above it). */
  gflops: number | null;
  state: CpuPeakState;
  /** Cores it counts: the threads asked for, at most the physical cores. */
  cores: number;
  flopsPerCycle: number;
  /** The max boost clock the OS reports; null when it reports none (or only the base clock again). */
  boostClockGHz: number | null;
  /** The clock it assumed: the max boost clock; without one, the clock the OS reports; null with none. */
  clockGHz: number | null;
  /** The clock the fastest measured fp32 peak needs (measured / (its cores x FLOP/cycle)); null with none measured. */
  impliedClockGHz: number | null;
  /** Short, for a table cell and the chart's ceiling line. */
  label: string;
  /** One sentence every view prints: how it was reckoned and how far off it may be. */
  note: string;
}

const ghz = (v: number): string => `${v.toFixed(2)} GHz`;
const gflops = (v: number): string => `${v.toFixed(0)} GFLOP/s`;

/** The boost clock the OS reports: a maximum above the base (older probes copied the base when there was none). */
function boostClockGHz(cpu: Pick<CpuInfo, 'baseClockGHz' | 'maxClockGHz'>): number | null {
  const max = cpu.maxClockGHz;
  return max !== null && (cpu.baseClockGHz === null || max > cpu.baseClockGHz) ? max : null;
}

function coresFor(cpu: CpuInfo, threads: number | null): number {
  const physical = Math.max(1, cpu.physicalCores);
  return threads === null ? physical : Math.max(1, Math.min(threads, physical));
}

/** The measured peak that needs the fastest clock, and that clock. */
function fastest(
  cpu: CpuInfo,
  measured: readonly MeasuredCpuPeak[],
): { m: MeasuredCpuPeak; cores: number; clock: number } | null {
  let best: { m: MeasuredCpuPeak; cores: number; clock: number } | null = null;
  for (const m of measured) {
    const cores = coresFor(cpu, m.threads);
    const clock = m.gflops / (cores * cpu.fp32FlopsPerCycle);
    if (Number.isFinite(clock) && clock > 0 && (!best || clock > best.clock)) best = { m, cores, clock };
  }
  return best;
}

/**
 * The theoretical fp32 peak of `threads` cores (null: all), judged against every measured fp32 peak of the
 * machine's CPU: a peak measured on any thread count implies a clock the cores reached, so each thread count
 * of a machine gets the same verdict.
 */
export function cpuPeak(cpu: CpuInfo, threads: number | null, measured: readonly MeasuredCpuPeak[]): CpuPeak {
  const cores = coresFor(cpu, threads);
  const fpc = cpu.fp32FlopsPerCycle;
  const boost = boostClockGHz(cpu);
  const clockGHz = boost ?? cpu.baseClockGHz;
  const top = fastest(cpu, measured);
  const base = { cores, flopsPerCycle: fpc, boostClockGHz: boost, clockGHz, impliedClockGHz: top?.clock ?? null };
  const evidence = top
    ? `${gflops(top.m.gflops)} measured on ${count(top.cores, 'core')} needs ${ghz(top.clock)} or more at ${fpc} FLOP/cycle`
    : null;
  const unknown = (state: Exclude<CpuPeakState, 'ceiling'>, why: string): CpuPeak => ({
    ...base,
    gflops: null,
    state,
    label: CPU_PEAK_STATES[state],
    note: `theoretical fp32 peak unknown: ${why}`,
  });
  if (clockGHz === null) return unknown('no-clock', `the OS reports no CPU clock${evidence ? `; ${evidence}` : ''}`);
  const atClock = cores * clockGHz * fpc;
  const product = `${count(cores, 'core')} x ${ghz(clockGHz)} x ${fpc} FLOP/cycle`;
  if (boost === null)
    return unknown(
      'no-boost-clock',
      `the OS reports a ${ghz(clockGHz)} clock but no boost clock (a virtual machine often reports only a nominal ` +
        `one); at that clock, ${product} would be ${gflops(atClock)}` +
        (evidence && top && top.clock > clockGHz ? `, but ${evidence}: the cores boost past it` : ''),
    );
  if (top && top.clock > boost)
    return unknown(
      'measured-above',
      `${evidence}, above the ${ghz(boost)} max boost clock the OS reports (${product} = ${gflops(atClock)}): ` +
        `the cores run faster than reported or do more than ${fpc} FLOP/cycle`,
    );
  return {
    ...base,
    gflops: atClock,
    state: 'ceiling',
    label: `${gflops(atClock)} at ${ghz(boost)} max boost`,
    note:
      `theoretical fp32 peak ${gflops(atClock)} = ${count(cores, 'core')} x ${ghz(boost)} max boost clock x ${fpc} FLOP/cycle: ` +
      'a ceiling no kernel passes; sustained all-core clocks run below the max boost, so the best kernels reach less',
  };
}
