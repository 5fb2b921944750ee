/**
 * `pipedejavu fit`: a model's memory per way of holding it (serving formats, or mixed-precision
 * training with and without recomputation) and the GPUs that hold it, alone or split
 * (core/planner/memory/fit.ts).
 */
import type { Dtype } from '../../core/domain/dtypes.js';
import { finetuneTarget, type FinetunedEntry } from './finetune-target.js';
import {
  catalogNames,
  getCatalogEntry,
  kvBytesPerToken,
  type CatalogEntry,
  type CatalogLayer,
} from '../../core/catalog/index.js';
import { UserError } from '../../core/errors.js';
import {
  FIT_ORDER_TEXT,
  fitOrder,
  fitRows,
  placeRow,
  plannerHolds,
  type FitAdapterModel,
  type FitGpu,
  type FitAnswer,
  type FitMode,
  type FitPlacement,
  type FitRow,
  type FitTime,
} from '../../core/planner/memory/fit.js';
import { DatasheetPredictor } from '../../core/predictor/datasheet-predictor.js';
import { predictWorkload } from '../../core/workload/predict-workload.js';
import { WEIGHT_FORMATS } from '../../core/workload/generation.js';
import { singleDeviceStepUs } from '../../core/planner/cost/training-step.js';

export type { FitAnswer } from '../../core/planner/memory/fit.js';
import {
  GPU_DATASHEETS,
  resolveGpuName,
  resolveGpuNameWithNote,
  virtualDevice,
  type GpuDatasheet,
} from '../../core/planner/cost/datasheets.js';
import type { Workload } from '../../core/workload/types.js';
import type { Database } from '../../adapters/store/types.js';
import { describedEntry, resolveWorkload } from '../workload/workload-service.js';
import {
  ADAPTER_KINDS,
  FINETUNE_STACK_NAMES,
  FINETUNE_STACKS,
  type AdapterKind,
  type FinetuneRequest,
  type FinetuneSpec,
} from '../../core/workload/finetune.js';
import { series } from '../../core/text/series.js';
import { tunedActivationBytes, tunedLayersMemory } from '../../core/planner/memory/finetune-memory.js';
import { activationElementBytes, attentionScoreBytes } from '../../core/catalog/activation-memory.js';
import { isBlockName } from '../../core/catalog/block-names.js';
import {
  TRAINING_STACK_ATTENTION,
  trainedActivationTotals,
  trainedLayersMemory,
  trainingAttentionNote,
} from '../../core/planner/memory/attention-memory.js';
import type { TransformerEntry } from '../../core/catalog/schema.js';
import { engineBand } from '../../core/engines/engine-bands.js';
import { engineDeployment } from '../../core/engines/engine-deployment.js';
import { promptUs } from '../../core/engines/engine-figures.js';
import { resolveEngine } from '../../core/engines/engine-formats.js';
import { engineUsableBytes, unfusedScoreBytes } from '../../core/engines/engine-memory.js';
import { engineHolds } from '../../core/engines/engine-fit.js';
import { ENGINES, type EngineChoice } from '../../core/engines/engine-names.js';
import type { EngineRules } from '../../core/engines/engine-rules.js';
import { stepCost } from '../../core/engines/engine-step.js';
import { engineRules } from '../../core/engines/engines.js';
import type { WeightFormat } from '../../core/workload/generation.js';
import { servedFormat } from './serving-engine.js';

/** The note saying which engine the serving rows are priced for. */
function engineFitNote(choice: EngineChoice): string {
  if (choice === 'ideal') return 'serving rows: the kernel roofline (--engine ideal), memory as the planner keeps it';
  const which =
    choice === 'auto' ? 'llama.cpp for q8_0 and q4_k, vLLM for the others (--engine auto)' : ENGINES[choice].title;
  return (
    `serving rows: on ${which}; a GPU (or n of one, as tensor-parallel ranks or pipeline stages) holds a row where the engine keeps there ` +
    "its weights as it stores them (its LM head and embedding at 16 bits for int4, int8 and fp8), its reserve and activations, and the context's KV cache; " +
    'time: the prefill of the context and decode tokens/s per sequence on the first such GPU'
  );
}

