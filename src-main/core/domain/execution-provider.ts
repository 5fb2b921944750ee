/**
 * What runs a kernel or a model, and on what: ONNX Runtime's execution providers (the CPU with a
 * thread count, or a GPU by index through CUDA or WebGPU) and the PyTorch backend's (eager
 * PyTorch on the CPU or a CUDA GPU). Domain vocabulary shared by the profiler, the predictions
 * on real runs, the runners and the planner.
 */
export type OrtEp =
  { name: 'cpu'; threads: number } | { name: 'cuda'; deviceId: number } | { name: 'webgpu'; deviceId: number };

export type TorchEp = { name: 'torch-cpu'; threads: number } | { name: 'torch-cuda'; deviceId: number };

export type EpConfig = OrtEp | TorchEp;

/** The backends `pipedejavu profile --backend` names. */
export const BACKENDS = ['ort', 'torch'] as const;
export type Backend = (typeof BACKENDS)[number];

export const isTorchEp = (ep: EpConfig): ep is TorchEp => ep.name === 'torch-cpu' || ep.name === 'torch-cuda';

/** Whether an execution provider's name (as stored with measurements) is the PyTorch backend's. */
export const isTorchEpName = (name: string): boolean => name === 'torch-cpu' || name === 'torch-cuda';

/** The engine a stored execution provider's measurements (and so its predictions) are for, in words. */
export function engineOf(epName: string): string {
  if (epName === 'torch-cpu') return 'PyTorch, eager, on the CPU';
  if (epName === 'torch-cuda') return 'PyTorch, eager, on CUDA';
  return `ONNX Runtime, ${epName === 'cpu' ? 'CPU' : epName === 'cuda' ? 'CUDA' : epName === 'webgpu' ? 'WebGPU' : epName} EP`;
}

/** Thread count of a CPU provider, null on a GPU. */
export function epThreads(ep: EpConfig): number | null {
  return ep.name === 'cpu' || ep.name === 'torch-cpu' ? ep.threads : null;
}

/** Whether the provider runs on the CPU (ONNX Runtime's or PyTorch's). */
export const onCpu = (ep: EpConfig): boolean => ep.name === 'cpu' || ep.name === 'torch-cpu';
