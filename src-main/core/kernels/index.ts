/** Micro-kernels: what is profiled, its cost, its ONNX model, and the suites. Pure. */
export * from './types.js';
export * from './cost.js';
export * from './build.js';
export * from './suites.js';
export * from './refine.js';
export {
  float16BitsToFloat32,
  float32ToBfloat16Bits,
  float32ToFloat16Bits,
  randomBytes,
  seededRandom,
} from './fill.js';
export type { Level, ShapeEntry } from './suite-shapes.js';
export { kernelOfNode } from './from-node.js';
