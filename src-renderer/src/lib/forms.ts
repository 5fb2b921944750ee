/**
 * Form checks answered before anything is sent: the plan form turned into a `plan:create`
 * request (at least one device, a positive batch when one is given), the profile's thread counts. Pure.
 */
import type { ApiRequest, TrainingStack } from '../../../src-main/api/contract.js';
import type { Mode } from '../../../src-main/api/view-models.js';
import { DEFAULT_FINETUNE_FORM as DEFAULT_FINETUNE, finetuneFields, type FinetuneForm } from './finetune.js';

export type PlanRequest = ApiRequest<'plan:create'>;

/** Fine-tuning is training with LoRA/QLoRA adapters: sent as mode training with `finetune`. */
export type PlanMode = Mode | 'finetune';

export interface PlanForm {
  workload: string;
  mode: PlanMode;
  /** Samples or sequences per step; null or empty: not sent, the service's default (its plan then says "(default)"). */
  batch: number | string | null;
  /** Tokens per sequence (serving a decoder: the prompt unless one is given); empty: the model's default. */
  seq?: number | string | null;
  /** Device keys of this machine ("cpu", "cuda:0"). */
  localDevices: readonly string[];
  /** Imported machines (ids) whose profiled devices join the plan: a virtual cluster. */
  machines: readonly string[];
  /** How many of each datasheet GPU (by exact name; 0 or absent: none), whole numbers from 0 to 64. */
  virtual: Readonly<Record<string, number>>;
  /** "25GbE", "100GbE", "200Gb-IB"...; empty for none. */
  network: string;
  topN: number;
  /** ZeRO-Offload style optimizer offload to the CPU (training): auto (searched both ways), yes, no. */
  offload?: 'auto' | 'yes' | 'no';
  /** Catalog models: the dtype to build them in (fp8: fp8 GEMMs on Ada/Hopper, bf16 elsewhere); '' for the catalog's. */
  dtype?: '' | 'fp32' | 'fp16' | 'bf16' | 'fp8';
  /** ZeRO stage (training): auto (1, 2 and 3 searched) or a fixed one. */
  zero?: 'auto' | '0' | '1' | '2' | '3';
  /** Training: the stack that runs it (the search keeps to it, the exports are its launcher); '' for any. */
  stack?: '' | TrainingStack;
  /** The user's own layout to price beside the best plan ("tp=2,pp=4,dp=1,zero=1"); empty for none. */
  layout?: string;
  /** Serving a decoder (inference): empty fields take the service's defaults. */
  serving?: ServingForm;
  /** Fine-tuning (mode finetune): the adapter, rank, alpha, targets and stack. */
  finetune?: FinetuneForm;
}

export interface ServingForm {
  /** A weight format (q4_k, int4, fp8...); '' for the model's dtype. */
  weights: string;
  /** The engine that runs it (vllm, llama.cpp, ...), auto (by the weight format) or ideal (the kernel roofline). */
  engine: string;
  objective: 'latency' | 'throughput';
  /** Output tokens per request; empty for the default (256). */
  tokens: number | string | null;
  /** Prompt tokens; empty for the default (1024, or what the model's context leaves). */
  prompt: number | string | null;
}

/** A whole number from 1 to 2^20, undefined for an empty field (a number input left empty: null), or null when bad. */
function optionalCount(v: number | string | null): number | undefined | null {
  if (v === null || (typeof v === 'string' && v.trim() === '')) return undefined;
  const n = typeof v === 'number' ? v : Number(v.trim());
  return Number.isInteger(n) && n >= 1 && n <= 1 << 20 ? n : null;
}

/** The serving fields of a request, or the first bad one's message. */
function servingFields(f: ServingForm): Partial<PlanRequest> | string {
  const tokens = optionalCount(f.tokens);
  if (tokens === null) return 'Output tokens must be a whole number ≥ 1 (or empty for 256).';
  const prompt = optionalCount(f.prompt);
  if (prompt === null) return 'Prompt tokens must be a whole number ≥ 1 (or empty for the default).';
  const out: Partial<PlanRequest> = { objective: f.objective };
  if (f.weights) out.weights = f.weights as PlanRequest['weights'];
  if (f.engine && f.engine !== 'auto') out.engine = f.engine as PlanRequest['engine'];
  if (tokens !== undefined) out.tokens = tokens;
  if (prompt !== undefined) out.prompt = prompt;
  return out;
}

export type PlanFormResult = { ok: true; request: PlanRequest } | { ok: false; error: string };

/** The most of one datasheet GPU a plan takes (eight 8-GPU nodes). */
export const MAX_DATASHEET_COUNT = 64;

/** Each datasheet GPU named as many times as its count, in the form's order; or the first bad count. */
function datasheetNames(counts: Readonly<Record<string, number>>): string[] | string {
  const names: string[] = [];
  for (const [name, n] of Object.entries(counts)) {
    if (!Number.isInteger(n) || n < 0 || n > MAX_DATASHEET_COUNT)
      return `${name}: a count from 0 to ${MAX_DATASHEET_COUNT}, please.`;
    for (let i = 0; i < n; i++) names.push(name);
  }
  return names;
}

