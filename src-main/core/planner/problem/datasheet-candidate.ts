/** A datasheet GPU as a plan candidate: its roofline, decode bandwidth and own predictor. Pure. */
import type { CatalogEntry } from '../../catalog/index.js';
import { DatasheetPredictor } from '../../predictor/datasheet-predictor.js';
import { memoryEfficiency, type KernelEfficiencies } from '../../predictor/kernel-efficiency.js';
import { WEIGHT_FORMATS, type WeightFormat } from '../../workload/generation.js';
import type { VirtualDevice } from '../cost/datasheets.js';
import type { PlanCandidate } from '../search/plan-candidate.js';
import type { Mode } from '../types.js';

/** What a datasheet GPU's predictor takes from the request: the model, the mode and the served weights. */
export interface DatasheetRequest {
  model: CatalogEntry | null;
  mode: Mode;
  weights?: WeightFormat | undefined;
}

/**
 * The predictor of a datasheet GPU in this request: its datasheet and the shipped kernel
 * fractions (or a profiled GPU's transferred table), the served weight format, and whether the
 * model's attention is causal.
 */
function datasheetPredictor(v: VirtualDevice, req: DatasheetRequest, table?: KernelEfficiencies): DatasheetPredictor {
  const e = req.model;
  const causal = e?.kind === 'transformer' && e.causal;
  const weights =
    req.weights && req.mode === 'inference'
      ? { weights: { format: req.weights, bytesPerWeight: WEIGHT_FORMATS[req.weights] } }
      : {};
  return new DatasheetPredictor(v.datasheet, {
    causalAttention: causal,
    training: req.mode === 'training',
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
