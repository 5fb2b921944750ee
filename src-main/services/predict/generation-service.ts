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
import type { Sample } from '../../core/predictor/types.js';
import { UserError } from '../../core/errors.js';
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
import { loadTrainingData, type DeviceGroup } from './training-data.js';
import { pickDevice, predictOnDevice } from '../workload/workload-service.js';
import { deviceOverhead } from '../workload/stored-device-figures.js';
import { count } from '../../core/text/plural.js';
import { isExpertNode } from '../../core/catalog/block-names.js';

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
}

export interface GenerationPrediction {
  workload: string;
  /** The device across machines (MachineDeviceId: machineId/deviceKey/ep[/Nt]). */
  device: MachineDeviceId;
  dtype: Dtype;
  batch: number;
  prompt: number;
  tokens: number;
  /** Weight format and its bytes per parameter. */
  weights: WeightFormat;
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
type DecoderEntry = TransformerEntry & Pick<CatalogEntry, 'family' | 'sources'>;

function decoderEntry(name: string, decoder?: CatalogEntry): DecoderEntry {
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
  };
}

/** Weights beyond every cache: a matrix-vector product over them streams from memory (32 MiB and more). */
const STREAMED_WEIGHT_BYTES = 32 * 2 ** 20;

/**
 * The bandwidth a decode step's weights stream at: what the device's largest measured
 * matrix-vector products (MatMul with at most 4 rows, 32 MiB and more) achieved, median over
 * them; null when the profile has none. A GEMV streaming weights reaches less than the
 * elementwise kernels the roofline's bandwidth comes from (on this project's Zen 5 VM, 18-23
 * against 25-31 GB/s at one thread).
 */
export function decodeBandwidthGBps(
  db: Database,
  device: DeviceGroup,
  /** The machine's samples when the caller has loaded them already (a cluster: one load per machine). */
  machineSamples?: readonly Sample[],
): number | null {
  const rates = (machineSamples ?? loadTrainingData(db, { machineId: device.machineId }).samples)
    .filter(
      (s) =>
        s.device.deviceId === device.deviceId &&
        (s.origin ?? 'profile') === 'profile' &&
        s.op === 'MatMul' &&
        (s.shape.B ?? 1) * (s.shape.M ?? 0) <= 4 &&
        s.bytes >= STREAMED_WEIGHT_BYTES,
    )
    .map((s) => s.bytes / (s.timeUs * 1e3))
    .sort((a, b) => a - b);
  return rates.length ? (rates[Math.floor((rates.length - 1) / 2)] as number) : null;
}

export function decodeDevice(db: Database, device: DeviceGroup, dtype: Dtype, warnings: string[]): DecodeDevice {
  const f = device.features;
  const streamed = decodeBandwidthGBps(db, device);
  if (streamed === null)
    warnings.push(
      `${device.deviceKey}: no matrix-vector product over streamed weights was profiled; decode uses the elementwise bandwidth (likely too fast)`,
    );
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
    nodeUs: overhead?.nodeUs ?? 0,
    runUs: overhead ? deviceRunUs(overhead) : 0,
  };
}

/**
 * The prompt's forward pass as a server runs it: the LM head turns only the last position into
 * logits, not all `prompt` of them as the catalog workload's head does.
 */
function prefillToFirstToken(
  totalUs: number,
  layers: readonly { name: string; timeUs: number }[],
  prompt: number,
): number {
  const head = layers.find((l) => l.name === 'head')?.timeUs ?? 0;
  return totalUs - head * (1 - 1 / prompt);
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
  const prefillWorkload = entryWorkload(e, { seq: prompt, batch, dtype });
  const prefill = predictOnDevice(db, prefillWorkload, device, {
    mode: 'inference',
    ...(req.predictor ? { predictor: req.predictor } : {}),
  });
  const warnings = [...prefill.warnings];
  const shape = decoderShape(e, batch, dtype);
  const dev = decodeDevice(db, device, dtype, warnings);
  const elementBytes = DTYPE_BYTES[dtype];
  const weights = req.weights ?? (dtype as WeightFormat);
  const refused = weightFormatRefusal(weights, dtype, elementBytes);
  if (refused) throw new UserError(refused);
  const weightBytes = WEIGHT_FORMATS[weights];
  if (weightBytes < elementBytes)
    warnings.push(
      `${weights} weights: memory and decode bandwidth are counted at ${weightBytes.toFixed(4)} B per weight; the prefill is predicted at ${dtype} (kernels that dequantize are not profiled)`,
    );
  const steps = Array.from({ length: tokens }, (_, t) =>
    decodeStep(shape, { batch, context: prompt + t, elementBytes, weightBytes }, dev),
  );
  const decodeUs = steps.reduce((s, x) => s + x.stepUs, 0);
  const end = prompt + tokens;
  const machine = new MachineRepo(db).getMachine(device.machineId);
  const memory = machine ? deviceMemoryBytes(machine, device.deviceKey) : 0;
  const activationBytes = Math.max(...prefillWorkload.nodes.map((n) => n.activationBytes), 0);
  const memoryBytes = generationBytes(shape, { batch, context: end, elementBytes, weightBytes, activationBytes });
  return {
    workload: e.name,
    device: device.deviceId,
    dtype,
    batch,
    prompt,
    tokens,
    weights,
    ttftUs: prefillToFirstToken(prefill.totalUs, prefill.layers, prompt),
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
