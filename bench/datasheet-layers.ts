/**
 * Per-layer times of a catalog workload on datasheet GPUs, from the roofline of each datasheet
 * (bound time plus dispatch per node): how the planner benchmarks price layers on GPUs no one here
 * has. Backward is taken as twice forward, as the planner does for predicted layers.
 */
import type { CatalogWorkload } from '../src-main/core/catalog/index.js';
import type { VirtualDevice } from '../src-main/core/planner/cost/datasheets.js';
import type { PlanLayer } from '../src-main/core/planner/types.js';
import { rooflineParts } from '../src-main/core/predictor/features.js';

export function datasheetLayers(workload: CatalogWorkload, gpus: readonly VirtualDevice[]): PlanLayer[] {
  return workload.layers.map((l) => {
    const forwardUs: Record<string, number> = {};
    const backwardUs: Record<string, number> = {};
    for (const g of gpus) {
      const t = l.nodes.reduce((a, i) => {
        const n = workload.nodes[i];
        if (!n) return a;
        const node = {
          op: n.opType,
          family: n.family ?? 'other',
          shape: n.kernel?.shape ?? {},
          dtype: n.dtype,
          flops: n.flops,
          bytes: n.bytes,
        };
        return a + rooflineParts(node, g.features).boundUs + g.features.dispatchUs;
      }, 0);
      forwardUs[g.device.id] = t;
      backwardUs[g.device.id] = 2 * t;
    }
    return {
      name: l.name,
      forwardUs,
      backwardUs,
      params: l.params,
      outBytesPerSample: l.outBytes,
      activationBytesPerSample: l.trainingActivationBytes ?? l.activationBytes,
    };
  });
}
