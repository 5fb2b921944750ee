/**
 * Devices that take the same time on every layer, as classes: a cluster's thousands of GPUs are a
 * few kinds, and a stage's replicas of one kind cost the same. Pure.
 */

/** Whether two prefix arrays are equal entry by entry. */
function same(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Per device, a class shared exactly by the devices whose per-layer step, forward and missing-layer
 * prefix sums are all equal (classes numbered in order of first appearance).
 */
export function timeClasses(
  step: readonly Float64Array[],
  forward: readonly Float64Array[],
  missing: readonly Int32Array[],
): Int32Array {
  // Candidates by their totals first, then compared in full.
  const byTotal = new Map<string, { device: number; cls: number }[]>();
  let classes = 0;
  return Int32Array.from(step, (s, d) => {
    const f = forward[d] as Float64Array;
    const m = missing[d] as Int32Array;
    const key = `${s[s.length - 1]}/${f[f.length - 1]}/${m[m.length - 1]}`;
    const list = byTotal.get(key) ?? [];
    byTotal.set(key, list);
    const hit = list.find(
      ({ device: h }) =>
        same(s, step[h] as Float64Array) && same(f, forward[h] as Float64Array) && same(m, missing[h] as Int32Array),
    );
    if (hit) return hit.cls;
    list.push({ device: d, cls: classes });
    return classes++;
  });
}

/** The first replica of each sequence of its members' classes (replicas alike cost the same). */
export function distinctReplicas(replicas: readonly number[][], timeClass: Int32Array): number[][] {
  const seen = new Set<string>();
  return replicas.filter((members) => {
    const key = members.map((d) => timeClass[d]).join(',');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
