/**
 * Indices in ascending order of their keys, ties by index (the order a stable sort gives), drawn
 * one at a time from a binary heap: a search that stops after its first few of 47,000 candidates
 * pays O(n) to build the heap and O(log n) a draw, not a whole sort. Pure.
 */
export function* ascending(keys: Float64Array): Generator<number> {
  const heap = Int32Array.from(keys, (_, i) => i);
  const before = (a: number, b: number): boolean =>
    (keys[a] as number) < (keys[b] as number) || (keys[a] === keys[b] && a < b);
  const down = (from: number, n: number): void => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      const c = r < n && before(heap[r] as number, heap[l] as number) ? r : l;
      if (!before(heap[c] as number, heap[i] as number)) return;
      [heap[i], heap[c]] = [heap[c] as number, heap[i] as number];
      i = c;
    }
  };
  let n = heap.length;
  for (let i = (n >> 1) - 1; i >= 0; i--) down(i, n);
  while (n > 0) {
    const top = heap[0] as number;
    heap[0] = heap[--n] as number;
    down(0, n);
    yield top;
  }
}
