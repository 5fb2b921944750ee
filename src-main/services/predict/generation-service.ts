/**
 * `predict-model DECODER --mode generate`: a catalog decoder generating `tokens` tokens after a
 * `prompt` on one profiled device: the time to first token (prefill, predicted node by node), the
 * decode steps (bytes moved over the measured bandwidth, core/workload/generation.ts), tokens per
 * second, the KV cache and whether it all fits the device, with the largest batch and context that
 * would.
 */
import type { MachineDeviceId } from '../../core/domain/device-id.js';
import { entryWorkload, getCatalogEntry, type CatalogEntry, type TransformerEntry } from '../../core/catalog/index.js';
import { cachedValuesPerToken } from '../../core/catalog/block-layout.js';
import type { Dtype } from '../../core/domain/measurement.js';
import type { Workload } from '../../core/workload/types.js';
import { UserError } from '../../core/errors.js';
import { engineOf } from '../../core/domain/execution-provider.js';
import { DTYPE_BYTES } from '../../core/domain/dtypes.js';
import { deviceRunUs } from '../../core/profiler/overhead.js';
import {
  decodeStep,
  generationBytes,
  kvBytesPerTokenOf,
  largestFit,
  type DecodeDevice,
  type DecodeStep,
  type DecoderShape,
  WEIGHT_FORMATS,
  weightFormatRefusal,
  type WeightFormat,
} from '../../core/workload/generation.js';
import { MachineRepo } from '../../adapters/store/machine-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { deviceMemoryBytes } from '../plan/device-memory.js';
import type { DeviceGroup } from './training-data.js';
import { coldWeightsAs, decodeBandwidthGBps, slowerThreadsNote, type ColdWeightsOption } from './stream-rate.js';
import { weightBytes, weightsRunCold, type ColdWeights } from '../../core/workload/cold-weights.js';
import { pickDevice, predictOnDevice } from '../workload/workload-service.js';
import { deviceOverhead } from '../workload/stored-device-figures.js';
import { count } from '../../core/text/plural.js';
import { isExpertNode } from '../../core/catalog/block-names.js';
import type { KvDataflow } from '../../core/workload/decode-attention.js';
import { profiledAttentionOver } from './decode-attention-time.js';

export interface GenerationRequest {
  device: string;
  threads?: number;
  machine?: string;
  predictor?: string;
  /** Prompt tokens per sequence (default: the model's default sequence length). */
  prompt?: number;
  /** Tokens generated per sequence (default 128). */
  tokens?: number;
  batch?: number;
  dtype?: Dtype;
  /** How the weights are stored (int8, llama.cpp's q4_0 ...); default the dtype. */
  weights?: WeightFormat;
  /** A decoder read from a GGUF header, in place of a catalog name. */
  decoder?: CatalogEntry;
  /** How a step reads its KV cache (default read-once: fused decode attention). */
  kvDataflow?: KvDataflow;
}

export interface GenerationPrediction {
  workload: string;
  /** The device across machines (MachineDeviceId: machineId/deviceKey/ep[/Nt]). */
  device: MachineDeviceId;
  /** The engine the profile measured, whose runs this predicts (engineOf). */
  engine: string;
  dtype: Dtype;
  batch: number;
  prompt: number;
  tokens: number;
  /** Weight format and its bytes per parameter. */
  weights: WeightFormat;
  /** How a step reads the KV cache (its attention is priced in that dataflow). */
  kvDataflow: KvDataflow;
  /** Time to first token: the prompt's forward pass (µs). */
  ttftUs: number;
  /** The first and the last decode step, and all of them (µs). */
  firstStep: DecodeStep;
  lastStep: DecodeStep;
  decodeUs: number;
  /** Generated tokens per second over the decode phase, all sequences together. */
  tokensPerSecond: number;
  weightBytes: number;
  /** KV cache at the end (prompt + tokens per sequence). */
  kvCacheBytes: number;
  /** What generation holds at the end; the device's memory (null when unknown) and whether it fits. */
  memoryBytes: number;
  deviceMemoryBytes: number | null;
  fits: boolean | null;
  /** The largest batch at this context and the largest context at this batch that fit; null when memory is unknown. */
  largest: { batch: number; context: number } | null;
  warnings: string[];
}

const DEFAULT_TOKENS = 128;

/** A decoder of the catalog (token inputs, causal, LM head), or one line saying why not. */
/** A decoder's description with the family and sources every catalog entry has. */
export type DecoderEntry = TransformerEntry & Pick<CatalogEntry, 'family' | 'sources'>;

export function decoderEntry(name: string, decoder?: CatalogEntry): DecoderEntry {
  const e = decoder ?? getCatalogEntry(name);
  if (e.kind !== 'transformer' || e.input !== 'tokens' || !e.causal || e.head !== 'lm') {
    throw new UserError(
      `${name} is not a decoder: generation needs a causal language model (llama, qwen, mistral, gpt2 ...)`,
    );
  }
  return e;
}

