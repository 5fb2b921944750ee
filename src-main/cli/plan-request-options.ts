/**
 * `plan`'s options as the plan request (core/planner/plan-request.ts), by a table: each row names a
 * request field, the options it is read from and how their text becomes the field's value. A row
 * reads only the text (decimal counts, comma lists, aliases, files); the request's schema checks
 * every value, and a value it refuses is the row's line naming the option and the text given.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { UsageError, UserError, errorMessage } from '../core/errors.js';
import { ENGINE_CHOICES } from '../core/engines/engine-names.js';
import { TRAINING_STACK_NAMES } from '../core/planner/stacks/stack-names.js';
import { PLAN_REQUEST, TENSOR_DEGREES, type PlanRequest } from '../core/planner/plan-request.js';
import { quoted } from '../core/text/shown.js';
import { WEIGHT_FORMATS } from '../core/workload/generation.js';
import { REQUEST_LIMITS, TEXT_LIMITS, type Range } from '../core/workload/limits.js';
import type { ParsedOptions } from './command.js';
import { finetuneOptions, finetuneRefusal } from './finetune-options.js';
import { boundedText, dimsOption, inputsOption, positiveInt } from './workload-options.js';

/** One request field and the options it is read from. */
interface OptionRow {
  field: keyof PlanRequest;
  /** The options read (the first names the field in its refusal). */
  options: readonly string[];
  /** The value their text stands for; undefined when none of them is given. */
  read: (opts: ParsedOptions) => unknown;
  /** The line when the schema refuses the value (`path`: what it refused inside the field). */
  refusal?: (opts: ParsedOptions, path: readonly PropertyKey[]) => string;
}

const text = (opts: ParsedOptions, option: string): string | undefined => {
  const v = opts[option];
  return typeof v === 'string' ? v : undefined;
};

/** An option's text as it is. */
const asGiven = (option: string) => (opts: ParsedOptions) => text(opts, option);

/** A count option: decimal digits inside its range (positiveInt). */
const countOption = (option: string, range: Range) => (opts: ParsedOptions) => {
  const v = text(opts, option);
  return v === undefined ? undefined : positiveInt(`--${option}`, v, range);
};

/** "--offload takes auto, yes or no; got "x"". */
const takes = (option: string, values: string) => (opts: ParsedOptions) =>
  `--${option} takes ${values}; got ${quoted(opts[option])}`;

const MAX_NCCL_BYTES = 16 * 2 ** 20;
const MAX_LINKS_BYTES = 4 * 2 ** 20;

/** A small text file the user names (nccl-tests output, a links statement), read whole under a cap. */
function readSmallText(option: string, file: string, cap: number): { source: string; text: string } {
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new UserError(`${option}: ${file} is not a file`);
    size = st.size;
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`${option}: cannot read ${file}`);
  }
  if (size > cap) throw new UserError(`${option}: ${file} is larger than ${cap / 2 ** 20} MiB`);
  return { source: path.basename(file), text: readFileSync(file, 'utf8') };
}

/** nccl-tests outputs: files, or folders whose *.txt and *.log files are read (the pair recipe's output). */
function readNcclFiles(list: string): { source: string; text: string }[] {
  return list
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
    .flatMap((entry) => {
      let dir = false;
      try {
        dir = statSync(entry).isDirectory();
      } catch {
        throw new UserError(`--nccl: cannot read ${entry}`);
      }
      if (!dir) return [readSmallText('--nccl', entry, MAX_NCCL_BYTES)];
      const files = readdirSync(entry)
        .filter((f) => /\.(txt|log|out)$/i.test(f))
        .sort();
      if (files.length === 0) throw new UserError(`--nccl: ${entry} has no nccl-tests outputs (*.txt, *.log, *.out)`);
      return files.map((f) => readSmallText('--nccl', path.join(entry, f), MAX_NCCL_BYTES));
    });
}

/** "1,2,4" → [1, 2, 4]: whole degrees, each once. */
function tensorDegrees(list: string): number[] {
  const items = list.split(',').map((x) => x.trim());
  if (items.length === 0 || items.some((x) => x === ''))
    throw new UsageError(`--tp takes degrees like 1,2,4,8; got ${quoted(list)}`);
  return [...new Set(items.map((x) => positiveInt('--tp', x, TENSOR_DEGREES)))];
}

