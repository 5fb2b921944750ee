import { describe, expect, it } from 'vitest';
import {
  blasPoolDoctorText,
  blasPoolNote,
  blasPoolOf,
  ownBlasPool,
} from '../../../../src-main/core/profiler/blas-pool.js';

const openblas = { library: 'OpenBLAS 0.3.21', threading: 'pthreads', threads: 2 } as const;

describe('the BLAS pool PyTorch runs its products on', () => {
  it('reads what a runner or a stored profile says, and refuses what is not a pool', () => {
    expect(blasPoolOf(openblas)).toEqual(openblas);
    expect(blasPoolOf({ library: 'MKL', threading: 'openmp', threads: null })).toEqual({
      library: 'MKL',
      threading: 'openmp',
      threads: null,
    });
    expect(blasPoolOf({ library: 'x', threading: 'fibers', threads: 2 })).toBeNull();
    expect(blasPoolOf({ threading: 'pthreads', threads: 2 })).toBeNull();
    expect(blasPoolOf(null)).toBeNull();
    expect(blasPoolOf('OpenBLAS')).toBeNull();
    // A thread count that is not a count is dropped; the library's name is printable text, cut short.
    expect(blasPoolOf({ library: 'Open\u001b[2JBLAS', threading: 'pthreads', threads: -3 })).toEqual({
      library: 'Open?[2JBLAS',
      threading: 'pthreads',
      threads: null,
    });
    expect(blasPoolOf({ library: 'x'.repeat(500), threading: 'serial', threads: 1 })?.library).toHaveLength(40);
  });

  it('a pool of its own is a pthreads pool of more than one thread', () => {
    expect(ownBlasPool(openblas)).toBe(true);
    expect(ownBlasPool({ ...openblas, threads: 1 })).toBe(false);
    expect(ownBlasPool({ ...openblas, threading: 'openmp' })).toBe(false);
    expect(ownBlasPool(null)).toBe(false);
  });

  it('warns at more than one PyTorch thread, says at one that the products still use the pool, and is quiet otherwise', () => {
    expect(blasPoolNote(openblas, 2)).toMatch(
      /^PyTorch runs its matrix products on OpenBLAS 0\.3\.21's own pthreads pool of 2 threads beside its OpenMP pool of 2 threads: .*OMP_WAIT_POLICY=PASSIVE/,
    );
    expect(blasPoolNote(openblas, 1)).toMatch(
      /^PyTorch at 1 thread still runs its matrix products on .* pool of 2 threads/,
    );
    expect(blasPoolNote({ ...openblas, threads: 1 }, 2)).toBeNull();
    expect(blasPoolNote({ library: 'MKL', threading: 'openmp', threads: null }, 2)).toBeNull();
    expect(blasPoolNote(null, 2)).toBeNull();
  });

  it('gives doctor one line either way', () => {
    expect(blasPoolDoctorText(openblas)).toMatch(
      /^matrix products on OpenBLAS 0\.3\.21's own pthreads pool of 2 threads, beside/,
    );
    expect(blasPoolDoctorText({ ...openblas, threads: 1 })).toBe('matrix products on OpenBLAS 0.3.21 (pthreads)');
  });
});
