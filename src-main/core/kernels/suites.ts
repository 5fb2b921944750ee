/**
 * Suites: 'quick' | 'standard' | 'thorough', the kernels a profile measures. Deterministic. Pure.
 *
 * A suite holds every shape (suite-shapes.ts) up to its level, so quick is part of standard and
 * standard part of thorough. Grid shapes (standard, thorough) must fit their level's caps,
 * measured on the fp32 kernel so the shape list does not depend on the dtypes asked for; a
 * shape over its caps moves to the next level, and one over thorough's caps is left out.
 */
import { shapeKey, type Dtype } from '../domain/measurement.js';
import { makeKernel, RECURRENT_GATES } from './cost.js';
import type { Level, ShapeEntry } from './suite-entry.js';
import { allShapeEntries } from './suite-shapes.js';
import { OP_DTYPES, type KernelSpec } from './types.js';

export type SuiteName = 'quick' | 'standard' | 'thorough';
export const SUITE_NAMES: readonly SuiteName[] = ['quick', 'standard', 'thorough'];

export interface SuiteOptions {
  /** Dtypes to build, in this order; each op gets those it supports (OP_DTYPES). */
  dtypes: readonly Dtype[];
  /** Leave out kernels above this many FLOPs (a slow device's time budget). */
  maxFlops?: number;
  /** Leave out kernels that move more than this many bytes (a small device's memory). */
  maxBytes?: number;
}

const SUITE_LEVEL: Record<SuiteName, Level> = { quick: 0, standard: 1, thorough: 2 };

interface Caps {
  flops: number;
  bytes: number;
  /** Constant weights (initializers), so the model file stays small. */
  weightBytes: number;
  /** The attention score matrix, batch*heads*seq*seq, the largest intermediate. */
  scoreBytes: number;
}

/** Per-kernel caps of grid shapes at fp32. Standard: ~34 GFLOP, 1 GiB moved, 64 MiB of weights. */
export const LEVEL_CAPS: Record<1 | 2, Caps> = {
  1: { flops: 2 ** 35, bytes: 2 ** 30, weightBytes: 2 ** 26, scoreBytes: 2 ** 29 },
  2: { flops: 2 ** 38, bytes: 2 ** 32, weightBytes: 2 ** 29, scoreBytes: 2 ** 31 },
};

function fits(entry: ShapeEntry, caps: Caps): boolean {
  const k = makeKernel(entry.op, 'fp32', entry.shape);
  const s = (name: string): number => k.shape[name] ?? 0;
  let weights = 0;
  if (k.op === 'MatMul' && s('B') === 1) weights = s('K') * s('N');
  if (k.op === 'Gemm') weights = s('K') * s('N') + s('N');
  if (k.op === 'Conv') weights = (s('K') * s('C') * s('R') * s('S')) / s('groups');
  if (k.op === 'LSTM' || k.op === 'GRU')
    weights = RECURRENT_GATES[k.op].gates * s('hidden') * (s('input') + s('hidden'));
  const scores = k.op === 'Attention' ? s('batch') * s('heads') * s('seq') * s('seq') : 0;
  return (
    k.flops <= caps.flops && k.bytes <= caps.bytes && weights * 4 <= caps.weightBytes && scores * 4 <= caps.scoreBytes
  );
}

/** Each distinct shape once, at the lowest level that holds it and whose caps it fits; in declaration order. */
function leveledEntries(): ShapeEntry[] {
  const byKey = new Map<string, ShapeEntry>();
  for (const e of allShapeEntries()) {
    let level: number = e.level;
    while (level === 1 || level === 2) {
      if (fits(e, LEVEL_CAPS[level])) break;
      level += 1;
    }
    if (level > 2) continue;
    // The canonical shape (optional dims at 0 dropped), so equal kernels share one entry.
    const shape = makeKernel(e.op, 'fp32', e.shape).shape;
    const key = `${e.op}|${shapeKey(shape)}`;
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, { op: e.op, shape, level: level as Level, ...(e.dtypes ? { dtypes: e.dtypes } : {}) });
    else if (level < seen.level) seen.level = level as Level;
  }
  return [...byKey.values()];
}

let cachedEntries: ShapeEntry[] | undefined;

/** The (op, shape) pairs of a suite, each once, independent of dtype. */
export function suiteShapes(suite: SuiteName): ShapeEntry[] {
  cachedEntries ??= leveledEntries();
  const max = SUITE_LEVEL[suite];
  return cachedEntries.filter((e) => e.level <= max).map((e) => ({ ...e, shape: { ...e.shape } }));
}

/**
 * The kernels of a suite: for each requested dtype in order, every shape of the suite whose op
 * supports that dtype, minus those over `maxFlops` / `maxBytes`. Ids are unique.
 */
export function suiteKernels(suite: SuiteName, opts: SuiteOptions): KernelSpec[] {
  const shapes = suiteShapes(suite);
  const out: KernelSpec[] = [];
  for (const dtype of new Set(opts.dtypes)) {
    for (const e of shapes) {
      if (!OP_DTYPES[e.op].includes(dtype) || (e.dtypes && !e.dtypes.includes(dtype))) continue;
      const k = makeKernel(e.op, dtype, e.shape);
      if (opts.maxFlops !== undefined && k.flops > opts.maxFlops) continue;
      if (opts.maxBytes !== undefined && k.bytes > opts.maxBytes) continue;
      out.push(k);
    }
  }
  return out;
}