/** FSDP's sharding strategies as ZeRO stages. */
const ZERO_ALIASES: Record<string, 2 | 3> = { fsdp: 3, 'fsdp-grad-op': 2 };

/** "0".."3", fsdp (3), fsdp-grad-op (2) → a ZeRO stage; auto → undefined (searched); other text as it is. */
function zeroStage(given: string): number | string | undefined {
  const t = given.trim().toLowerCase();
  if (t === 'auto') return undefined;
  return ZERO_ALIASES[t] ?? (/^[0-9]$/.test(t) ? Number(t) : given);
}

/** --concurrency N or --rate R (one of them), with --requests N. */
function loadOption(opts: ParsedOptions): Record<string, unknown> | undefined {
  const requests = countOption('requests', REQUEST_LIMITS.requests)(opts);
  const concurrency = text(opts, 'concurrency');
  const rate = text(opts, 'rate');
  if (concurrency !== undefined && rate !== undefined) throw new UsageError('give --concurrency or --rate, not both');
  const counted = requests !== undefined ? { requests } : {};
  if (concurrency !== undefined)
    return { kind: 'concurrency', users: positiveInt('--concurrency', concurrency, REQUEST_LIMITS.users), ...counted };
  if (rate !== undefined) return { kind: 'rate', perSecond: Number(rate), ...counted };
  if (requests !== undefined) throw new UsageError('--requests goes with --concurrency or --rate');
  return undefined;
}

/** The plan's mode as the CLI names it: training (default), inference, or finetune (training with adapters). */
const modeText = (opts: ParsedOptions): string => text(opts, 'mode') ?? 'training';