/** The decoder's shape for the decode model: parameters, expert parameters and nodes of one step. */
function decoderShape(e: DecoderEntry, batch: number, dtype: Dtype): DecoderShape {
  const step = entryWorkload(e, { seq: 1, batch, dtype });
  const matrices = step.nodes.filter((n) => n.family === 'gemm' && n.params > 0 && !n.name.startsWith('embeddings.'));
  return {
    layers: e.layers,
    hidden: e.hidden,
    heads: e.heads,
    kvHeads: e.kvHeads ?? e.heads,
    kvValuesPerLayer: cachedValuesPerToken(e),
    params: step.nodes.reduce((s, n) => s + n.params, 0),
    expertParams: step.nodes.filter((n) => isExpertNode(n.name)).reduce((s, n) => s + n.params, 0),
    // Token (and learned position) tables: a step gathers rows; a tied LM head reads the token table whole.
    gatheredParams: e.tiedEmbeddings
      ? 0
      : step.nodes.filter((n) => n.name.startsWith('embeddings.')).reduce((s, n) => s + n.params, 0),
    experts: e.experts ?? 0,
    topK: e.topK ?? 0,
    nodesPerStep: step.nodes.length,
    meanMatrixParams: meanOf(matrices.map((n) => n.params)),
  };
}

/** The mean of `xs`; undefined when empty. */
function meanOf(xs: readonly number[]): number | undefined {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined;
}

export function decodeDevice(
  db: Database,
  device: DeviceGroup,
  dtype: Dtype,
  warnings: string[],
  /** The mean bytes of the step's weight matrices, for the streaming rate at their size. */
  matrixBytes?: number,
): DecodeDevice {
  const f = device.features;
  const streamed = decodeBandwidthGBps(db, device, undefined, matrixBytes);
  if (streamed === null)
    warnings.push(
      `${device.deviceKey}: no matrix-vector product over streamed weights was profiled; decode uses the elementwise bandwidth (likely too fast)`,
    );
  const slower = streamed === null ? null : slowerThreadsNote(db, device, streamed, matrixBytes);
  if (slower) warnings.push(slower);
  let peak = f.peakGflops[dtype];
  if (peak === undefined) {
    peak = f.peakGflops.fp32 ?? 1;
    warnings.push(`${device.deviceKey} has no measured ${dtype} peak: the fp32 peak stands in for it`);
  }
  // Without a measured per-node overhead (older profiles) the prefill's warning already says so.
  const overhead = deviceOverhead(db, device);
  return {
    bandwidthGBps: streamed ?? f.bandwidthGBps,
    peakGflops: peak,
    // PyTorch's eager dispatch per op is inside its kernels' times, not in bytes over bandwidth.
    nodeUs: (overhead?.nodeUs ?? 0) + (overhead?.dispatchUs ?? 0),
    runUs: overhead ? deviceRunUs(overhead) : 0,
  };
}

/**
 * The prompt's forward pass as a server runs it: the LM head turns only the last position into
 * logits, not all `prompt` of them as the catalog workload's head does. That one row streams the
 * head's weights when a run finds them out of cache (`headReadUs`): it costs at least their read.
 */
function prefillToFirstToken(
  totalUs: number,
  layers: readonly { name: string; timeUs: number }[],
  prompt: number,
  headReadUs: number,
): number {
  const head = layers.find((l) => l.name === 'head')?.timeUs ?? 0;
  return totalUs - head + Math.max(head / prompt, headReadUs);
}

/** What the head's one row reads from memory (µs): its weights, when the run finds them cold; else 0. */
function headReadUs(w: Workload, cold: ColdWeights | null): number {
  if (!cold || !weightsRunCold(w, cold)) return 0;
  const head = w.layers.find((l) => l.name === 'head');
  const bytes = (head?.nodes ?? []).reduce((a, i) => a + (w.nodes[i] ? weightBytes(w.nodes[i]) : 0), 0);
  return bytes > 0 ? bytes / (cold.streamGBps(bytes) * 1e3) : 0;
}

/** The prompt's pass on a profiled device: the time to first token and the warnings. */
export interface PrefillPrediction {
  ttftUs: number;
  warnings: string[];
  /** The prompt's workload (its nodes' activations size the memory of generation). */
  workload: Workload;
}

/**
 * The prompt's forward pass predicted node by node on `device` (the catalog's kernels at the
 * profile's measured rates, its per-node and per-run costs), less the LM head on all but the
 * last position.
 */