export interface FitRequest {
  model: string;
  /** A decoder read from a GGUF header (the model is then its .gguf file). */
  decoder?: CatalogEntry;
  mode: FitMode;
  /** Tokens per sequence (the KV cache's and the activations' length); default the model's default seq. */
  context?: number;
  batch?: number;
  /**
   * Datasheet GPUs to place on (names as typed), in the order given; default every one in
   * models/gpus.json, in fitOrder's order (smallest first, consumer cards before others).
   */
  gpus?: string[];
  /** Fine-tuning: the adapters' rank, alpha and targets (the rows list LoRA and QLoRA both). */
  finetune?: Omit<FinetuneRequest, 'adapter'>;
  /**
   * Serving a decoder: the engine each format runs on (default auto: llama.cpp for GGUF blocks,
   * vLLM otherwise; ideal: the kernel roofline and the planner's memory). It sets the memory each
   * GPU leaves the model and the row's prefill and decode speed.
   */
  engine?: EngineChoice;
}

/** Framework and workspace memory every GPU keeps back, as the planner counts it. */
const OVERHEAD_BYTES = 2 ** 29;

/** The dtype a workload's GEMMs compute in (its first node with FLOPs), whose activations the catalog counts. */
const computeDtype = (w: Workload): Dtype => w.nodes.find((n) => n.flops > 0)?.dtype ?? 'bf16';

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

/**
 * Activations kept for backward without recomputation, and with full recomputation (each block's
 * input, and one block's activations while it is recomputed), as the training stack's attention
 * kernel holds them (memory/attention-memory.ts: fused, no s² scores).
 */
function trainingActivations(w: Workload, e: CatalogEntry | null): { kept: number; checkpointed: number } {
  const kept = (l: Workload['layers'][number]): number => l.trainingActivationBytes ?? l.activationBytes;
  const blocks = e?.kind === 'transformer';
  const memory = trainedLayersMemory(
    w.layers.map((l) => ({ block: blocks && isBlockName(l.name), activationBytes: kept(l), outBytes: l.outBytes })),
    {
      seq: w.bindings.seq ?? 1,
      heads: blocks ? e.heads : 1,
      elementBytes: activationElementBytes(computeDtype(w)),
      dropout: blocks && e.dropout,
    },
    TRAINING_STACK_ATTENTION.kernel,
    w.bindings.batch ?? 1,
  );
  return trainedActivationTotals(
    memory,
    w.layers.map((l) => l.outBytes),
  );
}

/** The LoRA and QLoRA ways of fine-tuning the model (its description decides the targets). */
function adapterModels(db: Database, req: FitRequest, build: Builder): FitAdapterModel[] {
  return ADAPTER_KINDS.map((adapter) => {
    const tuned = finetuneBuild(db, req, adapter);
    const { decoder: e, finetune: spec } = tuned;
    const w = build('training', tuned);
    const layers = w.layers as CatalogLayer[];
    const batch = w.bindings.batch ?? 1;
    const seq = w.bindings.seq ?? 1;
    const elementBytes = activationElementBytes(computeDtype(w));
    const acts = tunedActivationBytes(
      tunedLayersMemory(
        layers.map((l) => ({ name: l.name, activationBytes: l.trainingActivationBytes, outBytes: l.outBytes })),
        {
          scoreBytes: batch * attentionScoreBytes({ seq, heads: e.heads, elementBytes, dropout: e.dropout }),
          logits: batch * seq * (e.vocab ?? 0),
          lmHead: e.head === 'lm',
        },
        spec.stack,
      ),
    );
    const adapters = layers.reduce((s, l) => s + (l.finetune?.adapterParams ?? 0), 0);
    const m = FINETUNE_STACKS[spec.stack];
    return {
      label: `${adapter === 'lora' ? 'LoRA, bf16 base' : 'QLoRA, NF4 base'} r${spec.rank}`,
      adapter,
      frozenBytes: layers.reduce((s, l) => s + (l.finetune?.frozenBytes ?? 0), 0),
      adapterBytes: {
        weights: adapters * m.adapterWeightBytes,
        gradients: adapters * m.adapterGradBytes,
        optimizer: adapters * m.adapterOptimizerBytes,
      },
      trainingActivationBytes: acts.kept,
      checkpointedActivationBytes: acts.checkpointed,
    };
  });
}

/**
 * A row's time on a datasheet GPU: a training row's step (forward, backward, recomputation), a
 * served format's prefill of the context. The workload is the row's own (adapters, weights).
 */
