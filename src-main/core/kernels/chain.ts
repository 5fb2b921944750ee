/**
 * A kernel's graph repeated as a chain: copy i reads copy i-1's output where the single
 * kernel reads its data input, and every copy shares the other inputs and the weights.
 * Timed without profiling, (T(copies) - T(1)) / (copies - 1) is the time one more such
 * node adds to a run: its kernel plus the executor's per-node cost, without the per-run
 * cost, the binding's input and output copies or the final synchronization. The same
 * method works on CPUs and GPUs (intermediates stay on the device). Only kernels whose
 * output has the shape and type of their data input can be chained. Pure.
 */
import type { NodeDef, TensorDef } from '../onnx/model-builder.js';
import type { TensorInfo } from './build.js';

export interface KernelParts {
  nodes: NodeDef[];
  inputs: TensorInfo[];
  output: TensorInfo;
  initializers: TensorDef[];
}

/** Copies in a chained timing model. */
export const CHAIN_COPIES = 5;

/** True when the output can feed the kernel again: same dims and type as the first (data) input. */
export function isChainable(parts: KernelParts): boolean {
  const data = parts.inputs[0];
  if (!data || data.dtype !== parts.output.dtype) return false;
  return data.dims.length === parts.output.dims.length && data.dims.every((d, i) => d === parts.output.dims[i]);
}

/** `copies` copies of the kernel in a chain; the last copy writes the original output. */
export function chainParts(parts: KernelParts, copies: number): KernelParts {
  if (!Number.isInteger(copies) || copies < 1) throw new RangeError(`copies must be a positive integer, got ${copies}`);
  if (copies === 1) return parts;
  if (!isChainable(parts))
    throw new RangeError('this kernel cannot be chained: its output is not shaped like its input');
  const data = (parts.inputs[0] as TensorInfo).name;
  const produced = new Set(parts.nodes.flatMap((n) => n.outputs));
  const nodes: NodeDef[] = [];
  for (let c = 0; c < copies; c++) {
    const last = c === copies - 1;
    const rename = (t: string): string => {
      if (t === data && c > 0) return `${parts.output.name}_c${c - 1}`;
      if (t === parts.output.name && !last) return `${t}_c${c}`;
      if (produced.has(t) && t !== parts.output.name) return `${t}_c${c}`;
      return t;
    };
    for (const n of parts.nodes) {
      nodes.push({
        ...n,
        name: `${n.name ?? n.opType}_c${c}`,
        inputs: n.inputs.map((t) => (t === '' ? t : rename(t))),
        outputs: n.outputs.map(rename),
      });
    }
  }
  return { ...parts, nodes };
}
