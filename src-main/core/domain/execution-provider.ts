/**
 * Which ONNX Runtime execution provider runs a kernel or a model, and on what: the CPU with a
 * thread count, or a GPU by index (CUDA, WebGPU). Domain vocabulary shared by the profiler, the
 * predictions on real runs and the kernel runner.
 */
export type EpConfig =
  { name: 'cpu'; threads: number } | { name: 'cuda'; deviceId: number } | { name: 'webgpu'; deviceId: number };
