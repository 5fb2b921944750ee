/** Options shared by the workload commands: --dim, --input, catalog parameters. */
import { UsageError } from '../core/errors.js';
import { QUOTED_MAX_CHARS, cut, quoted } from '../core/text/shown.js';
import { REQUEST_LIMITS, type Range } from '../core/workload/limits.js';
import { FLOAT_DTYPES, type FloatDtype } from '../core/domain/dtypes.js';
import { series } from '../core/text/series.js';
import { FP8_GPUS_TEXT } from '../core/domain/gpu-architectures.js';
import { DEFAULT_SEQUENCE_TEXT } from '../core/catalog/default-sequence.js';
import type { WorkloadSpecOptions } from '../services/workload/workload-service.js';
import { valueOption, type OptionSpec, type ParsedOptions } from './command.js';

export const WORKLOAD_OPTIONS: Record<string, OptionSpec> = {
  dim: {
    type: 'string',
    multiple: true,
    valueName: 'NAME=N',
    description: 'bind a symbolic dimension, e.g. --dim batch=1 (repeatable)',
  },
  input: {
    type: 'string',
    multiple: true,
    valueName: 'NAME=AxB..',
    description: "an input's whole shape, e.g. --input images=1x3x640x640",
  },
  batch: valueOption('N', 'catalog models: batch size (default 1)'),
  seq: valueOption(
    'N',
    `text models (catalog, config.json, GGUF): tokens per sequence (default: ${DEFAULT_SEQUENCE_TEXT})`,
  ),
  image: valueOption('N', 'catalog CNN/ViT: image size (default 224)'),
  dtype: valueOption('DTYPE', `catalog models: ${series(FLOAT_DTYPES)} (fp8 GEMMs, bf16 elsewhere; ${FP8_GPUS_TEXT})`),
};

/**
 * Decimal digits only (no 1e12, 0x10, 1.0), inside `range` (REQUEST_LIMITS, the bounds the API
 * takes too): one parser for every count option.
 */
export function positiveInt(flag: string, v: string, range: Range = REQUEST_LIMITS.dim): number {
  const n = /^[0-9]{1,10}$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < range.min || n > range.max) {
    throw new UsageError(`${flag} takes a whole number from ${range.min} to ${range.max}, got ${quoted(v)}`);
  }
  return n;
}

/** A text option at most `max` characters long (TEXT_LIMITS, the lengths the API takes too). */
export function boundedText(flag: string, v: string, max: number): string {
  const n = [...v].length;
  if (n > max) throw new UsageError(`${flag} takes at most ${max} characters; got ${n}: ${quoted(v)}`);
  return v;
}

const list = (v: ParsedOptions[string]): string[] => (Array.isArray(v) ? v : typeof v === 'string' ? [v] : []);

/** --dim NAME=N (repeatable): the symbolic dimensions bound; {} when none is given. */
export function dimsOption(opts: ParsedOptions): Record<string, number> {
  const dims: Record<string, number> = {};
  for (const d of list(opts.dim)) {
    const m = /^([^=]+)=(.+)$/.exec(d);
    if (!m) throw new UsageError(`--dim takes NAME=N, got ${quoted(d)}`);
    dims[m[1] as string] = positiveInt(`--dim ${cut(m[1] as string, QUOTED_MAX_CHARS)}`, m[2] as string);
  }
  return dims;
}

/** --input NAME=AxBxC (repeatable): inputs' whole shapes; {} when none is given. */
export function inputsOption(opts: ParsedOptions): Record<string, number[]> {
  const inputs: Record<string, number[]> = {};
  for (const d of list(opts.input)) {
    const m = /^([^=]+)=(.+)$/.exec(d);
    if (!m) throw new UsageError(`--input takes NAME=AxBxC, got ${quoted(d)}`);
    inputs[m[1] as string] = (m[2] as string)
      .split('x')
      .map((v) => positiveInt(`--input ${cut(m[1] as string, QUOTED_MAX_CHARS)}`, v));
  }
  return inputs;
}

export function workloadSpecOptions(opts: ParsedOptions): WorkloadSpecOptions {
  const out: WorkloadSpecOptions = { dims: dimsOption(opts), inputs: inputsOption(opts) };
  if (typeof opts.batch === 'string') out.batch = positiveInt('--batch', opts.batch, REQUEST_LIMITS.batch);
  if (typeof opts.seq === 'string') out.seq = positiveInt('--seq', opts.seq, REQUEST_LIMITS.seq);
  if (typeof opts.image === 'string') out.image = positiveInt('--image', opts.image, REQUEST_LIMITS.image);
  if (typeof opts.dtype === 'string') {
    if (!(FLOAT_DTYPES as readonly string[]).includes(opts.dtype))
      throw new UsageError(`--dtype takes ${series(FLOAT_DTYPES)}; got ${quoted(opts.dtype)}`);
    out.dtype = opts.dtype as FloatDtype;
  }
  return out;
}
