/**
 * Devices that take the same time on every layer, as classes: a cluster's thousands of GPUs are a
 * few kinds, and a stage's replicas of one kind cost the same. Pure.
 */
import { recomputedBackwardParts } from '../memory/recompute.js';

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

/**
 * Each device's prefix sums over the layers (step, forward, layers without a time) and its time
 * class. Devices of a class share one set of arrays: a cluster's 16,384 GPUs of one kind hold
 * one, not 16,384.
 */
export interface DevicePrefixes {
  step: Float64Array[];
  forward: Float64Array[];
  missing: Int32Array[];
  timeClass: Int32Array;
}

/**
 * A problem's per-device prefixes, worked out once per layer list, device list, mode and keys: a
 * search's variants (ZeRO stages, recomputation) share their layers, so 16,384 GPUs' times are
 * read once per distinct layer list rather than once per variant.
 */
const prefixCache = new WeakMap<
  readonly object[],
  WeakMap<readonly object[], Map<boolean, { timesOf: object | undefined; prefixes: DevicePrefixes }>>
>();

type TimedLayer = { forwardUs: Record<string, number>; backwardUs: Record<string, number> };

/** One device's times, layer by layer: forward, step (forward + backward when training) and 1 where it has none (its times 0). */
function readRow(layers: readonly TimedLayer[], id: string, training: boolean, row: Float64Array): void {
  layers.forEach((layer, l) => {
    const f = layer.forwardUs[id];
    const b = training ? backwardUs(layer, id) : 0;
    const ok = f !== undefined && b !== undefined && Number.isFinite(f) && Number.isFinite(b);
    row[3 * l] = ok ? f : 0;
    row[3 * l + 1] = ok ? f + b : 0;
    row[3 * l + 2] = ok ? 0 : 1;
  });
}

/** A layer's backward time on a device; a recomputed layer's from its parts, its sum record never built. */
function backwardUs(layer: TimedLayer, id: string): number | undefined {
  const parts = recomputedBackwardParts(layer);
  if (!parts) return layer.backwardUs[id];
  const own = parts[0][id];
  return own === undefined ? undefined : own + (parts[1][id] ?? 0);
}

function sameRow(a: Float64Array, b: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A class's prefix sums from its row. */
function rowPrefixes(row: Float64Array, L: number): { step: Float64Array; forward: Float64Array; missing: Int32Array } {
  const step = new Float64Array(L + 1);
  const forward = new Float64Array(L + 1);
  const missing = new Int32Array(L + 1);
  for (let l = 0; l < L; l++) {
    forward[l + 1] = (forward[l] as number) + (row[3 * l] as number);
    step[l + 1] = (step[l] as number) + (row[3 * l + 1] as number);
    missing[l + 1] = (missing[l] as number) + (row[3 * l + 2] as number);
  }
  return { step, forward, missing };
}

/**
 * Devices whose every layer takes the same forward and step time (and misses the same layers)
 * form a class, numbered in order of first appearance; each class's prefixes are summed once.
 * Exact for mixed clusters: a device joins a class only when its times equal the class's, layer
 * by layer.
 */
export function devicePrefixes(
  layers: readonly TimedLayer[],
  devices: readonly { id: string }[],
  training: boolean,
  timesOf?: Readonly<Record<string, string>>,
): DevicePrefixes {
  let byDevices = prefixCache.get(layers);
  if (!byDevices) prefixCache.set(layers, (byDevices = new WeakMap()));
  let byMode = byDevices.get(devices);
  if (!byMode) byDevices.set(devices, (byMode = new Map()));
  const hit = byMode.get(training);
  if (hit && hit.timesOf === timesOf) return hit.prefixes;
  const L = layers.length;
  const rows: Float64Array[] = [];
  const sets: ReturnType<typeof rowPrefixes>[] = [];
  const timeClass = new Int32Array(devices.length);
  // Classes by their row's total (candidates, compared in full).
  const byTotal = new Map<number, number[]>();
  let row = new Float64Array(3 * L);
  let last = -1;
  // Devices keyed alike (PlanProblem.timesOf) read the same records: the key's class, read once.
  const keyClass = new Map<string, number>();
  devices.forEach((d, di) => {
    const key = timesOf?.[d.id] ?? d.id;
    const known = keyClass.get(key);
    if (known !== undefined) {
      timeClass[di] = last = known;
      return;
    }
    readRow(layers, key, training, row);
    // Like devices come in runs: the last class first.
    let cls = last >= 0 && sameRow(row, rows[last] as Float64Array) ? last : -1;
    if (cls < 0) {
      const total = row.reduce((a, b) => a + b, 0);
      const list = byTotal.get(total) ?? [];
      byTotal.set(total, list);
      cls = list.find((c) => sameRow(row, rows[c] as Float64Array)) ?? -1;
      if (cls < 0) {
        cls = rows.length;
        list.push(cls);
        rows.push(row);
        sets.push(rowPrefixes(row, L));
        row = new Float64Array(3 * L);
      }
    }
    timeClass[di] = cls;
    last = cls;
    keyClass.set(key, cls);
  });
  const of = Array.from(timeClass, (c) => sets[c] as ReturnType<typeof rowPrefixes>);
  const out: DevicePrefixes = {
    step: of.map((p) => p.step),
    forward: of.map((p) => p.forward),
    missing: of.map((p) => p.missing),
    timeClass,
  };
  byMode.set(training, { timesOf, prefixes: out });
  return out;
}
