/** Options shared by the workload commands: --dim, --input, catalog parameters. */
import { UsageError } from '../core/errors.js';
import type { Dtype } from '../core/domain/measurement.js';
import type { WorkloadSpecOptions } from '../services/workload-service.js';
import type { OptionSpec, ParsedOptions } from './command.js';

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
  batch: { type: 'string', valueName: 'N', description: 'catalog models: batch size (default 1)' },
  seq: { type: 'string', valueName: 'N', description: 'catalog transformers: sequence length' },
  image: { type: 'string', valueName: 'N', description: 'catalog CNN/ViT: image size (default 224)' },
  dtype: { type: 'string', valueName: 'DTYPE', description: 'catalog models: fp32, fp16 or bf16' },
};

const positiveInt = (flag: string, v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} takes a positive integer, got "${v}"`);
  return n;
};

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
  if (typeof opts.batch === 'string') out.batch = positiveInt('--batch', opts.batch);
  if (typeof opts.seq === 'string') out.seq = positiveInt('--seq', opts.seq);
  if (typeof opts.image === 'string') out.image = positiveInt('--image', opts.image);
  if (typeof opts.dtype === 'string') {
    if (!['fp32', 'fp16', 'bf16'].includes(opts.dtype)) throw new UsageError(`--dtype takes fp32, fp16 or bf16`);
    out.dtype = opts.dtype as Dtype;
  }
  return out;
}
