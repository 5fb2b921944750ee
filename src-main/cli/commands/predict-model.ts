import { priceLayout, withDescribedModel, type LayoutPriced } from '../../services/plan/plan-service.js';
import { REQUEST_LIMITS } from '../../core/workload/limits.js';
import { quoted } from '../../core/text/shown.js';
import type { ServingFigures } from '../../core/planner/serving/serving.js';
import { ENGINE_CHOICES } from '../../core/engines/engine-names.js';
import { PREDICTOR_PREFERENCE } from '../../core/predictor/predictor-names.js';
import { SERVING_OPTIONS } from '../serving-options.js';
import { planFieldsOf } from '../plan-request-options.js';
import { engineLine } from '../render/plan.js';
import { UsageError } from '../../core/errors.js';
import { KernelRunner } from '../../adapters/ort/kernel-runner.js';
import { predictModelExecuted } from '../../services/predict/model-prediction-service.js';
import { textLines } from '../output.js';
import type { Command } from '../command.js';
import { ms, renderGeneration, renderPrediction } from '../render/workload.js';
import { predictGeneration, type GenerationRequest } from '../../services/predict/generation-service.js';
import { readDescribedFile } from '../../services/workload/workload-service.js';
import { deviceNameOf } from '../../services/predict/device-names.js';
import { WEIGHT_FORMATS, type WeightFormat } from '../../core/workload/generation.js';
import { KV_DATAFLOWS, type KvDataflow } from '../../core/workload/decode-attention.js';
import type { OptionSpec, ParsedOptions } from '../command.js';
import type { CliContext } from '../context.js';
import { predictOnDatasheet } from '../../services/predict/datasheet-prediction-service.js';
import { resolveGpuNameWithNote } from '../../core/planner/cost/datasheets.js';
import { WORKLOAD_OPTIONS, positiveInt, workloadSpecOptions } from '../workload-options.js';
import {
  MACHINE_OPTION,
  PROFILED_DEVICE_OPTIONS,
  VIRTUAL_OPTION,
  deviceOrVirtual,
  profiledDeviceQuery,
  type ProfiledDeviceQuery,
} from '../device-options.js';
import { series } from '../../core/text/series.js';

