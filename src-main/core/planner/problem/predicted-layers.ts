/** The planner's layers of a workload: each layer's predicted time per sample on each device. Pure. */
import type { CatalogLayer } from '../../catalog/index.js';
import type { WorkloadPrediction } from '../../workload/predict-workload.js';
import type { Workload } from '../../workload/types.js';
import { layerBackwardUs } from '../cost/training-step.js';
import type { PlanCandidate } from '../search/plan-candidate.js';
import type { PlanLayer } from '../types.js';

/** Each layer's forward and backward time per sample on each candidate (predictions[j] is candidates[j]'s), and its sizes. */
export function predictedLayers(
  w: Workload,
  candidates: readonly PlanCandidate[],
  predictions: readonly WorkloadPrediction[],
): PlanLayer[] {
  const batch = w.bindings.batch ?? 1;
  return w.layers.map((l, i) => {
    const forwardUs: Record<string, number> = {};
    const backwardUs: Record<string, number> = {};
    candidates.forEach((c, j) => {
      forwardUs[c.device.id] = (predictions[j]?.layers[i]?.timeUs ?? 0) / batch;
      backwardUs[c.device.id] = layerBackwardUs(w, l, predictions[j]) / batch;
    });
    const tuned = 'finetune' in l ? (l as CatalogLayer).finetune : undefined;
    return {
      name: l.name,
      forwardUs,
      backwardUs,
      // Fine-tuning trains the adapters only: the base weights are held frozen.
      params: tuned ? tuned.adapterParams : l.params,
      ...(tuned ? { frozenBytes: tuned.frozenBytes } : {}),
      outBytesPerSample: l.outBytes / batch,
      activationBytesPerSample: (l.trainingActivationBytes ?? l.activationBytes) / batch,
    };
  });
}
