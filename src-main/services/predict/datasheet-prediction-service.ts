/**
 * A whole model predicted on a GPU nobody here profiled: its datasheet and the shipped kernel
 * fractions (core/predictor/datasheet-predictor.ts). Needs no profile and no trained predictor,
 * and gives the same numbers on any machine.
 */
import { predictionAssumptions } from './prediction-assumptions.js';
import { catalogNames, getCatalogEntry } from '../../core/catalog/index.js';
import { hasFp8, resolveGpuNameWithNote, virtualDevice } from '../../core/planner/cost/datasheets.js';
import { FP8_GPUS_TEXT } from '../../core/domain/gpu-architectures.js';
import { DatasheetPredictor } from '../../core/predictor/datasheet-predictor.js';
import { UserError } from '../../core/errors.js';
import type { Mode } from '../../core/domain/mode.js';
import { predictWorkload, type WorkloadPrediction } from '../../core/workload/predict-workload.js';
import type { Database } from '../../adapters/store/types.js';
import { resolveWorkload, type WorkloadSpecOptions } from '../workload/workload-service.js';
import { transferredTable } from './datasheet-transfer.js';
import { kernelOfQuery, type OpPrediction, type PredictQuery } from './predictor-service.js';
import { publishedErrorText } from '../../core/predictor/kernel-efficiency.js';
import type { Prediction } from '../../core/predictor/types.js';

export function predictOnDatasheet(
  db: Database,
  spec: string,
  opts: WorkloadSpecOptions & { gpu: string; mode?: Mode },
): WorkloadPrediction {
  const { datasheet, note } = resolveGpuNameWithNote(opts.gpu);
  const { workload } = resolveWorkload(db, spec, opts);
  if (workload.nodes.some((n) => n.dtype === 'fp8') && !hasFp8(datasheet))
    throw new UserError(`--dtype fp8: ${datasheet.name} has no fp8 units (fp8 runs on ${FP8_GPUS_TEXT})`);
  const causal = opts.decoder?.kind === 'transformer' ? opts.decoder.causal : isCausalCatalog(workload.name);
  const device = virtualDevice(datasheet.name);
  const transfer = transferredTable(db, datasheet);
  const p = predictWorkload(
    workload,
    new DatasheetPredictor(datasheet, { causalAttention: causal, ...(transfer ? { table: transfer.table } : {}) }),
    device.features,
    opts.mode ?? 'inference',
  );
  if (note) p.warnings.unshift(note);
  p.warnings.push(`${datasheet.name} is from its datasheet, not measured (models/gpus.json, models/gpu-kernels.json)`);
  if (transfer) p.warnings.push(transfer.note);
  const assumptions = predictionAssumptions(db, spec, opts, workload);
  return assumptions ? { ...p, assumptions } : p;
}

/** Decoders of the catalog mask future tokens: their attention kernels skip half the scores. */
function isCausalCatalog(name: string): boolean {
  if (!catalogNames().includes(name)) return false;
  const e = getCatalogEntry(name);
  return e.kind === 'transformer' && e.causal;
}

/** One op on a datasheet GPU (`predict --virtual`): the datasheet predictor, or a profiled GPU's fractions of its architecture. */
export function predictOpOnDatasheet(
  db: Database,
  q: Pick<PredictQuery, 'op' | 'shape' | 'dtype'> & { gpu: string },
): OpPrediction {
  const { datasheet, note } = resolveGpuNameWithNote(q.gpu);
  const spec = kernelOfQuery(q);
  const transfer = transferredTable(db, datasheet);
  const predictor = new DatasheetPredictor(datasheet, transfer ? { table: transfer.table } : {});
  const device = virtualDevice(datasheet.name).features;
  const p = predictor.predict([{ ...spec, device }])[0] as Prediction;
  const warnings = [
    ...(note ? [note] : []),
    `${datasheet.name} is from its datasheet, not measured; ${publishedErrorText()}`,
    ...(transfer ? [transfer.note] : []),
    ...(p.warning ? [p.warning] : []),
  ];
  return {
    op: spec.op,
    shape: spec.shape,
    dtype: spec.dtype,
    flops: spec.flops,
    bytes: spec.bytes,
    device: device.deviceId,
    predictions: [{ predictor: predictor.name, ...p }],
    warnings,
  };
}
