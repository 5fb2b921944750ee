/**
 * The NCHWc reorders ONNX Runtime's CPU EP puts around a lone NCHWc kernel: a ReorderInput
 * of its input map (none when a few-channel first conv reads NCHW directly) and a
 * ReorderOutput of its output map. Which of them ran, the kernel's trace says; this says
 * what each one moved, as a kernel of its own (types.ts TIMED_INSIDE_OPS). Pure.
 */
import { convOutDims, makeKernel, poolOutSize } from './cost.js';
import type { KernelSpec } from './types.js';

type Map4 = { N: number; C: number; H: number; W: number };

export interface ReorderKernels {
  ReorderInput: KernelSpec;
  ReorderOutput: KernelSpec;
}

/** The NCHW maps a kernel reads and writes when ORT runs it in NCHWc; null for kernels it never does. */
function nchwcMaps(spec: KernelSpec): { input: Map4; output: Map4 } | null {
  const s = spec.shape;
  const d = (name: string): number => s[name] ?? 0;
  const input = { N: d('N'), C: d('C'), H: d('H'), W: d('W') };
  switch (spec.op) {
    case 'Conv': {
      if (d('d1') > 0 || d('transpose') > 0) return null;
      const [H, W] = convOutDims(s);
      return { input, output: { N: d('N'), C: d('K'), H, W } };
    }
    case 'MaxPool':
    case 'AveragePool':
      return {
        input,
        output: { ...input, H: poolOutSize(d('H'), d('R'), d('stride')), W: poolOutSize(d('W'), d('R'), d('stride')) },
      };
    case 'GlobalAveragePool':
      return { input, output: { ...input, H: 1, W: 1 } };
    case 'Resize':
      return { input, output: { ...input, H: d('H') * d('scale'), W: d('W') * d('scale') } };
    default:
      return null;
  }
}

/** The reorder kernels of an fp32 kernel ORT may run in NCHWc; null for every other kernel. */
export function reorderKernels(spec: KernelSpec): ReorderKernels | null {
  if (spec.dtype !== 'fp32') return null;
  const maps = nchwcMaps(spec);
  if (!maps) return null;
  return {
    ReorderInput: makeKernel('ReorderInput', 'fp32', maps.input),
    ReorderOutput: makeKernel('ReorderOutput', 'fp32', maps.output),
  };
}
