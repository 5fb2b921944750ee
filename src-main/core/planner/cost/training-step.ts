/**
 * Time of one step on one device from a workload's forward prediction (no pipeline, no data
 * parallelism): what `fit` states beside memory, and what the planner's layers start from. Pure.
 *
 * A layer's backward is twice its forward (input and weight gradients), but once for a frozen
 * GEMM of a fine-tuned model (input gradient only) and for QLoRA's dequantisation before it (done
 * again for that gradient), and a kernel's own backward where its predictor prices it apart
 * (attention on a datasheet GPU: NodePrediction.backwardUs). Full recomputation runs the forward of every layer again, or of the
 * blocks only when fine-tuning (gradient checkpointing wraps the blocks).
 */
import type { WorkloadPrediction } from '../../workload/predict-workload.js';
import type { Workload, WorkloadLayer } from '../../workload/types.js';
import { isBlockName } from '../../catalog/block-names.js';

export function layerBackwardUs(w: Workload, l: WorkloadLayer, p: WorkloadPrediction | undefined): number {
  const forward = p?.layers[l.index]?.timeUs ?? 0;
  if (!p) return 0;
  let once = 0;
  let own = 0;
  for (const k of l.nodes) {
    const role = w.nodes[k]?.finetune;
    const node = p.nodes[k];
    if (role === 'frozen' || role === 'dequant') once += node?.timeUs ?? 0;
    else if (node?.backwardUs !== undefined) own += node.backwardUs - 2 * node.timeUs;
  }
  return 2 * forward - once + own;
}

/** Forward, backward and, with full recomputation, the recomputed forwards of one step (µs). */
export function singleDeviceStepUs(w: Workload, p: WorkloadPrediction, recompute: 'none' | 'full'): number {
  const tuned = w.nodes.some((n) => n.finetune !== undefined);
  let us = 0;
  for (const l of w.layers) {
    const forward = p.layers[l.index]?.timeUs ?? 0;
    const again = recompute === 'full' && (!tuned || isBlockName(l.name)) ? forward : 0;
    us += forward + layerBackwardUs(w, l, p) + again;
  }
  return us;
}