function rowTime(db: Database, req: FitRequest, r: FitRow, gpu: string, build: Builder): FitTime {
  const sheet = resolveGpuName(gpu);
  const training = req.mode !== 'inference';
  const w =
    r.how.adapter !== undefined
      ? build('training', finetuneBuild(db, req, r.how.adapter))
      : build(training ? 'training' : 'inference');
  const e = req.decoder ?? describedEntry(db, req.model);
  const causal = e?.kind === 'transformer' && e.causal;
  const format = r.how.format;
  const predictor = new DatasheetPredictor(sheet, {
    causalAttention: causal,
    training,
    ...(format ? { weights: { format, bytesPerWeight: WEIGHT_FORMATS[format] } } : {}),
  });
  // The forward pass (as the planner predicts it); the step adds backward and recomputation.
  const p = predictWorkload(w, predictor, virtualDevice(sheet.name).features, 'inference');
  const us = training ? singleDeviceStepUs(w, p, r.how.recompute ?? 'none') : p.totalUs;
  const scale = p.totalUs > 0 ? us / p.totalUs : 1;
  return { gpu: sheet.name, what: training ? 'step' : 'prefill', us, lowUs: p.lowUs * scale, highUs: p.highUs * scale };
}

/** The fine-tuned build of the model for one adapter (the request's rank, targets and stack). */
function finetuneBuild(
  db: Database,
  req: FitRequest,
  adapter: AdapterKind,
): { decoder: FinetunedEntry; finetune: FinetuneSpec } {
  const t = finetuneTarget(db, req.model, req.decoder, { ...req.finetune, adapter });
  return { decoder: t.decoder, finetune: t.spec };
}

type Builder = (mode: 'inference' | 'training', extra?: { decoder: CatalogEntry; finetune: FinetuneSpec }) => Workload;

/** A served format's engine, or why none runs it (a format the asked engine does not load). */
function rowEngine(choice: EngineChoice, format: WeightFormat): { rules: EngineRules } | { note: string } | null {
  try {
    const name = resolveEngine(choice, format);
    return name === 'ideal' ? null : { rules: engineRules(name) };
  } catch (e) {
    if (e instanceof UserError) return { note: e.message };
    throw e;
  }
}

/** The row's prefill of the context and decode speed on one GPU under its engine (one that holds them: engineHolds). */
function engineTime(
  rules: EngineRules,
  e: TransformerEntry,
  format: WeightFormat,
  gpu: string,
  context: number,
  batch: number,
): FitTime {
  const sheet = resolveGpuName(gpu);
  const dep = engineDeployment({
    engine: rules,
    entry: e,
    format,
    kvCache: 'auto',
    stages: [{ gpu: sheet, blocks: e.layers, members: ['gpu0'] }],
    allReduceUs: () => 0,
    sendUs: () => 0,
  });
  const us = promptUs(dep, context);
  const step = stepCost(dep, { decodeSeqs: batch, decodeContext: batch * context, prefill: [] }).us;
  const band = engineBand(rules.name);
  return {
    gpu: sheet.name,
    what: 'prefill',
    us,
    lowUs: us * (band?.low ?? 1),
    highUs: us * (band?.high ?? 1),
    serving: { engine: rules.name, title: ENGINES[rules.name].title, decodeTokensPerSecond: 1e6 / step },
  };
}

/** The share of the decoder's `params` the engine keeps off the GPUs: an untied token table it holds on the host. */
function hostShare(rules: EngineRules, e: TransformerEntry, params: number): number {
  if (rules.memory.inputEmbedding !== 'host' || e.tiedEmbeddings || !(params > 0)) return 0;
  return ((e.vocab ?? 0) * e.hidden) / params;
}

/**
 * Where a served row fits on its engine: each GPU, or n of one, where the engine keeps the weights
 * as it stores them, its reserve and activations, and the KV cache of the context for the batch
 * (engineHolds); and where the planner's check of the same GPU, with the engine's share of it,
 * passes too, so that `plan` finds a plan there.
 */
function enginePlacement(
  rules: EngineRules,
  e: TransformerEntry,
  format: WeightFormat,
  r: FitRow,
  gpus: readonly FitGpu[],
  { tokens, params }: { tokens: number; params: number },
): FitPlacement {
  const sheets = new Map(gpus.map((g) => [g.name, resolveGpuName(g.name)]));
  const req = { engine: rules, entry: e, format, kvCache: 'auto' as const };
  // The token table an engine keeps in host memory (llama.cpp) is not on the GPU `plan` checks either.
  const planner = plannerHolds({ ...r, totalBytes: r.totalBytes - r.weightsBytes * hostShare(rules, e, params) }, 0);
  // As plan --engine: less the attention scores an engine without fused attention keeps for the context.
  const scores = unfusedScoreBytes(rules, e.heads, tokens);
  const usable = (g: FitGpu): FitGpu => ({
    name: g.name,
    memoryBytes: Math.max(0, engineUsableBytes(rules, g.memoryBytes + OVERHEAD_BYTES, e.hidden) - scores),
  });
  return placeRow(
    gpus,
    (g, n) => planner(usable(g), n) && engineHolds(req, sheets.get(g.name) as GpuDatasheet, n, tokens),
  );
}

