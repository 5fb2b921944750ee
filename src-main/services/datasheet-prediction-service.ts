/**
 * A whole model predicted on a GPU nobody here profiled: its datasheet and the shipped kernel
 * fractions (core/predictor/datasheet-predictor.ts). Needs no profile and no trained predictor,
 * and gives the same numbers on any machine.
 */
import { catalogNames, getCatalogEntry } from '../core/catalog/index.js';
import { hasFp8, resolveGpuName, virtualDevice } from '../core/planner/cost/datasheets.js';
import { DatasheetPredictor } from '../core/predictor/datasheet-predictor.js';
import { UserError } from '../core/errors.js';
import { predictWorkload, type Mode, type WorkloadPrediction } from '../core/workload/predict-workload.js';
import type { Database } from '../adapters/store/types.js';
import { resolveWorkload, type WorkloadSpecOptions } from './workload-service.js';
import { transferredTable } from './datasheet-transfer.js';

export function predictOnDatasheet(
  db: Database,
  spec: string,
  opts: WorkloadSpecOptions & { gpu: string; mode?: Mode },
): WorkloadPrediction {
  const datasheet = resolveGpuName(opts.gpu);
  const { workload } = resolveWorkload(db, spec, opts);
  if (workload.nodes.some((n) => n.dtype === 'fp8') && !hasFp8(datasheet))
    throw new UserError(`--dtype fp8: ${datasheet.name} has no fp8 units (fp8 runs on Ada and Hopper GPUs)`);
  const causal = opts.decoder?.kind === 'transformer' ? opts.decoder.causal : isCausalCatalog(workload.name);
  const device = virtualDevice(datasheet.name);
  const transfer = transferredTable(db, datasheet);
  const p = predictWorkload(
    workload,
    new DatasheetPredictor(datasheet, { causalAttention: causal, ...(transfer ? { table: transfer.table } : {}) }),
    device.features,
    opts.mode ?? 'inference',
  );
  p.warnings.push(`${datasheet.name} is from its datasheet, not measured (models/gpus.json, models/gpu-kernels.json)`);
  if (transfer) p.warnings.push(transfer.note);
  return p;
}

/** Decoders of the catalog mask future tokens: their attention kernels skip half the scores. */
function isCausalCatalog(name: string): boolean {
  if (!catalogNames().includes(name)) return false;
  const e = getCatalogEntry(name);
  return e.kind === 'transformer' && e.causal;
}
