/**
 * The BLAS library PyTorch runs its matrix products on, and whether it brings a thread pool of its
 * own. A PyTorch built against a generic BLAS (Debian's python3-torch: BLAS_INFO=generic, OpenBLAS
 * through the libblas.so.3 alternative) runs its products on OpenBLAS's pthreads pool, sized to the
 * cores and blind to torch.set_num_threads, and its other parallel ops on its OpenMP pool. With more
 * than one PyTorch thread both pools have idle threads spinning, each against the other's work
 * (docs/profiling.md, "Two thread pools"). Pure.
 */
import { count } from '../text/plural.js';

const BLAS_THREADING = ['pthreads', 'openmp', 'serial', 'unknown'] as const;
export type BlasThreading = (typeof BLAS_THREADING)[number];

export interface BlasPool {
  /** "OpenBLAS 0.3.21", "MKL", or "unknown". */
  library: string;
  /** How the library runs in parallel: its own pthreads pool, the caller's OpenMP, or not at all. */
  threading: BlasThreading;
  /** The threads of its own pool; null where it has none or did not say. */
  threads: number | null;
}

/** Whether the products run on a pool of their own with more than one thread. */
export function ownBlasPool(b: BlasPool | null | undefined): b is BlasPool & { threads: number } {
  return !!b && b.threading === 'pthreads' && (b.threads ?? 1) > 1;
}

const CONTENTION =
  "each pool's idle threads spin while the other works; on the project's 2-vCPU VM a prefill ran 3-7x slower at 2 threads than at 1 (docs/profiling.md)";
const REMEDY =
  'OMP_WAIT_POLICY=PASSIVE or OPENBLAS_NUM_THREADS=1 in the process that runs the model removes the contention';

const ownPool = (b: BlasPool & { threads: number }): string =>
  `${b.library}'s own pthreads pool of ${count(b.threads, 'thread')}`;

/**
 * What to tell a user of PyTorch at `torchThreads` threads whose products run on a pool of their
 * own: at more than one thread the two pools contend (predictions price each op alone, so they are
 * too fast there); at one thread the products still use the BLAS pool's threads. Null otherwise.
 */
export function blasPoolNote(b: BlasPool | null | undefined, torchThreads: number): string | null {
  if (!ownBlasPool(b)) return null;
  if (torchThreads <= 1)
    return `PyTorch at 1 thread still runs its matrix products on ${ownPool(b)} (it does not follow torch.set_num_threads); the 1-thread figures include them`;
  return `PyTorch runs its matrix products on ${ownPool(b)} beside its OpenMP pool of ${count(torchThreads, 'thread')}: ${CONTENTION}; these predictions price each op alone and do not count it. ${REMEDY}`;
}

/** `doctor`'s line on the BLAS PyTorch's products run on. */
export function blasPoolDoctorText(b: BlasPool): string {
  if (!ownBlasPool(b)) return `matrix products on ${b.library} (${b.threading})`;
  return `matrix products on ${ownPool(b)}, beside PyTorch's OpenMP pool: at more than 1 PyTorch thread ${CONTENTION}. ${REMEDY}`;
}

/** A BLAS pool as a runner or a stored profile says it; null when it is not one. */
export function blasPoolOf(v: unknown): BlasPool | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  const threading = BLAS_THREADING.find((t) => t === o['threading']);
  const threads = o['threads'];
  if (typeof o['library'] !== 'string' || !threading) return null;
  const n = typeof threads === 'number' && Number.isInteger(threads) && threads > 0 && threads < 1e5 ? threads : null;
  return { library: o['library'].replace(/[^\x20-\x7e]/g, '?').slice(0, 40), threading, threads: n };
}
