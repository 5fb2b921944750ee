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

/** Each device's prefix sums over the layers (step, forward, layers without a time) and its time class. */
export interface DevicePrefixes {
  step: Float64Array[];
  forward: Float64Array[];
  missing: Int32Array[];
  timeClass: Int32Array;
}

/**
 * A problem's per-device prefixes, worked out once per layer list, device list and mode: a
 * search's variants (ZeRO stages, recomputation) share their layers, so 16,384 GPUs' times are
 * read once per distinct layer list rather than once per variant.
 */
const prefixCache = new WeakMap<readonly object[], WeakMap<readonly object[], Map<boolean, DevicePrefixes>>>();

export function devicePrefixes(
  layers: readonly { forwardUs: Record<string, number>; backwardUs: Record<string, number> }[],
  devices: readonly { id: string }[],
  training: boolean,
): DevicePrefixes {
  let byDevices = prefixCache.get(layers);
  if (!byDevices) prefixCache.set(layers, (byDevices = new WeakMap()));
  let byMode = byDevices.get(devices);
  if (!byMode) byDevices.set(devices, (byMode = new Map()));
  const hit = byMode.get(training);
  if (hit) return hit;
  const L = layers.length;
  const out: DevicePrefixes = { step: [], forward: [], missing: [], timeClass: new Int32Array(0) };
  for (const d of devices) {
    const step = new Float64Array(L + 1);
    const fwd = new Float64Array(L + 1);
    const missing = new Int32Array(L + 1);
    layers.forEach((layer, l) => {
      const f = layer.forwardUs[d.id];
      const b = training ? layer.backwardUs[d.id] : 0;
      const ok = f !== undefined && b !== undefined && Number.isFinite(f) && Number.isFinite(b);
      fwd[l + 1] = (fwd[l] as number) + (ok ? f : 0);
      step[l + 1] = (step[l] as number) + (ok ? f + b : 0);
      missing[l + 1] = (missing[l] as number) + (ok ? 0 : 1);
    });
    out.step.push(step);
    out.forward.push(fwd);
    out.missing.push(missing);
  }
  out.timeClass = timeClasses(out.step, out.forward, out.missing);
  byMode.set(training, out);
  return out;
}
