/**
 * FROZEN REFERENCE, tests only: the planner's exact pipeline search as it was before the speed-up
 * (src-main/core/planner/cap-search.ts at commit ca6f10c), kept unchanged so that
 * dp-vs-reference.test.ts can check the optimised search finds the same optimum on instances too
 * large for brute force. Do not optimise or fix this copy. (It ignored the optimizer-offload
 * sync of one-device stages, since fixed: compare only problems without offload.)
 *
 * Original header follows.
 */
/**
 * Alpa's outer loop: min over a cap T of G(T) + (m − 1)·T, where G(T) is the least Σ of a plan
 * whose stage and cut times are all ≤ T, T ranging over the sorted distinct times. Pure.
 *
 * G is a non-increasing step function of T, so the T axis is searched by branch and bound: an
 * interval (T_i, T_j) is dropped when G(T_j) + (m − 1)·T_{i+1} cannot beat the best found (or a
 * bound from elsewhere); and a solution at T whose actual maximum is T* ≤ T has G(T*) = G(T), so
 * (T*, T] needs no run. The result is the same as running every T.
 */

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
 * @param caps sorted ascending, distinct
 * @param weight m − 1
 * @param solve G(T) with its solution, or null when nothing fits under T
 * @param bound skip what cannot beat this (the best of other searches)
 */
export function minOverCap<S extends CapSolution>(
  caps: Float64Array,
  weight: number,
  solve: (cap: number) => S | null,
  bound = Infinity,
): CapSearchResult<S> {
  const c = caps;
  const K = c.length;
  let runs = 0;
  let bestTotal = Infinity;
  let bestSol: S | null = null;
  interface At {
    g: number;
    /** Index of the solution's actual maximum (G is constant from there up to the index asked). */
    at: number;
  }
  const indexOf = (v: number, hi: number): number => {
    let lo = 0;
    let h = hi;
    while (lo < h) {
      const mid = (lo + h) >> 1;
      if ((c[mid] as number) < v) lo = mid + 1;
      else h = mid;
    }
    return c[lo] === v ? lo : hi;
  };
  const run = (i: number): At => {
    runs++;
    const sol = solve(c[i] as number);
    if (!sol) return { g: Infinity, at: i };
    const total = sol.value + weight * sol.actualMax;
    if (total < bestTotal) {
      bestTotal = total;
      bestSol = sol;
    }
    return { g: sol.value, at: indexOf(sol.actualMax, i) };
  };
  const done = (): CapSearchResult<S> => ({ solution: bestSol, total: bestTotal, runs });
  if (K === 0) return done();
  const hi = run(K - 1);
  if (!Number.isFinite(hi.g)) return done();
  // G(T) ≥ G(T_max) and T ≥ T_0: nothing can beat the bound.
  if (hi.g + weight * (c[0] as number) >= Math.min(bestTotal, bound)) return done();
  const lo = run(0);
  const stack: [number, number, At, At][] = [[0, hi.at, lo, hi]];
  while (stack.length > 0) {
    const [i, j, ri, rj] = stack.pop() as [number, number, At, At];
    if (j - i <= 1) continue;
    if (Number.isFinite(ri.g) && ri.g === rj.g) continue;
    if (rj.g + weight * (c[i + 1] as number) >= Math.min(bestTotal, bound)) continue;
    const mid = (i + j) >> 1;
    const rm = run(mid);
    if (Number.isFinite(rm.g)) stack.push([i, rm.at, ri, rm]);
    stack.push([mid, j, rm, rj]);
  }
  return done();
}
