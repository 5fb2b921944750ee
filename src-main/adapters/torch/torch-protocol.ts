/** Messages of the PyTorch backend's Python child (torch_runner.py), one JSON object per line. */
import type { EpConfig } from '../../core/domain/execution-provider.js';
import type { FailureKind, OverheadOutcome } from '../ort/protocol.js';
import type { StopReason } from '../../core/profiler/timing-stats.js';
import type { BlasPool } from '../../core/profiler/blas-pool.js';

export interface TorchHello {
  type: 'ready';
  torch: string;
  cuda: boolean;
  cudaVersion: string | null;
  devices: { index: number; name: string; memoryBytes: number; uuid: string | null }[];
  /** torch has F.scaled_dot_product_attention (2.0 and newer). */
  sdpa: boolean;
  threads: number;
  /** The BLAS library the products run on and its own pool; null: none found loaded (older runners: absent). */
  blas?: BlasPool | null;
  python: string;
  executable: string;
}

export type TorchOutcome =
  | { id: number; ok: true; kernelUs: number[]; wallUs: number[]; inner: number; stop: StopReason }
  | { id: number; ok: false; kind: FailureKind; error: string };

export type TorchMessage =
  | TorchHello
  | { type: 'no-torch'; error: string; executable: string }
  | { type: 'result'; outcome: TorchOutcome }
  | { type: 'overhead-result'; outcome: OverheadOutcome };

/** The torch device string and CPU threads of a PyTorch execution provider; null for ONNX Runtime's. */
export function torchDevice(ep: EpConfig): { device: string; threads: number | null } | null {
  if (ep.name === 'torch-cpu') return { device: 'cpu', threads: ep.threads };
  if (ep.name === 'torch-cuda') return { device: `cuda:${ep.deviceId}`, threads: null };
  return null;
}