export function planRequest(f: PlanForm): PlanFormResult {
  if (!f.workload) return { ok: false, error: 'Choose a workload to plan.' };
  const batch = optionalCount(f.batch);
  if (batch === null) return { ok: false, error: 'Batch must be a whole number ≥ 1 (or empty for the default).' };
  const seq = optionalCount(f.seq ?? null);
  if (seq === null)
    return { ok: false, error: "Sequence must be a whole number ≥ 1 (or empty for the model's default)." };
  const virtual = datasheetNames(f.virtual);
  if (typeof virtual === 'string') return { ok: false, error: virtual };
  if (f.localDevices.length === 0 && f.machines.length === 0 && virtual.length === 0) {
    return { ok: false, error: 'Choose at least one device: a local one, an imported machine or a datasheet GPU.' };
  }
  const training = f.mode !== 'inference';
  const request: PlanRequest = {
    workload: f.workload,
    mode: training ? 'training' : 'inference',
    ...(batch !== undefined ? { batch } : {}),
    devices: f.localDevices.length > 0 ? f.localDevices.join(',') : 'none',
    topN: f.topN,
  };
  if (seq !== undefined) request.seq = seq;
  if (f.machines.length > 0) request.machine = f.machines.join(',');
  if (virtual.length > 0) request.virtual = virtual;
  if (f.network.trim()) request.network = f.network.trim();
  if (f.dtype) request.dtype = f.dtype;
  if (f.offload && training) request.offload = f.offload;
  if (f.zero && f.zero !== 'auto' && training) request.zero = Number(f.zero) as 0 | 1 | 2 | 3;
  // Full training only: fine-tuning names its own tool.
  if (f.stack && f.mode === 'training') request.stack = f.stack;
  if (f.mode === 'finetune') {
    const finetune = finetuneFields(f.finetune ?? DEFAULT_FINETUNE);
    if (typeof finetune === 'string') return { ok: false, error: finetune };
    request.finetune = finetune;
  }
  const layout = f.layout?.trim() ?? '';
  if (layout.length > 200)
    return { ok: false, error: 'Layout: at most 200 characters, like tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8.' };
  if (layout) request.layout = layout;
  if (f.serving && f.mode === 'inference') {
    const serving = servingFields(f.serving);
    if (typeof serving === 'string') return { ok: false, error: serving };
    Object.assign(request, serving);
  }
  return { ok: true, request };
}

/** "1, 4" -> [1, 4]; null when empty; an error message when not positive integers. */
export function parseThreads(text: string): number[] | null | string {
  const t = text.trim();
  if (!t) return null;
  const parts = t.split(/[\s,]+/).filter(Boolean);
  const nums = parts.map(Number);
  if (nums.some((n) => !Number.isInteger(n) || n < 1 || n > 1024)) {
    return 'Threads: whole numbers from 1 to 1024, separated by commas.';
  }
  if (nums.length > 8) return 'Threads: at most 8 values.';
  return nums;
}

const NAME = /^[^\s=,;]+$/;

function entries(text: string): string[] {
  return text
    .split(/[,;\n]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** "x=1x3x48x192, mask=1x128" -> { x: [1, 3, 48, 192], mask: [1, 128] }; an error message when malformed. */
export function parseInputShapes(text: string): Record<string, number[]> | string {
  const out: Record<string, number[]> = {};
  for (const e of entries(text)) {
    const eq = e.lastIndexOf('=');
    const name = e.slice(0, eq).trim();
    const shape = e.slice(eq + 1).trim();
    if (eq <= 0 || !NAME.test(name) || !/^\d+(\s*[x×]\s*\d+)*$/.test(shape)) {
      return `Input shapes: write name=AxBxC, e.g. x=1x3x48x192 (got "${e}").`;
    }
    const dims = shape.split(/\s*[x×]\s*/).map(Number);
    if (dims.some((d) => !Number.isInteger(d) || d < 1) || dims.length > 8) {
      return `Input shapes: sizes are whole numbers ≥ 1, at most 8 of them (got "${e}").`;
    }
    out[name] = dims;
  }
  return out;
}

/** "batch=1, height=48" -> { batch: 1, height: 48 }; an error message when malformed. */
export function parseDims(text: string): Record<string, number> | string {
  const out: Record<string, number> = {};
  for (const e of entries(text)) {
    const eq = e.lastIndexOf('=');
    const name = e.slice(0, eq).trim();
    const value = Number(e.slice(eq + 1).trim());
    if (eq <= 0 || !NAME.test(name) || !Number.isInteger(value) || value < 1) {
      return `Symbolic dims: write name=N with N ≥ 1, e.g. batch=1 (got "${e}").`;
    }
    out[name] = value;
  }
  return out;
}
