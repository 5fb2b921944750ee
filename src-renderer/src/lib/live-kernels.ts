/**
 * The live kernel list of a profile job: one row per kernel. A kernel is timed in every round
 * and a noisy one again later, so its events repeat; the latest says its status and median,
 * and moves it to the end (the most recent). Capped, the oldest kernels dropping first.
 */
export interface LiveKernel {
  id: string;
  family: string;
  status: 'measured' | 'noisy' | 'failed';
  medianUs: number | null;
}

export function withKernel<K extends LiveKernel>(list: readonly K[], k: K, cap: number): K[] {
  const next = list.filter((x) => x.id !== k.id);
  next.push(k);
  return next.length > cap ? next.slice(next.length - cap) : next;
}

/** Kernels with a time (measured, or kept noisy), and kernels that failed. */
export function kernelCounts(list: readonly LiveKernel[]): { timed: number; failed: number } {
  const failed = list.filter((k) => k.status === 'failed').length;
  return { timed: list.filter((k) => k.status !== 'failed' && k.medianUs !== null).length, failed };
}