/** `plan`'s options, one row per request field, in the order their mistakes are named. */
export const PLAN_OPTION_ROWS: readonly OptionRow[] = [
  {
    field: 'workload',
    options: ['workload'],
    read: (opts) => {
      const workload = text(opts, 'workload');
      if (workload === undefined) throw new UsageError('plan: --workload is required');
      return workload;
    },
  },
  {
    field: 'mode',
    options: ['mode'],
    read: (opts) => (modeText(opts) === 'finetune' ? 'training' : modeText(opts)),
    refusal: takes('mode', 'training, inference or finetune'),
  },
  {
    field: 'finetune',
    options: ['adapter', 'rank', 'alpha', 'targets', 'stack'],
    read: (opts) => finetuneOptions(opts, modeText(opts)) ?? undefined,
    refusal: finetuneRefusal,
  },
  {
    field: 'stack',
    options: ['stack'],
    read: (opts) => (modeText(opts) === 'finetune' ? undefined : text(opts, 'stack')?.trim().toLowerCase()),
    refusal: takes(
      'stack',
      `${TRAINING_STACK_NAMES.join(', ')} (training) or, with --mode finetune, peft, torchtune or unsloth`,
    ),
  },
  { field: 'dims', options: ['dim'], read: (opts) => (opts.dim === undefined ? undefined : dimsOption(opts)) },
  { field: 'inputs', options: ['input'], read: (opts) => (opts.input === undefined ? undefined : inputsOption(opts)) },
  { field: 'batch', options: ['batch'], read: countOption('batch', REQUEST_LIMITS.batch) },
  { field: 'seq', options: ['seq'], read: countOption('seq', REQUEST_LIMITS.seq) },
  { field: 'image', options: ['image'], read: countOption('image', REQUEST_LIMITS.image) },
  { field: 'dtype', options: ['dtype'], read: asGiven('dtype'), refusal: takes('dtype', 'fp32, fp16, bf16 or fp8') },
  { field: 'offload', options: ['offload'], read: asGiven('offload'), refusal: takes('offload', 'auto, yes or no') },
  { field: 'topN', options: ['top'], read: countOption('top', REQUEST_LIMITS.top) },
  {
    field: 'attention',
    options: ['attention'],
    read: asGiven('attention'),
    refusal: takes('attention', 'fused or unfused'),
  },
  {
    field: 'recompute',
    options: ['recompute'],
    read: asGiven('recompute'),
    refusal: takes('recompute', 'auto, none, selective or full'),
  },
  { field: 'tp', options: ['tp'], read: (opts) => mapText(opts, 'tp', tensorDegrees) },
  {
    field: 'zero',
    options: ['zero'],
    read: (opts) => mapText(opts, 'zero', zeroStage),
    refusal: takes('zero', 'auto, a ZeRO stage 0, 1, 2 or 3, fsdp (= 3) or fsdp-grad-op (= 2)'),
  },
  {
    field: 'objective',
    options: ['objective'],
    read: asGiven('objective'),
    refusal: takes('objective', 'latency or throughput'),
  },
  {
    field: 'weights',
    options: ['weights'],
    read: asGiven('weights'),
    refusal: takes('weights', Object.keys(WEIGHT_FORMATS).join(', ')),
  },
  {
    field: 'engine',
    options: ['engine'],
    read: (opts) => mapText(opts, 'engine', (v) => v.trim().toLowerCase()),
    refusal: takes('engine', ENGINE_CHOICES.join(', ')),
  },
  { field: 'kvCache', options: ['kv-cache'], read: asGiven('kv-cache'), refusal: takes('kv-cache', 'auto or fp8') },
  {
    field: 'load',
    options: ['concurrency', 'rate', 'requests'],
    read: loadOption,
    refusal: (opts) => {
      const { min, max } = REQUEST_LIMITS.rate;
      return `--rate takes requests per second above ${min}, at most ${max}; got ${quoted(opts.rate)}`;
    },
  },
  { field: 'tokens', options: ['tokens'], read: countOption('tokens', REQUEST_LIMITS.tokens) },
  { field: 'prompt', options: ['prompt'], read: countOption('prompt', REQUEST_LIMITS.prompt) },
  { field: 'devices', options: ['devices'], read: asGiven('devices') },
  { field: 'machine', options: ['machine'], read: asGiven('machine') },
  {
    field: 'virtual',
    options: ['virtual'],
    read: (opts) =>
      mapText(opts, 'virtual', (v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
  },
  {
    field: 'network',
    options: ['network'],
    read: (opts) => mapText(opts, 'network', (v) => boundedText('--network', v, TEXT_LIMITS.network)),
  },
  {
    field: 'links',
    options: ['links'],
    read: (opts) => mapText(opts, 'links', (v) => readSmallText('--links', v, MAX_LINKS_BYTES)),
  },
  {
    field: 'layout',
    options: ['layout'],
    read: (opts) => mapText(opts, 'layout', (v) => boundedText('--layout', v, TEXT_LIMITS.layout)),
  },
  { field: 'nccl', options: ['nccl'], read: (opts) => mapText(opts, 'nccl', readNcclFiles) },
  { field: 'search', options: ['no-search'], read: (opts) => (opts['no-search'] === true ? false : undefined) },
];

/** `f` of an option's text; undefined when it is not given. */
function mapText<T>(opts: ParsedOptions, option: string, f: (v: string) => T): T | undefined {
  const v = text(opts, option);
  return v === undefined ? undefined : f(v);
}

/** The fields `rows` read from the options, each checked by its schema in the rows' order. */
function fieldsOf(opts: ParsedOptions, rows: readonly OptionRow[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of rows) {
    const value = row.read(opts);
    if (value === undefined) continue;
    const checked = (PLAN_REQUEST.shape[row.field] as z.ZodType).safeParse(value);
    if (!checked.success) {
      const refused = checked.error.issues[0]?.path ?? [];
      throw new UsageError(
        row.refusal ? row.refusal(opts, refused) : `--${row.options[0]}: ${errorMessage(checked.error)}`,
      );
    }
    out[row.field] = checked.data;
  }
  return out;
}

/** The plan request `plan`'s options give (the described model is the command's to add). */
export function planRequestOf(opts: ParsedOptions): PlanRequest {
  return PLAN_REQUEST.parse(fieldsOf(opts, PLAN_OPTION_ROWS));
}

/** The request fields `fields` as a command sharing plan's options gives them (predict-model --mode generate). */
export function planFieldsOf<F extends keyof PlanRequest>(
  opts: ParsedOptions,
  fields: readonly F[],
): Partial<Pick<PlanRequest, F>> {
  const rows = PLAN_OPTION_ROWS.filter((r) => (fields as readonly string[]).includes(r.field));
  return fieldsOf(opts, rows) as Partial<Pick<PlanRequest, F>>;
}
