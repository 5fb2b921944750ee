/**
 * The live kernel list of a profile job: one row per kernel and target (a profile of the CPU at 1
 * and 4 threads measures each kernel twice, as the CLI's summaries count it). A kernel is timed in
 * every round and a noisy one again later, so its events repeat; the latest says its status and
 * median, and moves it to the end (the most recent). Capped, the oldest kernels dropping first.
 */
export interface LiveKernel {
  id: string;
  /** The target it was measured on ("cpu, 1 thread"). */
  target?: string;
  family: string;
  status: 'measured' | 'noisy' | 'failed';
  medianUs: number | null;
}

export function withKernel<K extends LiveKernel>(list: readonly K[], k: K, cap: number): K[] {
  const next = list.filter((x) => x.id !== k.id || x.target !== k.target);
  next.push(k);
  return next.length > cap ? next.slice(next.length - cap) : next;
}

/** Kernels with a time (measured, or kept noisy), and kernels that failed. */
export function kernelCounts(list: readonly LiveKernel[]): { timed: number; failed: number } {
  const failed = list.filter((k) => k.status === 'failed').length;
  return { timed: list.filter((k) => k.status !== 'failed' && k.medianUs !== null).length, failed };
}
