/**
 * Items grouped by a key, keys in the order first seen and items in input order within a group
 * (Map.groupBy, which Node 20 lacks). With `valueOf`, each group holds that value of the item. Pure.
 */
export function groupBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]>;
export function groupBy<T, K, V>(items: Iterable<T>, keyOf: (item: T) => K, valueOf: (item: T) => V): Map<K, V[]>;
export function groupBy<T, K, V>(
  items: Iterable<T>,
  keyOf: (item: T) => K,
  valueOf?: (item: T) => V,
): Map<K, (T | V)[]> {
  const groups = new Map<K, (T | V)[]>();
  for (const item of items) {
    const key = keyOf(item);
    const value = valueOf ? valueOf(item) : item;
    const group = groups.get(key);
    if (group) group.push(value);
    else groups.set(key, [value]);
  }
  return groups;
}

/** The positions of `keys` grouped by key, keys in the order first seen. Pure. */
export function positionsBy<K>(keys: readonly K[]): Map<K, number[]> {
  return groupBy(keys.keys(), (i) => keys[i] as K);
}
