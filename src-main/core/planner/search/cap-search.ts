/**
 * Alpa's outer loop: min over a cap T of G(T) + (m − 1)·T, where G(T) is the least Σ of a plan
 * whose stage and cut times are all ≤ T, T ranging over the sorted distinct times. Pure.
 *
 * G is a non-increasing step function of T, so the T axis is searched by branch and bound: an
 * interval (T_i, T_j) is dropped when G(T_j) + (m − 1)·T_{i+1} cannot beat the best found (or a
 * bound from elsewhere), and the caps T of the interval with G(T_j) + (m − 1)·T no better are cut
 * off its top before it is split (likewise with a known lower bound of G for the whole axis); and a solution at T whose actual maximum is T* ≤ T has
 * G(T*) = G(T), so (T*, T] needs no run. The result is the same as running every T.
 */

/** Sorted distinct copy of the values. */
export function sortedDistinct(values: Float64Array): Float64Array {
  const sorted = Float64Array.from(values).sort();
  let w = 0;
  for (let i = 0; i < sorted.length; i++) {
    const v = sorted[i] as number;
    if (w === 0 || v !== sorted[w - 1]) sorted[w++] = v;
  }
  return sorted.slice(0, w);
}

/**
 * The least value v with ok(v), for ok false then true along the sorted values (Infinity when
 * none): a binary search by quickselect on the unsorted values (reordered in place), O(n) moves
 * and O(log n) calls to ok on average.
 */
export function leastPassing(values: Float64Array, ok: (v: number) => boolean): number {
  let lo = 0;
  let hi = values.length;
  let best = Infinity;
  let seed = 12345;
  while (lo < hi) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const pivot = values[lo + (seed % (hi - lo))] as number;
    // Three-way partition of [lo, hi): < pivot, = pivot, > pivot.
    let lt = lo;
    let i = lo;
    let gt = hi;
    while (i < gt) {
      const v = values[i] as number;
      if (v < pivot) {
        values[i] = values[lt] as number;
        values[lt] = v;
        lt++;
        i++;
      } else if (v > pivot) {
        gt--;
        values[i] = values[gt] as number;
        values[gt] = v;
      } else i++;
    }
    if (ok(pivot)) {
      best = pivot;
      hi = lt;
    } else lo = gt;
  }
  return best;
}

export interface CapSolution {
  /** G(T): the least Σ under the cap. */
  value: number;
  /** The largest stage or cut time of that solution (one of the caps). */
  actualMax: number;
}

export interface CapSearchResult<S> {
  solution: S | null;
  /** value + (m − 1)·actualMax of the solution (Infinity when none). */
  total: number;
  /** Calls to solve. */
  runs: number;
}

/**
 * @param caps sorted ascending, distinct: every largest time a plan that could beat the bound may have
 * @param weight m − 1
 * @param solve G(T) with its solution, or null when nothing fits under T
 * @param bound skip what cannot beat this (the best of other searches)
 * @param floor a lower bound of G over every cap (G(∞) or less); caps with floor + weight·T no
 *   better than the best are never run
 * @param first solve(caps[0]) when the caller has it
 */
export function minOverCap<S extends CapSolution>(
  caps: Float64Array,
  weight: number,
  solve: (cap: number) => S | null,
  bound = Infinity,
  floor = -Infinity,
  first?: { solution: S | null },
): CapSearchResult<S> {
  const c = caps;
  const K = c.length;
  const search = new CapSearch(c, weight, solve, bound);
  if (K === 0) return search.result();
  // The least cap first: with a large weight the best plan tends to sit near it, and its total
  // bounds the rest.
  const given = first ? search.record(first.solution, 0) : null;
  // G(T) ≥ floor and T ≥ T_0: nothing can beat the bound.
  if (floor + weight * (c[0] as number) >= search.limit()) return search.result();
  const lo = given ?? search.run(0);
  if (K === 1 || floor + weight * (c[1] as number) >= search.limit()) return search.result();
  // Then the largest cap that could still do better: G there bounds G below it.
  const hi = search.run(search.lastUseful(floor, 1, K - 1));
  if (!Number.isFinite(hi.g)) return search.result();
  const stack: [number, number, At, At][] = [[0, hi.at, lo, hi]];
  while (stack.length > 0) {
    const [i, j, ri, rj] = stack.pop() as [number, number, At, At];
    if (j - i <= 1) continue;
    if (Number.isFinite(ri.g) && ri.g === rj.g) continue;
    if (rj.g + weight * (c[i + 1] as number) >= search.limit()) continue;
    // Caps of (i, j) above x cannot beat the limit (every plan there has Σ ≥ G(T_j)).
    const x = search.lastUseful(rj.g, i + 1, j - 1);
    const mid = (i + x + 1) >> 1;
    const rm = search.run(mid);
    // (x, j) is done: the interval now ends at x + 1, still with Σ ≥ G(T_j). The lower part is
    // searched first (its plans have the smaller largest time).
    stack.push([mid, x + 1, rm, rj]);
    if (Number.isFinite(rm.g)) stack.push([i, rm.at, ri, rm]);
  }
  return search.result();
}

/** G at a cap index, as a solve answered it. */
interface At {
  g: number;
  /** Index of the solution's actual maximum (G is constant from there up to the index asked). */
  at: number;
}

/** The runs of one branch and bound and the best total they found. */
class CapSearch<S extends CapSolution> {
  private runs = 0;
  private bestTotal = Infinity;
  private bestSol: S | null = null;

  constructor(
    private readonly c: Float64Array,
    private readonly weight: number,
    private readonly solve: (cap: number) => S | null,
    private readonly bound: number,
  ) {}

  /** What a total must stay below to matter: the best so far, or the bound from elsewhere. */
  limit(): number {
    return Math.min(this.bestTotal, this.bound);
  }

  /** Solves at cap index i. */
  run(i: number): At {
    this.runs++;
    return this.record(this.solve(this.c[i] as number), i);
  }

  /** Keeps the solution got at cap index i if its total is the best so far. */
  record(sol: S | null, i: number): At {
    if (!sol) return { g: Infinity, at: i };
    const total = sol.value + this.weight * sol.actualMax;
    if (total < this.bestTotal) {
      this.bestTotal = total;
      this.bestSol = sol;
    }
    return { g: sol.value, at: indexOf(this.c, sol.actualMax, i) };
  }

  /** The largest index in [from, to] whose cap, with Σ ≥ g, could still beat the limit (from when none). */
  lastUseful(g: number, from: number, to: number): number {
    const limit = this.limit();
    let x = from;
    let h = to;
    while (x < h) {
      const mid = (x + h + 1) >> 1;
      if (g + this.weight * (this.c[mid] as number) < limit) x = mid;
      else h = mid - 1;
    }
    return x;
  }

  result(): CapSearchResult<S> {
    return { solution: this.bestSol, total: this.bestTotal, runs: this.runs };
  }
}

/** The index of v among the sorted caps c[0..hi] (hi when it is not there). */
function indexOf(c: Float64Array, v: number, hi: number): number {
  let lo = 0;
  let h = hi;
  while (lo < h) {
    const mid = (lo + h) >> 1;
    if ((c[mid] as number) < v) lo = mid + 1;
    else h = mid;
  }
  return c[lo] === v ? lo : hi;
}
