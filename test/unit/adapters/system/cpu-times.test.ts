import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProcStat, readCpuTimes } from '../../../../src-main/adapters/system/cpu-times.js';

/** /proc/stat of a 2-vCPU VM (Linux 6.x): user nice system idle iowait irq softirq steal guest guest_nice. */
const VM = `cpu  2529840 98401 456363 2341004 8950 0 3654 3696 0 0
cpu0 1203353 50933 218825 1241263 3364 0 1233 1832 0 0
cpu1 1326487 47467 237538 1099741 5586 0 2420 1863 0 0
intr 30973811 0 0 0
ctxt 88800574
btime 1764200000
processes 123456
procs_running 3
procs_blocked 0
`;

/** An old kernel (2.6.0-2.6.10) without the steal column, 4 CPUs. */
const OLD = `cpu  100 0 50 800 10 0 0
cpu0 25 0 12 200 3 0 0
cpu1 25 0 13 200 2 0 0
cpu2 25 0 12 200 3 0 0
cpu3 25 0 13 200 2 0 0
`;

describe('parseProcStat', () => {
  it('reads busy, stolen and total time and counts the CPUs', () => {
    expect(parseProcStat(VM)).toEqual({
      busy: 2529840 + 98401 + 456363 + 0 + 3654,
      steal: 3696,
      total: 2529840 + 98401 + 456363 + 2341004 + 8950 + 0 + 3654 + 3696,
      cpus: 2,
    });
  });

  it('reads a kernel without the steal column as nothing stolen', () => {
    expect(parseProcStat(OLD)).toEqual({ busy: 150, steal: 0, total: 960, cpus: 4 });
  });

  it('is null for text that is not /proc/stat', () => {
    expect(parseProcStat('')).toBeNull();
    expect(parseProcStat('intr 1 2 3\ncpu 1 2')).toBeNull();
    expect(parseProcStat('cpu  a b c d e')).toBeNull();
  });
});

describe('readCpuTimes', () => {
  it('is null where there is no /proc/stat (macOS, Windows)', () => {
    expect(readCpuTimes(path.join(tmpdir(), 'no-such-dir-pdv', 'stat'))).toBeNull();
  });

  it('reads a file in /proc/stat form', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pdv-stat-'));
    writeFileSync(path.join(dir, 'stat'), VM);
    expect(readCpuTimes(path.join(dir, 'stat'))?.cpus).toBe(2);
  });
});
