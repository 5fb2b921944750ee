/**
 * Grouping of near-duplicate samples and their size, shared by the splits. Pure.
 *
 * Group key: device id, op, dtype and every shape dim rounded to its nearest power of 2
 * on a log scale (`Math.round(Math.log2(v))`, so 3 → 2^2, 5 → 2^2, 6 → 2^3; dims ≤ 0 are
 * kept as they are). Shapes such as M=1000 and M=1024 therefore share a group and never
 * straddle train and test; the same shape on another device is another group.
 */
import { positionsBy } from '../../util/group-by.js';
import type { OpInstance, Sample } from '../types.js';
import type { Fold, SplitResult } from './types.js';

/** The power-of-2 bucket of one shape dim, e.g. "2^10" for 1000 and 1024. */
export function dimBucket(value: number): string {
  if (!(value > 0) || !Number.isFinite(value)) return String(value);
  return `2^${Math.round(Math.log2(value))}`;
}

export function groupKey(sample: Sample): string {
  const dims = Object.keys(sample.shape)
    .sort()
    .map((d) => `${d}=${dimBucket(sample.shape[d] ?? 0)}`);
  return [sample.device.deviceId, sample.op, sample.dtype, ...dims].join('|');
}

/** Size of an op on a log scale: log2(1 + flops + bytes). */
export function sizeLog2(op: OpInstance): number {
  return Math.log2(1 + op.flops + op.bytes);
}

/** Indices of `samples` per key, keys in order of first appearance. */
export function indicesBy(samples: readonly Sample[], keyOf: (s: Sample) => string): Map<string, number[]> {
  return positionsBy(samples.map(keyOf));
}

/** All indices in [0, n) not in `test`, ascending. */
function complement(n: number, test: ReadonlySet<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (!test.has(i)) out.push(i);
  return out;
}

/** Adds the fold when both sides are non-empty, else records why it was skipped. */
export function addFold(out: SplitResult, fold: Fold): void {
  if (fold.test.length === 0) out.skipped.push(`${fold.name}: skipped, no test samples`);
  else if (fold.train.length === 0) out.skipped.push(`${fold.name}: skipped, no training samples`);
  else out.folds.push(fold);
}

/** The fold holding out `test` (any order) with every other sample in training. */
export function holdOut(name: string, n: number, test: Iterable<number>): Fold {
  const set = new Set(test);
  return { name, train: complement(n, set), test: [...set].sort((a, b) => a - b) };
}

/** The sample at `index`; throws when there is none. */
export function sampleAt(samples: readonly Sample[], index: number): Sample {
  const s = samples[index];
  if (!s) throw new RangeError(`no sample ${index} (there are ${samples.length})`);
  return s;
}
