import { UsageError } from '../../core/errors.js';
import { formatBytes } from '../../core/text/bytes.js';
import type { FitTime } from '../../core/planner/memory/fit.js';
import { publishedErrorText } from '../../core/predictor/kernel-efficiency.js';
import { fitModel, type FitAnswer } from '../../services/plan/fit-service.js';
import { readDescribedFile } from '../../services/workload/workload-service.js';
import type { Command, OptionSpec } from '../command.js';
import { SERVING_OPTIONS, engineChoice } from '../serving-options.js';
import { FINETUNE_OPTIONS, finetuneRequest } from '../finetune-options.js';
import type { FinetuneRequest } from '../../core/workload/finetune.js';
import { formatTable } from '../output.js';
import { boundedText, positiveInt } from '../workload-options.js';
import { REQUEST_LIMITS, TEXT_LIMITS } from '../../core/workload/limits.js';
import { quoted } from '../../core/text/shown.js';
import { DEFAULT_SEQUENCE_TEXT } from '../../core/catalog/default-sequence.js';
import { sequenceText } from '../../core/planner/plan-assumptions.js';
import { count } from '../../core/text/plural.js';

/** "NVIDIA GeForce RTX 4090" -> "RTX 4090": the table's GPU lists stay readable. */
const short = (name: string): string => name.replace(/^NVIDIA (GeForce |Tesla )?/, '');

/** Rank, alpha and targets: fit lists LoRA and QLoRA both. */
const adapterOptions = ({ adapter: _adapter, ...rest }: FinetuneRequest): Omit<FinetuneRequest, 'adapter'> => rest;

/** "412 ms/step on RTX 4090 [297-1071]"; serving on an engine: "vLLM on RTX 4090: prefill 114 ms [98-160]". */
function timeText(t: FitTime): string {
  const ms = (us: number): string => (us >= 1e4 ? (us / 1e3).toFixed(0) : (us / 1e3).toFixed(1));
  const range = t.lowUs === t.highUs ? '' : ` [${ms(t.lowUs)}-${ms(t.highUs)}]`;
  if (t.serving) return `${t.serving.title} on ${short(t.gpu)}: prefill ${ms(t.us)} ms${range}`;
  return `${ms(t.us)} ms ${t.what === 'step' ? '/step' : 'prefill'} on ${short(t.gpu)}${range}`;
}

type Row = FitAnswer['rows'][number];

/** "2 x H200 SXM 141GB or 4 x RTX 4090": the splits; "-" when it fits alone and needs none, "no" when nothing holds it. */
function splitText(x: Row): string {
  const splits = [x.split, x.consumerSplit].filter((p) => p !== null);
  const texts = [...new Set(splits.map((p) => `${p.count} x ${short(p.gpu)}`))];
  return texts.length > 0 ? texts.join(' or ') : x.alone.length > 0 ? '-' : 'no';
}

/** "context 8,192 tokens (the model's default, of its 131,072)": what the rows assumed; a model without a context: "1 token". */
function contextText(r: Pick<FitAnswer, 'context' | 'modelContext'>, asked: boolean): string {
  if (r.modelContext === null && !asked) return count(r.context, 'token');
  return `context ${sequenceText({ value: r.context, asked }, r.modelContext)}`;
}

