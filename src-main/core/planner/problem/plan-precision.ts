/** The precision a plan holds its parameters in: bytes per parameter, and the dtype its exports state. Pure. */
import { DTYPE_BYTES } from '../../domain/dtypes.js';
import { adapterBytesPerParam, type FinetuneSpec } from '../../workload/finetune.js';
import { WEIGHT_FORMATS, type WeightFormat } from '../../workload/generation.js';
import type { Workload } from '../../workload/types.js';
import type { ExportInput } from '../exports/export-plan.js';
import type { Mode, PlanDevice } from '../types.js';
import { datasheetFor } from '../cost/datasheets.js';

/** The parts of a plan request that set its precision. */
export interface PrecisionRequest {
  mode: Mode;
  weights?: WeightFormat | undefined;
}

/** Bytes a served parameter takes: its weight format when given (a GGUF's), else the workload's dtype. */
function servedBytesPerParam(req: PrecisionRequest, w: Workload, warnings: string[]): number {
  if (!req.weights) return DTYPE_BYTES[w.nodes.find((n) => n.flops > 0)?.dtype ?? 'fp16'];
  const bytes = WEIGHT_FORMATS[req.weights];
  warnings.push(`${w.name}: weights held as ${req.weights}, ${bytes} bytes per parameter`);
  return bytes;
}

/** Bytes per parameter of the plan: the adapters' when fine-tuning, 16 (weights, gradients, Adam) when training, else served. */
export function problemBytesPerParam(
  req: PrecisionRequest,
  w: Workload,
  finetune: FinetuneSpec | null,
  warnings: string[],
): number {
  if (finetune) return adapterBytesPerParam(finetune.stack);
  return req.mode === 'training' ? 16 : servedBytesPerParam(req, w, warnings);
}

/**
 * The compute dtype and served weights the exports state: fp8 when the weight GEMMs are, else the
 * workload's; training whose dtype nobody asked for (`asked` undefined) runs bf16 mixed precision
 * where every GPU of the plan has bf16 units (Ampere and newer, by its datasheet), fp16 where one
 * lacks them (V100, T4), and the workload's dtype where a GPU is unknown.
 */
export function exportPrecision(
  req: PrecisionRequest & { dtype?: string | undefined },
  w: Workload,
  devices: readonly Pick<PlanDevice, 'kind' | 'name'>[] = [],
): Pick<ExportInput, 'dtype' | 'weights'> {
  const dtypes = new Set(w.nodes.filter((n) => n.flops > 0).map((n) => n.dtype));
  let dtype: ExportInput['dtype'] = dtypes.has('fp8')
    ? 'fp8'
    : (['bf16', 'fp16', 'fp32'] as const).find((d) => dtypes.has(d));
  if (req.mode !== 'inference' && req.dtype === undefined && (dtype === 'fp16' || dtype === 'bf16'))
    dtype = trainingHalf(devices) ?? dtype;
  return { ...(dtype ? { dtype } : {}), ...(req.weights && req.mode === 'inference' ? { weights: req.weights } : {}) };
}

/** bf16 when every GPU has bf16 units, fp16 when one lacks them; undefined when one is unknown or none is a GPU. */
function trainingHalf(devices: readonly Pick<PlanDevice, 'kind' | 'name'>[]): 'bf16' | 'fp16' | undefined {
  const gpus = devices.filter((d) => d.kind === 'gpu').map((d) => datasheetFor(d.name));
  if (gpus.length === 0 || gpus.some((d) => d === null)) return undefined;
  return gpus.every((d) => d?.tflops.bf16 != null) ? 'bf16' : 'fp16';
}
