import { describe, expect, it } from 'vitest';
import {
  busyBetween,
  crowded,
  othersBeside,
  poorConditions,
  QUIET_CPUS,
  runConditions,
  STEAL_LIMIT,
  type CpuTimes,
} from '../../../../src-main/core/profiler/run-conditions.js';

const at = (busy: number, steal: number, total: number, cpus = 2): CpuTimes => ({ busy, steal, total, cpus });

describe('busyBetween', () => {
  it('gives the CPUs kept busy between two readings and the share stolen', () => {
    // 200 ticks over 2 CPUs, 120 of them busy: 1.2 CPUs; 10 stolen: 5%.
    const r = busyBetween(at(1000, 50, 5000), at(1120, 60, 5200));
    expect(r?.cpus).toBeCloseTo(1.2);
    expect(r?.stealShare).toBeCloseTo(0.05);
  });

  it('gives nothing when no time passed between the readings', () => {
    expect(busyBetween(at(1, 0, 10), at(1, 0, 10))).toBeNull();
    expect(busyBetween(at(1, 0, 10), at(1, 0, 5))).toBeNull();
  });
});

describe('poorConditions', () => {
  const quiet = { othersBefore: 0.1, othersAfter: 0.05, stealShare: 0.01, waitedMs: 0 };

  it('is null on a quiet host', () => {
    expect(poorConditions(quiet)).toBeNull();
    expect(runConditions(quiet).poor).toBeNull();
  });

  it('names the busiest side when other work ran before or after', () => {
    expect(poorConditions({ ...quiet, othersAfter: 1.2 })).toBe('other work kept 1.2 CPUs busy around it');
    expect(poorConditions({ ...quiet, othersBefore: QUIET_CPUS + 0.2 })).toMatch(/0\.5 CPUs busy/);
  });

  it('names stolen time above the limit, and both causes together', () => {
    expect(poorConditions({ ...quiet, stealShare: STEAL_LIMIT + 0.07 })).toBe(
      'the hypervisor stole 12% of its CPU time',
    );
    expect(poorConditions({ ...quiet, othersBefore: 1, stealShare: 0.2 })).toBe(
      'other work kept 1.0 CPUs busy around it and the hypervisor stole 20% of its CPU time',
    );
  });

  it('does not call conditions that were not read poor', () => {
    expect(poorConditions({ othersBefore: null, othersAfter: null, stealShare: null, waitedMs: 0 })).toBeNull();
  });
});

describe('othersBeside: other processes\u2019 work beside our own over a window', () => {
  it('is the host\u2019s busy CPUs less our own CPU time', () => {
    // 200 ticks over 2 CPUs in 100 ms, 180 busy: 1.8 CPUs; we used 150 ms of CPU (1.5 CPUs): 0.3 others.
    expect(othersBeside(at(0, 0, 0), at(180, 0, 200), 150, 100)).toBeCloseTo(0.3, 6);
    // Our pool spinning on both CPUs: nothing else.
    expect(othersBeside(at(0, 0, 0), at(200, 0, 200), 200, 100)).toBe(0);
  });
  it('says nothing for a window too short for the 10 ms ticks, or without readings', () => {
    expect(othersBeside(at(0, 0, 0), at(8, 0, 10), 20, 50)).toBeNull();
    expect(othersBeside(at(0, 0, 0), at(0, 0, 0), 0, 100)).toBeNull();
  });
});

describe('crowded: a kernel whose threads did not each have a CPU', () => {
  it('at 2 threads on 2 CPUs, any work beyond quiet crowds it; at 1 thread, only more than the other CPU', () => {
    expect(crowded(QUIET_CPUS + 0.1, 2, 2)).toBe(true);
    expect(crowded(QUIET_CPUS - 0.1, 2, 2)).toBe(false);
    expect(crowded(1, 1, 2)).toBe(false);
    expect(crowded(1.5, 1, 2)).toBe(true);
    // 8 threads on 16 CPUs leave 8 free.
    expect(crowded(7, 8, 16)).toBe(false);
    expect(crowded(null, 2, 2)).toBe(false);
  });
});
