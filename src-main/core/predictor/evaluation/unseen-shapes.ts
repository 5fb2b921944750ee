/**
 * Unseen-shape protocols, per op and device ("partition"), with sizes log2(1 + flops +
 * bytes) and whole near-duplicate groups (groups.ts) moved together:
 * - interpolation: ~20 % (at least one) of the groups lying strictly inside the size range
 *   of the partition's other groups are tested. The groups holding the partition's
 *   smallest and largest sizes always train, so every test size is strictly inside the
 *   training range of its op and device.
 * - extrapolation: the largest ~15 % (at least one group) of each partition's samples are
 *   tested, widened until every test size exceeds every training size of its partition.
 * Partitions that cannot give a test set are named in `skipped` and stay in training. Pure.
 */
import type { Sample } from '../types.js';
import { addFold, groupKey, holdOut, indicesBy, sizeLog2 } from './groups.js';
import { seededRandom, shuffled } from './random.js';
import type { SplitResult } from './types.js';

const INTERPOLATION_SHARE = 0.2;
const EXTRAPOLATION_SHARE = 0.15;

interface Group {
  members: number[];
  min: number;
  max: number;
}

interface Partition {
  op: string;
  device: string;
  size: number;
  groups: Group[];
}

const minOf = (xs: readonly number[]): number => xs.reduce((a, b) => Math.min(a, b), Infinity);
const maxOf = (xs: readonly number[]): number => xs.reduce((a, b) => Math.max(a, b), -Infinity);

function partitions(samples: readonly Sample[]): Partition[] {
  const byPart = indicesBy(samples, (s) => JSON.stringify([s.device.deviceId, s.op]));
  return [...byPart.keys()].sort().map((key) => {
    const members = byPart.get(key) ?? [];
    const part = members.map((i) => samples[i] as Sample);
    const byGroup = indicesBy(part, groupKey); // indices into `part`
    return {
      op: part[0]?.op ?? '',
      device: part[0]?.device.deviceId ?? '',
      size: members.length,
      groups: [...byGroup.values()].map((local) => {
        const sizes = local.map((j) => sizeLog2(part[j] as Sample));
        return { members: local.map((j) => members[j] as number), min: minOf(sizes), max: maxOf(sizes) };
      }),
    };
  });
}

/** The interpolation fold; see the module comment. */
export function interpolationSplit(samples: readonly Sample[], seed: number): SplitResult {
  const out: SplitResult = { folds: [], skipped: [] };
  const rand = seededRandom(seed);
  const test: number[] = [];
  for (const p of partitions(samples)) {
    const lo = minOf(p.groups.map((g) => g.min));
    const hi = maxOf(p.groups.map((g) => g.max));
    const inside = p.groups.filter((g) => g.min > lo && g.max < hi);
    if (inside.length === 0) {
      out.skipped.push(`interpolation: ${p.op} on ${p.device}: no shape group strictly inside the size range`);
      continue;
    }
    const count = Math.max(1, Math.round(INTERPOLATION_SHARE * inside.length));
    for (const g of shuffled(inside, rand).slice(0, count)) test.push(...g.members);
  }
  addFold(out, holdOut('interpolation', samples.length, test));
  return out;
}

/** The extrapolation fold; see the module comment. */
export function extrapolationSplit(samples: readonly Sample[]): SplitResult {
  const out: SplitResult = { folds: [], skipped: [] };
  const test: number[] = [];
  for (const p of partitions(samples)) {
    const taken = largestGroups(p);
    if (taken.length === p.groups.length) {
      const why = p.groups.length < 2 ? 'only one shape group' : 'group size ranges overlap';
      out.skipped.push(`extrapolation: ${p.op} on ${p.device}: no size beyond the rest (${why})`);
      continue;
    }
    for (const g of taken) test.push(...g.members);
  }
  addFold(out, holdOut('extrapolation', samples.length, test));
  return out;
}

/** Largest groups holding ≥ the share of samples, widened until train sizes < test sizes. */
function largestGroups(p: Partition): Group[] {
  const order = [...p.groups].sort((a, b) => b.max - a.max || b.min - a.min);
  const target = Math.max(1, Math.round(EXTRAPOLATION_SHARE * p.size));
  const taken = new Set<Group>();
  let count = 0;
  for (const g of order) {
    if (count >= target) break;
    taken.add(g);
    count += g.members.length;
  }
  for (let changed = true; changed;) {
    changed = false;
    const testMin = minOf([...taken].map((g) => g.min));
    for (const g of order) {
      if (!taken.has(g) && g.max >= testMin) {
        taken.add(g);
        changed = true;
      }
    }
  }
  return [...taken];
}
