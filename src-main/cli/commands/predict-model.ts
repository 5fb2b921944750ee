import { UsageError } from '../../core/errors.js';
import { KernelRunner } from '../../adapters/ort/kernel-runner.js';
import { predictModelExecuted } from '../../services/model-prediction-service.js';
import type { Command } from '../command.js';
import { renderGeneration, renderPrediction } from '../render/workload.js';
import { predictGeneration, type GenerationRequest } from '../../services/generation-service.js';
import { readDescribedModel } from '../../services/hf-config-service.js';
import { deviceNameOf } from '../../services/device-names.js';
import { WEIGHT_FORMATS, type WeightFormat } from '../../core/workload/generation.js';
import type { ParsedOptions } from '../command.js';
import type { CliContext } from '../context.js';
import { predictOnDatasheet } from '../../services/datasheet-prediction-service.js';
import { MAX_THREADS, WORKLOAD_OPTIONS, positiveInt, workloadSpecOptions } from '../workload-options.js';

export const predictModelCommand: Command = {
  name: 'predict-model',
  summary: 'predict a whole model on a profiled device: total, per layer, per node, per op family',
  usage:
    'MODEL.onnx|CATALOG-NAME|WORKLOAD --device D|--virtual GPU [--threads N] [--mode inference|training|generate] [--prompt N] [--tokens N] [--dim ..] [--input ..] [--json]',
  details:
    '--mode generate (catalog decoders): time to first token for a --prompt of N tokens, then --tokens N decode\n' +
    'steps with a KV cache, each bound by the bytes it moves over the measured bandwidth; tokens per second,\n' +
    'the KV cache, whether it fits the device, and the largest batch and context that would.',
  options: {
    ...WORKLOAD_OPTIONS,
    device: { type: 'string', valueName: 'DEVICE', description: 'cpu, cuda:N, webgpu:N' },
    threads: {
      type: 'string',
      valueName: 'N',
      description: 'CPU thread count profiled (default: the most threads profiled, all cores by default)',
    },
    mode: {
      type: 'string',
      valueName: 'MODE',
      description: 'inference (default), training (forward + backward) or generate (decoders: prefill + decode)',
    },
    prompt: {
      type: 'string',
      valueName: 'N',
      description: 'generate: prompt tokens per sequence (default: the model’s seq)',
    },
    tokens: { type: 'string', valueName: 'N', description: 'generate: tokens generated per sequence (default 128)' },
    weights: {
      type: 'string',
      valueName: 'FORMAT',
      description: `generate: weight format, ${Object.keys(WEIGHT_FORMATS).join(', ')} (default: the dtype)`,
    },
    predictor: {
      type: 'string',
      valueName: 'NAME',
      description: 'forest, analytical, linear or roofline (default: best trained)',
    },
    machine: { type: 'string', valueName: 'ID', description: 'an imported machine (default: this one)' },
    virtual: {
      type: 'string',
      valueName: 'GPU',
      description:
        'a datasheet GPU instead of a profiled device ("RTX 4090", "H100 SXM5"; models/gpus.json): no profile needed',
    },
  },
  positionals: { min: 1, max: 1, names: 'MODEL.onnx, MODEL.gguf, a config.json or model folder, or a catalog name' },
  async run(ctx, opts, [spec]) {
    if (typeof opts.virtual === 'string') return predictVirtual(ctx, opts, spec as string);
    if (typeof opts.device !== 'string') throw new UsageError('predict-model: --device or --virtual is required');
    const mode = typeof opts.mode === 'string' ? opts.mode : 'inference';
    if (mode !== 'inference' && mode !== 'training' && mode !== 'generate')
      throw new UsageError(`--mode takes inference, training or generate; got "${mode}"`);
    const threads = typeof opts.threads === 'string' ? positiveInt('--threads', opts.threads, MAX_THREADS) : undefined;
    // A .gguf file or a config.json (or a model folder): its architecture, predicted like a catalog model.
    const gguf = await readDescribedModel(spec as string);
    if (mode === 'generate') {
      const req = generationRequest(opts, opts.device, threads);
      const g = predictGeneration(
        ctx.database(),
        spec as string,
        gguf
          ? { ...req, decoder: gguf.entry, ...(req.weights || !gguf.weights ? {} : { weights: gguf.weights }) }
          : req,
      );
      g.warnings.unshift(...(gguf?.warnings ?? []));
      if (ctx.json) ctx.printJson(g);
      else ctx.print(renderGeneration(g, deviceNameOf(ctx.database(), g.device)));
      return;
    }
    if (opts.prompt !== undefined || opts.tokens !== undefined || opts.weights !== undefined)
      throw new UsageError('--prompt, --tokens and --weights go with --mode generate');
    const runner = new KernelRunner({ env: ctx.io.env });
    let p;
    try {
      p = await predictModelExecuted(ctx.database(), runner, spec as string, {
        ...workloadSpecOptions(opts),
        ...(gguf ? { decoder: gguf.entry } : {}),
        mode,
        device: opts.device,
        ...(threads !== undefined ? { threads } : {}),
        ...(typeof opts.predictor === 'string' ? { predictor: opts.predictor } : {}),
        ...(typeof opts.machine === 'string' ? { machine: opts.machine } : {}),
      });
    } finally {
      await runner.close();
    }
    if (ctx.json) ctx.printJson({ ...p, totalMs: p.totalUs / 1000, lowMs: p.lowUs / 1000, highMs: p.highUs / 1000 });
    else ctx.print(renderPrediction(p, deviceNameOf(ctx.database(), p.device)));
  },
};