export function fitModel(db: Database, req: FitRequest): FitAnswer {
  const batch = req.batch ?? 1;
  const build: Builder = (mode, extra) =>
    resolveWorkload(db, req.model, {
      batch,
      ...(req.context !== undefined ? { seq: req.context } : {}),
      mode,
      ...(req.decoder ? { decoder: req.decoder } : {}),
      ...(extra ?? {}),
    }).workload;
  const w = build(req.mode === 'inference' ? 'inference' : 'training');
  const e = entryOf(req, w);
  const context = w.bindings.seq ?? req.context ?? 1;
  const notes: string[] = [];
  const kv = e?.kind === 'transformer' && e.causal && e.head === 'lm' ? kvBytesPerToken(e, 'bf16') : 0;
  if (req.mode === 'inference' && kv === 0) notes.push(`${w.name}: no KV cache (not a decoder)`);
  if (req.mode === 'finetune')
    notes.push(
      `fine-tuning memory as ${FINETUNE_STACKS[req.finetune?.stack ?? 'peft'].title} keeps it (--stack ${series(FINETUNE_STACK_NAMES)}): fused attention, gradient checkpointing over the blocks`,
    );
  if (req.mode === 'training' && e?.kind === 'transformer') notes.push(trainingAttentionNote());
  const acts = req.mode === 'training' ? trainingActivations(w, e) : { kept: 0, checkpointed: 0 };
  const rows = fitRows(
    {
      params: paramsOf(w),
      kvBytesPerToken: kv,
      stepActivationBytes: stepActivationBytes(w, e, batch),
      trainingActivationBytes: acts.kept,
      checkpointedActivationBytes: acts.checkpointed,
      ...(req.mode === 'finetune' ? { adapters: adapterModels(db, req, build) } : {}),
    },
    req.mode,
    context,
    batch,
  );
  const asked = (req.gpus ?? []).map(resolveGpuNameWithNote);
  for (const a of asked) if (a.note) notes.push(a.note);
  const sheets = asked.length > 0 ? asked.map((a) => a.datasheet) : GPU_DATASHEETS;
  if (sheets.length === 0) throw new UserError('fit: no GPUs to place on');
  const listed = [...new Map(sheets.map((g) => [g.id, g])).values()].map((g) => ({
    name: g.name,
    memoryBytes: virtualDevice(g.name).device.memoryBytes,
  }));
  const gpus = asked.length > 0 ? listed : fitOrder(listed);
  if (asked.length === 0) notes.push(`GPUs listed ${FIT_ORDER_TEXT} (--gpus for your own, in your order)`);
  const decoder = req.mode === 'inference' && e?.kind === 'transformer' && e.causal && e.head === 'lm' ? e : null;
  const dtype = w.nodes.find((n) => n.flops > 0)?.dtype ?? 'bf16';
  if (decoder) notes.push(engineFitNote(req.engine ?? 'auto'));
  return {
    model: w.name,
    mode: req.mode,
    params: paramsOf(w),
    context,
    modelContext: e?.kind === 'transformer' && e.input === 'tokens' ? (e.context ?? null) : null,
    batch,
    rows: rows.map((r) => {
      const engine = decoder ? rowEngine(req.engine ?? 'auto', r.how.format ?? servedFormat(undefined, dtype)) : null;
      if (engine && 'note' in engine)
        return { ...r, alone: [], split: null, consumerSplit: null, time: null, engineNote: engine.note };
      if (engine && decoder) {
        const format = r.how.format ?? servedFormat(undefined, dtype);
        const placed = enginePlacement(engine.rules, decoder, format, r, gpus, {
          tokens: context * batch,
          params: paramsOf(w),
        });
        const gpu = placed.alone[0];
        const time = gpu ? engineTime(engine.rules, decoder, format, gpu, context, batch) : null;
        return { ...r, ...placed, time };
      }
      const placed = placeRow(gpus, plannerHolds(r, OVERHEAD_BYTES));
      const gpu = placed.alone[0];
      return { ...r, ...placed, time: gpu ? rowTime(db, req, r, gpu, build) : null };
    }),
    gpus,
    overheadBytes: OVERHEAD_BYTES,
    notes,
  };
}
