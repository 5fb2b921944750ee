/**
 * A tensor-parallel stage's replicas in classes that cost the same: their members' time classes in
 * order, their all-reduce route (the cost model's allReduceKey: equal routes, equal times at every
 * size) and how their collectives overlap the GEMMs. A stage of 256 like replicas over like nodes
 * is one class, its compute and all-reduces priced once per microbatch size rather than 256 times.
 * Pure.
 */
import type { CostModel } from './cost-model.js';
import { ListCache } from './list-cache.js';
import { replicaOverlap } from './tensor-overlap.js';
import { replicasOf } from './stage-shapes.js';
import { distinctReplicas } from './time-classes.js';
import type { PlanProblem } from '../types.js';

export class ReplicaClasses {
  private readonly cache = new ListCache<Int32Array>();
  private readonly distinctCache = new ListCache<number[][]>();

  constructor(
    private readonly problem: Pick<PlanProblem, 'mode' | 'tensorOverlap'>,
    private readonly cost: Pick<CostModel, 'allReduceKey'>,
    private readonly deviceIds: readonly string[],
    private readonly timeClass: Int32Array,
  ) {}

  /**
   * Per replica of tp devices ([r·tp, (r+1)·tp) of the list): the first replica of its class, itself
   * when none before it costs the same or the cost model gives no route key. Cached per list.
   */
  of(devices: readonly number[], tp: number): Int32Array {
    const hit = this.cache.find(devices, tp);
    if (hit) return hit;
    const first = new Map<string, number>();
    const out = Int32Array.from(replicasOf(devices, tp), (members, r) => {
      const key = this.keyOf(members);
      if (key === null) return r;
      const c = first.get(key);
      if (c !== undefined) return c;
      first.set(key, r);
      return r;
    });
    return this.cache.add(devices, tp, out);
  }

  /** One replica of each sequence of members' time classes, cached per list. */
  distinct(devices: readonly number[], tp: number): number[][] {
    const hit = this.distinctCache.find(devices, tp);
    return hit ?? this.distinctCache.add(devices, tp, distinctReplicas(replicasOf(devices, tp), this.timeClass));
  }

  private keyOf(members: readonly number[]): string | null {
    const ids = members.map((d) => this.deviceIds[d] as string);
    const route = this.cost.allReduceKey?.(ids) ?? null;
    if (route === null) return null;
    const overlap = this.problem.mode === 'training' ? replicaOverlap(this.problem.tensorOverlap, ids) : null;
    return `${members.map((d) => this.timeClass[d]).join(',')}|${JSON.stringify(overlap)}|${route}`;
  }
}
