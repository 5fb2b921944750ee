/** `roofline` and `probe` print the CPU's theoretical peak as the app does: the same label and the same note. */
import { describe, expect, it } from 'vitest';
import { renderRoofline, type RooflineRow } from '../../../../src-main/cli/render/profile.js';
import { renderProbe } from '../../../../src-main/cli/render/probe.js';
import { cpuPeak } from '../../../../src-main/core/profiler/cpu-peak.js';
import type { DeviceSummary } from '../../../../src-main/core/profiler/device-summary.js';
import { sampleProbe } from '../../../helpers/sample-probe.js';

const summary = (fp32: number): DeviceSummary => ({
  peakGflops: { fp32 },
  peakKernel: null,
  bandwidthGBps: 40,
  dispatchOverheadUs: 3,
  ridgePoint: fp32 / 40,
  h2d: null,
  d2h: null,
  kernels: 20,
});

function rows(cpu: ReturnType<typeof sampleProbe>['cpu'], peaks: [number, number][]): RooflineRow[] {
  const measured = peaks.map(([threads, gflops]) => ({ threads, gflops }));
  return peaks.map(([threads, gflops]) => ({
    deviceKey: 'cpu',
    executionProvider: 'cpu',
    threads,
    summary: summary(gflops),
    theoreticalPeak: cpuPeak(cpu, threads, measured),
    overhead: null,
  }));
}

/** The THEORETICAL column of the roofline table, row by row (below its header and rule). */
function theoreticalColumn(text: string): string[] {
  const lines = text.split('\n');
  const header = lines[0]!;
  const start = header.indexOf('THEORETICAL');
  const end = header.indexOf('GB/s', start);
  return lines.slice(2, lines.indexOf('')).map((l) => l.slice(start, end).trim());
}

describe('the theoretical CPU peak in the CLI', () => {
  it('prints the ceiling with the share of it measured, and its note', () => {
    const cpu = sampleProbe().cpu; // 16 cores, 5.7 GHz boost, 32 FLOP/cycle
    const text = renderRoofline(rows(cpu, [[1, 120]]));
    expect(theoreticalColumn(text)).toEqual(['182 (66%)']);
    expect(text).toContain(`\ncpu at 1 thread: ${cpuPeak(cpu, 1, [{ gflops: 120, threads: 1 }]).note}`);
  });

  it('prints no percentage above 100: unknown, with the same note at every thread count and in the probe', () => {
    // The virtual machine: 2 vCPUs of a Zen 5 EPYC reported at a nominal 2.6 GHz, no boost clock.
    const base = sampleProbe();
    const probe = {
      ...base,
      cpu: {
        ...base.cpu,
        brand: 'AMD EPYC',
        physicalCores: 2,
        baseClockGHz: 2.6,
        maxClockGHz: null,
        fp32FlopsPerCycle: 64,
      },
    };
    const text = renderRoofline(
      rows(probe.cpu, [
        [1, 250],
        [2, 526],
      ]),
    );
    expect(theoreticalColumn(text)).toEqual(['unknown: no boost clock reported', 'unknown: no boost clock reported']);
    expect(text).not.toMatch(/\d{3,}%/);
    const machine = cpuPeak(probe.cpu, null, [
      { threads: 1, gflops: 250 },
      { threads: 2, gflops: 526 },
    ]);
    expect(text).toContain(`cpu at 2 threads: ${machine.note}`);
    expect(machine.note).toContain('526 GFLOP/s measured on 2 cores needs 4.11 GHz or more');
    const probed = renderProbe('m1', probe, [], [], machine);
    expect(probed).toContain(`2.60 GHz, boost clock not reported`);
    expect(probed).toContain(`\n         ${machine.note}\n`);
  });
});