export const fitCommand: Command = {
  name: 'fit',
  summary: 'memory a model needs per weight format or training setup, and the GPUs it fits on',
  usage:
    'MODEL [--mode inference|training|finetune [--rank R] [--targets q,v,...]] [--context N] [--batch N] [--gpus "RTX 4090,H100 SXM5"] [--engine NAME] [--json]',
  details:
    'Serving: weights per format (bf16, fp8, int8, q8_0, int4, q4_k), the KV cache of --context tokens per\n' +
    'sequence for --batch sequences, one step of activations. Training: mixed-precision Adam (16 bytes a\n' +
    'parameter) with the activations kept without and with full recomputation. Fine-tuning: LoRA (bf16 base)\n' +
    'and QLoRA (NF4 base), adapters in fp32 with Adam, the same two ways. Each row names the GPUs\n' +
    '(datasheets: `pipedejavu gpus` lists them) that hold it alone, or the fewest of the largest that hold it split,\n' +
    'and, where no consumer card holds it alone, the fewest of the smallest consumer card that do (up to 8).\n' +
    'Without --gpus the GPUs are listed smallest memory first (consumer, then workstation, then datacenter\n' +
    'where memory is equal); the time and decode speed are on the first that holds it. Serving rows on an engine\n' +
    'add decode tokens/s per sequence.',
  options: {
    mode: { type: 'string', valueName: 'MODE', description: 'inference (default), training or finetune' },
    rank: FINETUNE_OPTIONS.rank,
    alpha: FINETUNE_OPTIONS.alpha,
    targets: FINETUNE_OPTIONS.targets,
    stack: FINETUNE_OPTIONS.stack,
    context: { type: 'string', valueName: 'N', description: `tokens per sequence (default: ${DEFAULT_SEQUENCE_TEXT})` },
    batch: { type: 'string', valueName: 'N', description: 'sequences (default 1)' },
    gpus: {
      type: 'string',
      valueName: 'GPUS',
      description: 'datasheet GPUs to place on, comma separated (default: all)',
    },
    engine: SERVING_OPTIONS.engine as OptionSpec,
  },
  positionals: {
    min: 1,
    max: 1,
    names: 'a catalog name, stored workload, .onnx or .gguf file, or a Hugging Face model folder',
  },
  async run(ctx, opts, [model]) {
    const mode = typeof opts.mode === 'string' ? opts.mode : 'inference';
    if (mode !== 'inference' && mode !== 'training' && mode !== 'finetune')
      throw new UsageError(`--mode takes inference, training or finetune; got ${quoted(mode)}`);
    if (mode !== 'finetune' && typeof opts.stack === 'string')
      throw new UsageError('fit: --stack is for --mode finetune (a training stack is planned by `plan --stack`)');
    // fit lists LoRA and QLoRA both: the adapter is not asked for.
    const tuned = finetuneRequest({ ...opts, ...(mode === 'finetune' ? { adapter: 'lora' } : {}) }, mode);
    // A .gguf file or a Hugging Face config.json / model folder: its architecture, from its header.
    const described = await readDescribedFile(ctx.database(), model as string);
    const r = fitModel(ctx.database(), {
      model: model as string,
      ...(described ? { decoder: described.entry } : {}),
      mode,
      ...(tuned ? { finetune: adapterOptions(tuned) } : {}),
      ...(typeof opts.context === 'string'
        ? { context: positiveInt('--context', opts.context, REQUEST_LIMITS.context) }
        : {}),
      ...(typeof opts.batch === 'string' ? { batch: positiveInt('--batch', opts.batch, REQUEST_LIMITS.batch) } : {}),
      ...(typeof opts.engine === 'string' ? { engine: engineChoice(opts.engine) } : {}),
      ...(typeof opts.gpus === 'string'
        ? {
            gpus: opts.gpus
              .split(',')
              .map((s) => boundedText('--gpus entry', s.trim(), TEXT_LIMITS.gpuName))
              .filter(Boolean),
          }
        : {}),
    });
    if (ctx.json) {
      ctx.printJson(r);
      return;
    }
    ctx.printLine(
      `${r.model}: ${(r.params / 1e9).toFixed(2)} B parameters, ${mode}, ${contextText(r, typeof opts.context === 'string')} x ${count(r.batch, 'sequence')}; ` +
        `each GPU keeps ${formatBytes(r.overheadBytes)} for the framework`,
    );
    const serving = r.rows.some((x) => x.time?.serving);
    const decode = (x: Row): string[] =>
      serving ? [x.time?.serving ? `${x.time.serving.decodeTokensPerSecond.toFixed(1)} tok/s` : '-'] : [];
    ctx.print(
      formatTable(
        [
          'HOLDING',
          'WEIGHTS',
          'GRADS',
          'OPTIMIZER',
          'ACTIVATIONS',
          'KV CACHE',
          'TOTAL',
          'FITS ALONE ON',
          'OR SPLIT',
          'TIME (FIRST FIT)',
          ...(serving ? ['DECODE (FIRST FIT)'] : []),
        ],
        r.rows.map((x) => [
          x.label,
          formatBytes(x.weightsBytes),
          x.gradientBytes ? formatBytes(x.gradientBytes) : '-',
          x.optimizerBytes ? formatBytes(x.optimizerBytes) : '-',
          formatBytes(x.activationBytes),
          x.kvCacheBytes ? formatBytes(x.kvCacheBytes) : '-',
          formatBytes(x.totalBytes),
          x.alone.length === 0
            ? 'none'
            : x.alone.length > 4
              ? `${x.alone.slice(0, 3).map(short).join(', ')} and ${x.alone.length - 3} more`
              : x.alone.map(short).join(', '),
          splitText(x),
          x.time ? timeText(x.time) : x.engineNote ? 'no engine: see note' : '-',
          ...decode(x),
        ]),
      ),
    );
    for (const n of r.notes) ctx.printLine(`note: ${n}`);
    for (const x of r.rows) if (x.engineNote) ctx.printLine(`note: ${x.label}: ${x.engineNote}`);
    if (r.rows.some((x) => x.time && !x.time.serving))
      ctx.print(`note: times are datasheet estimates (range in brackets); ${publishedErrorText()}`);
    else if (r.rows.some((x) => x.time?.serving))
      ctx.print(
        "note: engine figures from datasheets; the bracketed range is the engine's 90% band over independent measurements (bench/engines), absent where too few were priced",
      );
  },
};
