/**
 * One shape a suite measures, and what the shape lists (suite-shapes.ts, suite-prior.ts) are
 * written with: grids, powers of two, conv layers as rows. Pure.
 */
import type { Dtype } from '../domain/measurement.js';
import type { KernelOp } from './types.js';

/** The lowest suite level that holds a shape: 0 quick, 1 standard, 2 thorough. */
export type Level = 0 | 1 | 2;

export interface ShapeEntry {
  op: KernelOp;
  shape: Record<string, number>;
  level: Level;
  /** The only dtypes the shape is built in; absent: every dtype its op supports. */
  dtypes?: readonly Dtype[];
}

export const Ki = 1024;
export const Mi = Ki * Ki;

/** Every combination of the axes' values, first axis slowest. */
export function grid<A extends string>(axes: Record<A, readonly number[]>): Record<A, number>[] {
  let out: Record<string, number>[] = [{}];
  for (const [name, values] of Object.entries<readonly number[]>(axes)) {
    out = out.flatMap((partial) => values.map((v) => ({ ...partial, [name]: v })));
  }
  return out as Record<A, number>[];
}

/** 2^from .. 2^to, every `step`-th power. */
export function pow2(from: number, to: number, step = 1): number[] {
  const out: number[] = [];
  for (let k = from; k <= to; k += step) out.push(2 ** k);
  return out;
}

/**
 * [C, H=W, K, R=S, stride, groups, act] of ResNet-50, ResNeXt, VGG, MobileNet, EfficientNet
 * layers; act (default 0) 1 = followed by a fused Relu.
 */
export type ConvLayer = readonly [number, number, number, number, number, number, number?];

/** A function that adds a conv layer at a level and batch size to `out`; act 0 stays out of the shape. */
export function convAdder(out: ShapeEntry[]): (level: Level, N: number, layer: ConvLayer) => void {
  return (level, N, [C, HW, K, R, stride, groups, act = 0]) => {
    const shape = { N, C, H: HW, W: HW, K, R, S: R, stride, groups, ...(act ? { act } : {}) };
    out.push({ op: 'Conv', shape, level });
  };
}
