/** Micro-kernels: what is profiled, its cost, its ONNX model, and the suites. Pure. */
export * from './types.js';
export * from './cost.js';
export * from './build.js';
export * from './suites.js';
export * from './refine.js';
