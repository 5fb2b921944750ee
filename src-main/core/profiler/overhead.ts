/**
 * What a run costs beyond its kernels: a fixed cost per run (session.run, the executor's
 * setup, binding a tiny input) and a cost per executed node (the executor's bookkeeping,
 * output allocation, the kernel call itself). Measured on each device from chains of 1..N
 * tiny nodes timed without profiling, whose kernels do next to nothing:
 *
 *   T(N) = runUs + nodeUs * N        (least squares over the chain lengths)
 *
 * A micro-kernel's label is its node's own time, so a whole model's prediction is
 * runUs + sum(node predictions) + nodeUs * (executed nodes). Pure.
 */
import { encodeModel, OnnxDataType, type NodeDef } from '../onnx/model-builder.js';
import { fitLine } from './device-summary.js';

/** Chain lengths timed on each device. */
export const CHAIN_LENGTHS: readonly number[] = [1, 16, 64, 256];

/** Elements of the chain's tensor: small enough that every kernel is a few nanoseconds. */
export const CHAIN_ELEMENTS = 16;

export interface RunOverhead {
  /** Fixed cost of one run, µs (includes binding a 64-byte input and output from the caller). */
  runUs: number;
  /** Cost of each executed node beyond its kernel's own time, µs. */
  nodeUs: number;
  /**
   * What ORT's profiler adds to every node's trace time (µs): a tiny node's median trace
   * time. Kernel labels read from traces have it taken off; null when not measured.
   */
  profilerNodeUs: number | null;
  /** The chain timings the fit came from: nodes -> median µs. */
  points: { nodes: number; medianUs: number }[];
}

/**
 * A model of `n` Relu nodes in a chain over a [1, 16] fp32 tensor. ORT fuses and
 * eliminates nothing in it (Relu after Relu is not an optimizer pattern), so it executes
 * exactly `n` nodes.
 */
export function chainModel(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`chain length must be a positive integer, got ${n}`);
  const nodes: NodeDef[] = [];
  for (let i = 0; i < n; i++) {
    const input = i === 0 ? 'X' : `t${i}`;
    const output = i === n - 1 ? 'Y' : `t${i + 1}`;
    nodes.push({ opType: 'Relu', inputs: [input], outputs: [output], name: `relu_${i}` });
  }
  const info = (name: string): { name: string; elemType: typeof OnnxDataType.FLOAT; dims: number[] } => ({
    name,
    elemType: OnnxDataType.FLOAT,
    dims: [1, CHAIN_ELEMENTS],
  });
  return encodeModel({ graph: { name: `chain${n}`, nodes, inputs: [info('X')], outputs: [info('Y')] } });
}

/** The fit of T(N) = runUs + nodeUs * N; null when the points do not determine a line. */
export function fitOverhead(
  points: readonly { nodes: number; medianUs: number }[],
  profilerNodeUs: number | null = null,
): RunOverhead | null {
  const fit = fitLine(
    points.map((p) => p.nodes),
    points.map((p) => p.medianUs),
  );
  if (!fit) return null;
  return { runUs: Math.max(0, fit.a), nodeUs: Math.max(0, fit.b), profilerNodeUs, points: [...points] };
}

/** A trace time with the profiler's own per-node cost taken off, never below a tenth of it. */
export function withoutProfilerCost(traceUs: number, nodes: number, profilerNodeUs: number | null): number {
  if (profilerNodeUs === null || nodes <= 0) return traceUs;
  return Math.max(traceUs - profilerNodeUs * nodes, traceUs * 0.1);
}