export const predictModelCommand: Command = {
  name: 'predict-model',
  summary: 'predict a whole model on a profiled device: total, per layer, per node, per op family',
  usage:
    'MODEL.onnx|CATALOG-NAME|WORKLOAD --device D|--virtual GPU [--threads N] [--mode inference|training|generate] [--prompt N] [--tokens N] [--dim ..] [--input ..] [--json]',
  details:
    '--mode generate (catalog decoders): time to first token for a --prompt of N tokens, then --tokens N decode\n' +
    'steps with a KV cache: the weights streamed at the measured rate, the attention priced node by node in\n' +
    'the --kv-dataflow the decoder reads its cache in; tokens per second,\n' +
    'the KV cache, whether it fits the device, and the largest batch and context that would.',
  options: {
    ...WORKLOAD_OPTIONS,
    ...PROFILED_DEVICE_OPTIONS,
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
    'kv-dataflow': {
      type: 'string',
      valueName: 'HOW',
      description: `generate on a profiled device: how a step reads its KV cache, ${Object.keys(KV_DATAFLOWS).join(' (default: fused decode attention) or ')} (exported decoders that copy it each step)`,
    },
    engine: {
      ...(SERVING_OPTIONS.engine as OptionSpec),
      description: `generate --virtual: the engine that serves it, ${ENGINE_CHOICES.join(', ')} (default auto: llama.cpp for q8_0/q4_k/q4_0, vLLM otherwise)`,
    },
    predictor: {
      type: 'string',
      valueName: 'NAME',
      description: `${series(PREDICTOR_PREFERENCE)} (default: best trained)`,
    },
    machine: MACHINE_OPTION,
    virtual: VIRTUAL_OPTION,
  },
  positionals: { min: 1, max: 1, names: 'MODEL.onnx, MODEL.gguf, a config.json or model folder, or a catalog name' },
  async run(ctx, opts, [spec]) {
    const target = deviceOrVirtual('predict-model', opts);
    if ('virtual' in target) {
      if (opts['kv-dataflow'] !== undefined)
        throw new UsageError(
          '--kv-dataflow goes with a profiled --device: on --virtual the engine decides how it attends',
        );
      return predictVirtual(ctx, opts, spec as string, target.virtual);
    }
    const mode = typeof opts.mode === 'string' ? opts.mode : 'inference';
    if (mode !== 'inference' && mode !== 'training' && mode !== 'generate')
      throw new UsageError(`--mode takes inference, training or generate; got ${quoted(mode)}`);
    const device = profiledDeviceQuery(opts, target.device);
    // A .gguf file or a config.json (or a model folder): its architecture, predicted like a catalog model.
    const gguf = await readDescribedFile(ctx.database(), spec as string);
    if (mode === 'generate') {
      const req = generationRequest(opts, device);
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
    if (
      opts.prompt !== undefined ||
      opts.tokens !== undefined ||
      opts.weights !== undefined ||
      opts['kv-dataflow'] !== undefined
    )
      throw new UsageError('--prompt, --tokens, --weights and --kv-dataflow go with --mode generate');
    const runner = new KernelRunner({ env: ctx.io.env });
    let p;
    try {
      p = await predictModelExecuted(ctx.database(), runner, spec as string, {
        ...workloadSpecOptions(opts),
        ...(gguf ? { decoder: gguf.entry } : {}),
        mode,
        ...device,
        ...(typeof opts.predictor === 'string' ? { predictor: opts.predictor } : {}),
      });
    } finally {
      await runner.close();
    }
    if (ctx.json) ctx.printJson({ ...p, totalMs: p.totalUs / 1000, lowMs: p.lowUs / 1000, highMs: p.highUs / 1000 });
    else ctx.print(renderPrediction(p, deviceNameOf(ctx.database(), p.device)));
  },
};

/** The generation request of predict-model's options (catalog decoders only: no --dim or --input). */
function generationRequest(opts: ParsedOptions, device: ProfiledDeviceQuery): GenerationRequest {
  const spec = workloadSpecOptions(opts);
  if (Object.keys(spec.dims ?? {}).length || Object.keys(spec.inputs ?? {}).length)
    throw new UsageError('--mode generate takes a catalog decoder: --dim and --input do not apply');
  if (spec.seq !== undefined) throw new UsageError('--mode generate: give the prompt length with --prompt, not --seq');
  return {
    ...device,
    ...(typeof opts.predictor === 'string' ? { predictor: opts.predictor } : {}),
    ...(typeof opts.prompt === 'string' ? { prompt: positiveInt('--prompt', opts.prompt, REQUEST_LIMITS.prompt) } : {}),
    ...(typeof opts.tokens === 'string' ? { tokens: positiveInt('--tokens', opts.tokens, REQUEST_LIMITS.tokens) } : {}),
    ...(spec.batch !== undefined ? { batch: spec.batch } : {}),
    ...(spec.dtype !== undefined ? { dtype: spec.dtype } : {}),
    ...(typeof opts.weights === 'string' ? { weights: weightFormat(opts.weights) } : {}),
    ...(typeof opts['kv-dataflow'] === 'string' ? { kvDataflow: kvDataflow(opts['kv-dataflow']) } : {}),
  };
}

function kvDataflow(v: string): KvDataflow {
  if (!Object.hasOwn(KV_DATAFLOWS, v))
    throw new UsageError(`--kv-dataflow takes ${Object.keys(KV_DATAFLOWS).join(' or ')}; got ${quoted(v)}`);
  return v as KvDataflow;
}

function weightFormat(v: string): WeightFormat {
  if (!Object.hasOwn(WEIGHT_FORMATS, v))
    throw new UsageError(`--weights takes ${Object.keys(WEIGHT_FORMATS).join(', ')}; got ${quoted(v)}`);
  return v as WeightFormat;
}

/**
 * predict-model --virtual --mode generate: a decoder served on one datasheet GPU by its engine
 * (--engine, auto by the weights): the first token, the decode step and tokens/s, a whole request,
 * with the engine's band; the same pricing `plan --layout tp=1` gives.
 */
async function generateVirtual(ctx: CliContext, opts: ParsedOptions, spec: string, gpu: string): Promise<void> {
  for (const o of ['threads', 'predictor', 'machine'] as const)
    if (opts[o] !== undefined) throw new UsageError(`--${o} does not apply to a datasheet GPU (--virtual)`);
  const w = workloadSpecOptions(opts);
  const gguf = await readDescribedFile(ctx.database(), spec);
  // A family name ("H100") stands for one part: the note says which, before the figures.
  const { datasheet, note } = resolveGpuNameWithNote(gpu);
  const request = {
    workload: spec,
    ...(w.batch !== undefined ? { batch: w.batch } : {}),
    ...planFieldsOf(opts, ['dtype', 'weights', 'engine', 'tokens', 'prompt']),
    devices: 'none',
    virtual: [datasheet.name],
    mode: 'inference' as const,
  };
  const r = priceLayout(ctx.database(), {
    ...(gguf ? withDescribedModel(request, gguf) : request),
    layout: 'tp=1,pp=1,dp=1',
  });
  if (note) r.warnings.unshift(note);
  const s = r.layout.serving;
  if (!s || !r.served) throw new UsageError(`${r.workload} is not a decoder: --mode generate needs one`);
  if (ctx.json) {
    ctx.printJson({ workload: r.workload, gpu, served: r.served, engine: r.engine, serving: s, warnings: r.warnings });
    return;
  }
  ctx.print(generationText(r.workload, gpu, r, s));
}

function generationText(workload: string, gpu: string, r: LayoutPriced, s: ServingFigures): string {
  const served = r.served as NonNullable<LayoutPriced['served']>;
  const lines = [
    `${workload} on ${gpu} (datasheet): prompt ${served.prompt} + ${served.tokens} output tokens, batch ${r.problem.batch}`,
    engineLine(r, s) ?? '',
    s.engineRefusal ? `the engine cannot run it: ${s.engineRefusal}` : '',
    Number.isFinite(s.ttftUs)
      ? `first token ${ms(s.ttftUs)}; decode step ${ms(s.decodeStepUs)} (${s.tokensPerSecondPerSequence.toFixed(1)} tokens/s a sequence, ${s.tokensPerSecond.toFixed(1)} at batch ${r.problem.batch}); a whole request ${ms(s.requestUs)}`
      : 'one request does not fit the memory the engine leaves on this GPU',
    s.maxBatch > 0
      ? `most sequences at once: ${s.maxBatch}, ${s.maxBatchTokensPerSecond.toFixed(0)} tokens/s there`
      : '',
    ...r.warnings.map((x) => `warning: ${x}`),
  ];
  return textLines(lines.filter((l) => l !== ''));
}

/** predict-model --virtual: the model on a datasheet GPU (inference or training; no profile needed). */
async function predictVirtual(ctx: CliContext, opts: ParsedOptions, spec: string, gpu: string): Promise<void> {
  const mode = typeof opts.mode === 'string' ? opts.mode : 'inference';
  if (mode === 'generate') return generateVirtual(ctx, opts, spec, gpu);
  if (mode !== 'inference' && mode !== 'training')
    throw new UsageError(`--mode takes inference, training or generate; got ${quoted(mode)}`);
  for (const o of ['threads', 'predictor', 'machine', 'prompt', 'tokens', 'weights', 'engine'] as const)
    if (opts[o] !== undefined)
      throw new UsageError(`--${o} does not apply to a datasheet GPU (--virtual) outside --mode generate`);
  const gguf = await readDescribedFile(ctx.database(), spec);
  const p = predictOnDatasheet(ctx.database(), spec, {
    ...workloadSpecOptions(opts),
    ...(gguf ? { decoder: gguf.entry } : {}),
    gpu,
    mode,
  });
  if (ctx.json) ctx.printJson({ ...p, totalMs: p.totalUs / 1000, lowMs: p.lowUs / 1000, highMs: p.highUs / 1000 });
  else ctx.print(renderPrediction(p, `${gpu} (datasheet)`));
}
