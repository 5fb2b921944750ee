/** Options shared by the workload commands: --dim, --input, catalog parameters. */
import { UsageError } from '../core/errors.js';
import type { Dtype } from '../core/domain/measurement.js';
import type { WorkloadSpecOptions } from '../services/workload-service.js';
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
  seq: valueOption('N', 'catalog transformers: sequence length'),
  image: valueOption('N', 'catalog CNN/ViT: image size (default 224)'),
  dtype: valueOption(
    'DTYPE',
    'catalog models: fp32, fp16, bf16 or fp8 (fp8 GEMMs, bf16 elsewhere; Ada, Hopper and Blackwell GPUs)',
  ),
};

/** Largest batch accepted (the API's limits are the same or wider). */
export const MAX_BATCH = 65_536;
/** Largest sequence length or other dimension: 1M tokens covers every catalog context (Llama 3.1: 128k). */
const MAX_DIM = 1 << 20;
/** Most CPU threads a --threads option takes. */
export const MAX_THREADS = 1024;
/** Most plans `plan --top` lists. */
export const MAX_TOP_N = 1000;
const MAX_IMAGE = 16_384;

/** Decimal digits only (no 1e12, 0x10, 1.0), from 1 to `max`: one parser for every count option. */
export function positiveInt(flag: string, v: string, max: number = MAX_DIM): number {
  const n = /^[0-9]{1,10}$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new UsageError(`${flag} takes a whole number from 1 to ${max}, got "${v}"`);
  }
  return n;
}

const list = (v: ParsedOptions[string]): string[] => (Array.isArray(v) ? v : typeof v === 'string' ? [v] : []);

export function workloadSpecOptions(opts: ParsedOptions): WorkloadSpecOptions {
  const dims: Record<string, number> = {};
  for (const d of list(opts.dim)) {
    const m = /^([^=]+)=(.+)$/.exec(d);
    if (!m) throw new UsageError(`--dim takes NAME=N, got "${d}"`);
    dims[m[1] as string] = positiveInt(`--dim ${m[1]}`, m[2] as string);
  }
  const inputs: Record<string, number[]> = {};
  for (const d of list(opts.input)) {
    const m = /^([^=]+)=(.+)$/.exec(d);
    if (!m) throw new UsageError(`--input takes NAME=AxBxC, got "${d}"`);
    inputs[m[1] as string] = (m[2] as string).split('x').map((v) => positiveInt(`--input ${m[1]}`, v));
  }
  const out: WorkloadSpecOptions = { dims, inputs };
  if (typeof opts.batch === 'string') out.batch = positiveInt('--batch', opts.batch, MAX_BATCH);
  if (typeof opts.seq === 'string') out.seq = positiveInt('--seq', opts.seq, MAX_DIM);
  if (typeof opts.image === 'string') out.image = positiveInt('--image', opts.image, MAX_IMAGE);
  if (typeof opts.dtype === 'string') {
    if (!['fp32', 'fp16', 'bf16', 'fp8'].includes(opts.dtype))
      throw new UsageError(`--dtype takes fp32, fp16, bf16 or fp8; got "${opts.dtype}"`);
    out.dtype = opts.dtype as Dtype;
  }
  return out;
}