/** The generation request of predict-model's options (catalog decoders only: no --dim or --input). */
function generationRequest(opts: ParsedOptions, device: string, threads: number | undefined): GenerationRequest {
  const spec = workloadSpecOptions(opts);
  if (Object.keys(spec.dims ?? {}).length || Object.keys(spec.inputs ?? {}).length)
    throw new UsageError('--mode generate takes a catalog decoder: --dim and --input do not apply');
  if (spec.seq !== undefined) throw new UsageError('--mode generate: give the prompt length with --prompt, not --seq');
  return {
    device,
    ...(threads !== undefined ? { threads } : {}),
    ...(typeof opts.machine === 'string' ? { machine: opts.machine } : {}),
    ...(typeof opts.predictor === 'string' ? { predictor: opts.predictor } : {}),
    ...(typeof opts.prompt === 'string' ? { prompt: positiveInt('--prompt', opts.prompt, MAX_CONTEXT) } : {}),
    ...(typeof opts.tokens === 'string' ? { tokens: positiveInt('--tokens', opts.tokens, MAX_CONTEXT) } : {}),
    ...(spec.batch !== undefined ? { batch: spec.batch } : {}),
    ...(spec.dtype !== undefined ? { dtype: spec.dtype } : {}),
    ...(typeof opts.weights === 'string' ? { weights: weightFormat(opts.weights) } : {}),
  };
}

function weightFormat(v: string): WeightFormat {
  if (!Object.hasOwn(WEIGHT_FORMATS, v))
    throw new UsageError(`--weights takes ${Object.keys(WEIGHT_FORMATS).join(', ')}; got "${v}"`);
  return v as WeightFormat;
}

/** Longest prompt or generation the CLI takes (the model's own context is checked by the service). */
const MAX_CONTEXT = 1 << 20;

/** predict-model --virtual: the model on a datasheet GPU (inference or training; no profile needed). */
async function predictVirtual(ctx: CliContext, opts: ParsedOptions, spec: string): Promise<void> {
  if (typeof opts.device === 'string') throw new UsageError('--virtual and --device name different devices: give one');
  const mode = typeof opts.mode === 'string' ? opts.mode : 'inference';
  if (mode !== 'inference' && mode !== 'training')
    throw new UsageError(
      `--virtual predicts inference or training; for generation on a datasheet GPU run plan --virtual "${String(opts.virtual)}" --devices none --mode inference`,
    );
  for (const o of ['threads', 'predictor', 'machine', 'prompt', 'tokens', 'weights'] as const)
    if (opts[o] !== undefined) throw new UsageError(`--${o} does not apply to a datasheet GPU (--virtual)`);
  const gguf = await readDescribedModel(spec);
  const p = predictOnDatasheet(ctx.database(), spec, {
    ...workloadSpecOptions(opts),
    ...(gguf ? { decoder: gguf.entry } : {}),
    gpu: opts.virtual as string,
    mode,
  });
  if (ctx.json) ctx.printJson({ ...p, totalMs: p.totalUs / 1000, lowMs: p.lowUs / 1000, highMs: p.highUs / 1000 });
  else ctx.print(renderPrediction(p, `${opts.virtual as string} (datasheet)`));
}
