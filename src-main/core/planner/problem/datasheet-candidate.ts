/** A datasheet GPU as a plan candidate: its roofline, decode bandwidth and own predictor. Pure. */
import type { CatalogEntry } from '../../catalog/index.js';
import { DatasheetPredictor } from '../../predictor/datasheet-predictor.js';
import { memoryEfficiency, type KernelEfficiencies } from '../../predictor/kernel-efficiency.js';
import type { AttentionKernel, FusedAttentionKernel } from '../../predictor/attention-kernels.js';
import { WEIGHT_FORMATS, type WeightFormat } from '../../workload/generation.js';
import type { VirtualDevice } from '../cost/datasheets.js';
import type { PlanCandidate } from '../search/plan-candidate.js';
import type { Mode } from '../types.js';

/** What a datasheet GPU's predictor takes from the request: the model, the mode and the served weights. */
export interface DatasheetRequest {
  model: CatalogEntry | null;
  mode: Mode;
  weights?: WeightFormat | undefined;
  /** Training: the attention kernel the stack runs (default fused). */
  attention?: AttentionKernel | undefined;
  /** Training: which fused kernel the stack runs (its rule's `attention.fused`; default the architecture's newest). */
  fusedAttention?: FusedAttentionKernel | undefined;
}

/**
 * The predictor of a datasheet GPU in this request: its datasheet and the shipped kernel
 * fractions (or a profiled GPU's transferred table), the served weight format, whether the
 * model's attention is causal, and, training, whether the stack runs it unfused (with the model's
 * dropout on the probabilities) or which fused kernel it runs.
 */
function datasheetPredictor(v: VirtualDevice, req: DatasheetRequest, table?: KernelEfficiencies): DatasheetPredictor {
  const e = req.model;
  const causal = e?.kind === 'transformer' && e.causal;
  const weights =
    req.weights && req.mode === 'inference'
      ? { weights: { format: req.weights, bytesPerWeight: WEIGHT_FORMATS[req.weights] } }
      : {};
  const training = req.mode === 'training';
  const unfused =
    training && req.attention === 'unfused'
      ? { unfusedAttention: { dropout: e?.kind === 'transformer' && e.dropout } }
      : {};
  const fused = training && req.fusedAttention ? { fusedAttention: req.fusedAttention } : {};
  return new DatasheetPredictor(v.datasheet, {
    causalAttention: causal,
    training,
    ...unfused,
    ...fused,
    ...weights,
    ...(table ? { table } : {}),
  });
}

/** A datasheet GPU's candidate; `table`: the measured fractions a profiled GPU of its architecture lends. */
export function datasheetCandidate(
  v: VirtualDevice,
  req: DatasheetRequest,
  table: KernelEfficiencies | undefined,
): PlanCandidate {
  return {
    device: v.device,
    features: v.features,
    decodeGBps: v.datasheet.memory.bandwidthGBps * memoryEfficiency(v.datasheet.memory.type, table),
    predictor: datasheetPredictor(v, req, table),
  };
}
