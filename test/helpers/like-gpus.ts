/**
 * The planner tests' like GPUs: `count` H100s of one machine (ids m/gpu:0..), every pair linked
 * alike, and a per-device time table over them.
 */
import type { PlanProblem } from '../../src-main/core/planner/types.js';

export interface LikeGpus {
  ids: string[];
  devices: PlanProblem['devices'];
  links: PlanProblem['links'];
  /** The same time on every device, by id. */
  times: (us: number) => Record<string, number>;
}

export function likeGpus(count: number, opts: { memoryGB?: number; alphaUs?: number; gbps?: number } = {}): LikeGpus {
  const ids = Array.from({ length: count }, (_, i) => `m/gpu:${i}`);
  const { memoryGB = 80, alphaUs = 5, gbps = 200 } = opts;
  return {
    ids,
    devices: ids.map((id) => ({
      id,
      name: 'H100',
      kind: 'gpu',
      machine: 'm',
      memoryBytes: memoryGB * 1e9,
      estimate: 'datasheet',
    })),
    links: ids.flatMap((a, i) => ids.slice(i + 1).map((b) => ({ a, b, alphaUs, gbps, kind: 'NV' }))),
    times: (us) => Object.fromEntries(ids.map((id) => [id, us])),
  };
}
