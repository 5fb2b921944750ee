import { describe, expect, it } from 'vitest';
import { kernelCounts, withKernel, type LiveKernel } from '../../../../src-renderer/src/lib/live-kernels.js';

const k = (id: string, status: LiveKernel['status'], medianUs: number | null = 1): LiveKernel => ({
  id,
  family: 'gemm',
  status,
  medianUs,
});

describe('the live kernels of a profile job', () => {
  it('keeps one row per kernel through rounds and retries, the latest event winning', () => {
    let list: LiveKernel[] = [];
    for (const e of [k('a', 'noisy'), k('b', 'measured'), k('a', 'measured', 2), k('b', 'measured', 3)])
      list = withKernel(list, e, 10);
    expect(list).toEqual([k('a', 'measured', 2), k('b', 'measured', 3)]);
    expect(kernelCounts(list)).toEqual({ timed: 2, failed: 0 });
  });

  it('drops the oldest kernels past the cap and counts failures apart', () => {
    let list: LiveKernel[] = [];
    for (const e of [k('a', 'measured'), k('b', 'failed', null), k('c', 'measured')]) list = withKernel(list, e, 2);
    expect(list.map((x) => x.id)).toEqual(['b', 'c']);
    expect(kernelCounts(list)).toEqual({ timed: 1, failed: 1 });
  });

  it('counts a kernel once per target, as the summary of each target does', () => {
    let list: LiveKernel[] = [];
    const on = (target: string, status: LiveKernel['status']): LiveKernel => ({ ...k('a', status), target });
    for (const e of [on('cpu, 1 thread', 'noisy'), on('cpu, 2 threads', 'measured'), on('cpu, 1 thread', 'measured')])
      list = withKernel(list, e, 10);
    expect(list.map((x) => [x.target, x.status])).toEqual([
      ['cpu, 2 threads', 'measured'],
      ['cpu, 1 thread', 'measured'],
    ]);
    expect(kernelCounts(list)).toEqual({ timed: 2, failed: 0 });
  });
});