export function predictPrefill(
  db: Database,
  e: DecoderEntry,
  p: { prompt: number; batch: number; dtype: Dtype; predictor?: string; coldWeights?: ColdWeightsOption },
  device: DeviceGroup,
): PrefillPrediction {
  const workload = entryWorkload(e, { seq: p.prompt, batch: p.batch, dtype: p.dtype });
  const prefill = predictOnDevice(db, workload, device, {
    mode: 'inference',
    ...(p.predictor ? { predictor: p.predictor } : {}),
    ...(p.coldWeights === undefined ? {} : { coldWeights: p.coldWeights }),
  });
  const cold = coldWeightsAs(db, device, 'inference', p.coldWeights);
  return {
    ttftUs: prefillToFirstToken(prefill.totalUs, prefill.layers, p.prompt, headReadUs(workload, cold)),
    warnings: prefill.warnings,
    workload,
  };
}

export function predictGeneration(db: Database, name: string, req: GenerationRequest): GenerationPrediction {
  const e = decoderEntry(name, req.decoder);
  const dtype = req.dtype ?? e.defaults.dtype;
  const batch = req.batch ?? 1;
  const prompt = req.prompt ?? (e.defaults.seq as number);
  const tokens = req.tokens ?? DEFAULT_TOKENS;
  const context = e.context as number;
  if (prompt + tokens > context) {
    throw new UserError(
      `${name} takes at most ${count(context, 'token')}: the prompt (${prompt}) and the generated tokens (${tokens}) make ${prompt + tokens}`,
    );
  }
  const device = pickDevice(db, req.device, req.threads, req.machine, 'inference');
  const prefill = predictPrefill(
    db,
    e,
    { prompt, batch, dtype, ...(req.predictor ? { predictor: req.predictor } : {}) },
    device,
  );
  const warnings = [...prefill.warnings];
  const shape = decoderShape(e, batch, dtype);
  const elementBytes = DTYPE_BYTES[dtype];
  const weights = req.weights ?? (dtype as WeightFormat);
  const refused = weightFormatRefusal(weights, dtype, elementBytes);
  if (refused) throw new UserError(refused);
  const weightBytes = WEIGHT_FORMATS[weights];
  const dev = decodeDevice(db, device, dtype, warnings, (shape.meanMatrixParams ?? 0) * weightBytes || undefined);
  if (weightBytes < elementBytes)
    warnings.push(
      `${weights} weights: memory and decode bandwidth are counted at ${weightBytes.toFixed(4)} B per weight; the prefill is predicted at ${dtype} (kernels that dequantize are not profiled)`,
    );
  const kvDataflow = req.kvDataflow ?? 'read-once';
  const attention = profiledAttentionOver(
    db,
    device,
    shape,
    { from: prompt, to: prompt + tokens - 1 },
    { batch, dataflow: kvDataflow, dtype, bandwidthGBps: dev.bandwidthGBps },
  );
  if (!attention)
    warnings.push(
      `${e.name}: its attention (heads and head width) is not one the decode graph builds; the KV cache is priced as bytes streamed`,
    );
  const steps = Array.from({ length: tokens }, (_, t) =>
    decodeStep(
      shape,
      {
        batch,
        context: prompt + t,
        elementBytes,
        weightBytes,
        ...(attention ? { attentionUs: attention(prompt + t) } : {}),
      },
      dev,
    ),
  );
  const decodeUs = steps.reduce((s, x) => s + x.stepUs, 0);
  const end = prompt + tokens;
  const machine = new MachineRepo(db).getMachine(device.machineId);
  const memory = machine ? deviceMemoryBytes(machine, device.deviceKey) : 0;
  const activationBytes = Math.max(...prefill.workload.nodes.map((n) => n.activationBytes), 0);
  const memoryBytes = generationBytes(shape, { batch, context: end, elementBytes, weightBytes, activationBytes });
  return {
    workload: e.name,
    device: device.deviceId,
    engine: engineOf(device.executionProvider),
    dtype,
    batch,
    prompt,
    tokens,
    weights,
    kvDataflow,
    ttftUs: prefill.ttftUs,
    firstStep: steps[0] as DecodeStep,
    lastStep: steps[steps.length - 1] as DecodeStep,
    decodeUs,
    tokensPerSecond: (tokens * batch * 1e6) / decodeUs,
    weightBytes: shape.params * weightBytes,
    kvCacheBytes: kvBytesPerTokenOf(shape, elementBytes) * end * batch,
    memoryBytes,
    deviceMemoryBytes: memory > 0 ? memory : null,
    fits: memory > 0 ? memoryBytes <= memory : null,
    largest:
      memory > 0
        ? largestFit(shape, {
            batch,
            context: end,
            elementBytes,
            weightBytes,
            memoryBytes: memory,
            maxContext: context,
          })
        : null,
    warnings,
  };
}
