/** The precision a plan holds its parameters in: bytes per parameter, and the dtype its exports state. Pure. */
import { DTYPE_BYTES } from '../../domain/dtypes.js';
import { adapterBytesPerParam, type FinetuneSpec } from '../../workload/finetune.js';
import { WEIGHT_FORMATS, type WeightFormat } from '../../workload/generation.js';
import type { Workload } from '../../workload/types.js';
import type { ExportInput } from '../exports/export-plan.js';
import type { Mode } from '../types.js';

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

/** The compute dtype and served weights the exports state: fp8 when the weight GEMMs are, else the workload's. */
export function exportPrecision(req: PrecisionRequest, w: Workload): Pick<ExportInput, 'dtype' | 'weights'> {
  const dtypes = new Set(w.nodes.filter((n) => n.flops > 0).map((n) => n.dtype));
  const dtype = dtypes.has('fp8') ? 'fp8' : (['bf16', 'fp16', 'fp32'] as const).find((d) => dtypes.has(d));
  return { ...(dtype ? { dtype } : {}), ...(req.weights && req.mode === 'inference' ? { weights: req.weights } : {}) };
}
