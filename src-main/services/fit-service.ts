/**
 * `pipedejavu fit`: a model's memory per way of holding it (serving formats, or mixed-precision
 * training with and without recomputation) and the GPUs that hold it, alone or split
 * (core/planner/cost/fit.ts).
 */
import { catalogNames, getCatalogEntry, kvBytesPerToken, type CatalogEntry } from '../core/catalog/index.js';
import { UserError } from '../core/errors.js';
import { fitRows, placeRow, type FitAnswer, type FitMode } from '../core/planner/cost/fit.js';

export type { FitAnswer } from '../core/planner/cost/fit.js';
import { GPU_DATASHEETS, resolveGpuName, virtualDevice } from '../core/planner/cost/datasheets.js';
import type { Workload } from '../core/workload/types.js';
import type { Database } from '../adapters/store/types.js';
import { resolveWorkload } from './workload-service.js';

export interface FitRequest {
  model: string;
  /** A decoder read from a GGUF header (the model is then its .gguf file). */
  decoder?: CatalogEntry;
  mode: FitMode;
  /** Tokens per sequence (the KV cache's and the activations' length); default the model's default seq. */
  context?: number;
  batch?: number;
  /** Datasheet GPUs to place on (names as typed); default every one in models/gpus.json. */
  gpus?: string[];
}

/** Framework and workspace memory every GPU keeps back, as the planner counts it. */
const OVERHEAD_BYTES = 2 ** 29;

const paramsOf = (w: Workload): number => w.nodes.reduce((s, n) => s + n.params, 0);

function entryOf(req: FitRequest, w: Workload): CatalogEntry | null {
  return req.decoder ?? (catalogNames().includes(w.name) ? getCatalogEntry(w.name) : null);
}

/**
 * The largest activation a serving step holds: the biggest node output but the LM head's, which
 * servers compute for each sequence's last token only (vocab x batch 16-bit logits).
 */
function stepActivationBytes(w: Workload, e: CatalogEntry | null, batch: number): number {
  const body = Math.max(0, ...w.nodes.filter((n) => !n.name.startsWith('head.')).map((n) => n.activationBytes));
  const logits = e?.kind === 'transformer' && e.head === 'lm' ? (e.vocab ?? 0) * batch * 2 : 0;
  return Math.max(body, logits);
}

export function fitModel(db: Database, req: FitRequest): FitAnswer {
  const batch = req.batch ?? 1;
  const build = (mode: FitMode): Workload =>
    resolveWorkload(db, req.model, {
      batch,
      ...(req.context !== undefined ? { seq: req.context } : {}),
      mode,
      ...(req.decoder ? { decoder: req.decoder } : {}),
    }).workload;
  const w = build(req.mode);
  const e = entryOf(req, w);
  const context = w.bindings.seq ?? req.context ?? 1;
  const notes: string[] = [];
  const kv = e?.kind === 'transformer' && e.causal && e.head === 'lm' ? kvBytesPerToken(e, 'bf16') : 0;
  if (req.mode === 'inference' && kv === 0) notes.push(`${w.name}: no KV cache (not a decoder)`);
  const training = req.mode === 'training' ? w.layers : [];
  const rows = fitRows(
    {
      params: paramsOf(w),
      kvBytesPerToken: kv,
      stepActivationBytes: stepActivationBytes(w, e, batch),
      trainingActivationBytes: training.reduce((s, l) => s + (l.trainingActivationBytes ?? l.activationBytes), 0),
      // Full recomputation keeps each layer's input, and one layer's activations while it is recomputed.
      checkpointedActivationBytes:
        training.reduce((s, l) => s + l.outBytes, 0) +
        Math.max(0, ...training.map((l) => l.trainingActivationBytes ?? l.activationBytes)),
    },
    req.mode,
    context,
    batch,
  );
  const sheets = req.gpus && req.gpus.length > 0 ? req.gpus.map(resolveGpuName) : GPU_DATASHEETS;
  if (sheets.length === 0) throw new UserError('fit: no GPUs to place on');
  const gpus = [...new Map(sheets.map((g) => [g.id, g])).values()].map((g) => ({
    name: g.name,
    memoryBytes: virtualDevice(g.name).device.memoryBytes,
  }));
  return {
    model: w.name,
    mode: req.mode,
    params: paramsOf(w),
    context,
    batch,
    rows: rows.map((r) => ({ ...r, ...placeRow(r, gpus, OVERHEAD_BYTES) })),
    gpus,
    overheadBytes: OVERHEAD_BYTES,
    notes,
  };
}
