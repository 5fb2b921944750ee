/**
 * The cost of one ONNX node for the predictor: a kernel (family, op, named dims) with its
 * FLOPs and bytes (rules and conventions in node-cost-ops.ts), or "free" (shape-only ops and
 * nodes computing constants, which runtimes fold at load time), or a flagged fallback (no
 * family fits, or shapes unknown): its bytes moved, for an estimate at memory bandwidth. Nodes
 * of ONNX Runtime's optimized graphs (com.microsoft fusions, com.microsoft.nchwc) are costed
 * as the ops they run. Pure.
 */
import type { Dtype } from '../domain/measurement.js';
import type { KernelFamily, KernelOp } from '../kernels/types.js';
import { DataType, type OnnxNode } from '../onnx/onnx-parser.js';
import {
  COST_RULES,
  MS_COST_RULES,
  NCHWC_COST_RULES,
  tensorBytes,
  type CostRule,
  type KnownTensor,
} from './node-cost-ops.js';
import type { InferredTensor } from './shape-inference-context.js';
import { NCHWC_DOMAIN } from './shape-inference-nchwc.js';
import { isInlinedIf } from './inlined-if.js';

/** 'kernel': priced by the predictor; 'free': no work at run time; 'fallback': flagged estimate. */
export type CostKind = 'kernel' | 'free' | 'fallback';

export interface NodeCost {
  kind: CostKind;
  family: KernelFamily | null;
  kernel: { op: KernelOp; shape: Record<string, number> } | null;
  dtype: Dtype;
  /** Forward FLOPs. */
  flops: number;
  /** Inputs (weights included) + outputs, once; a fallback node always gets at least 1. */
  bytes: number;
  /** Output bytes. */
  activationBytes: number;
  /** Why a fallback node has no kernel; null otherwise. */
  reason: string | null;
}

/** Ops that only relabel data or shapes: no work at run time (inference), never flagged. */
export const FREE_OPS = new Set([
  'Reshape',
  'Flatten',
  'Squeeze',
  'Unsqueeze',
  'Identity',
  'Shape',
  'Size',
  'Constant',
  'Dropout',
]);

/** ONNX element type -> the predictor's dtype ('other' for double, bool, strings...). */
export function toDtype(dataType: number): Dtype | 'other' {
  switch (dataType) {
    case DataType.FLOAT:
      return 'fp32';
    case DataType.FLOAT16:
      return 'fp16';
    case DataType.BFLOAT16:
      return 'bf16';
    case DataType.INT8:
    case DataType.UINT8:
      return 'int8';
    case DataType.INT32:
    case DataType.UINT32:
      return 'int32';
    case DataType.INT64:
    case DataType.UINT64:
      return 'int64';
    default:
      return 'other';
  }
}

/** The dtype a node computes in: its first input's (or output's) with a predictor dtype; fp32 otherwise. */
function nodeDtype(
  inputs: readonly (InferredTensor | undefined)[],
  outputs: readonly (InferredTensor | undefined)[],
): Dtype {
  for (const t of [...inputs, ...outputs]) {
    const d = t ? toDtype(t.dtype) : 'other';
    if (d !== 'other') return d;
  }
  return 'fp32';
}

function costRule(node: OnnxNode): CostRule | undefined {
  if (node.domain === '') return COST_RULES[node.opType];
  if (node.domain === 'com.microsoft') return MS_COST_RULES[node.opType] ?? COST_RULES[node.opType];
  if (node.domain === NCHWC_DOMAIN) return NCHWC_COST_RULES[node.opType];
  return undefined;
}

const known = (t: InferredTensor | undefined): t is KnownTensor => t !== undefined && t.dims !== null;

export function nodeCost(
  node: OnnxNode,
  opset: number,
  inputs: readonly (InferredTensor | undefined)[],
  outputs: readonly (InferredTensor | undefined)[],
): NodeCost {
  const dtype = nodeDtype(inputs, outputs);
  const sum = (ts: readonly (InferredTensor | undefined)[]): number =>
    ts.reduce((a, t) => a + (known(t) ? tensorBytes(t) : 0), 0);
  const activationBytes = sum(outputs);
  const base = { family: null, kernel: null, dtype, flops: 0, reason: null };
  const givenOutputs = outputs.filter((t, i) => t !== undefined && node.outputs[i]);
  const folded = givenOutputs.length > 0 && givenOutputs.every((t) => t?.constant === true);
  if (FREE_OPS.has(node.opType) || folded || isInlinedIf(node))
    return { ...base, kind: 'free', bytes: 0, activationBytes };

  const fallback = (reason: string): NodeCost => ({
    ...base,
    kind: 'fallback',
    bytes: Math.max(1, sum(inputs) + activationBytes),
    activationBytes,
    reason,
  });
  const givenInputs = inputs.filter((_, i) => node.inputs[i]);
  if (![...givenInputs, ...givenOutputs].every(known)) return fallback('shapes unknown');
  const rule = costRule(node);
  if (!rule) return fallback('no predictor family');
  const knownIn = inputs.map((t, i) => (node.inputs[i] && known(t) ? t : undefined));
  const knownOut = outputs.map((t, i) => (node.outputs[i] && known(t) ? t : undefined));
  const c = rule({ node, opset, inputs: knownIn, outputs: knownOut });
  const dims = Object.values(c.kernel.shape);
  if (dims.some((d) => d === 0) || givenOutputs.some((t) => t?.dims?.includes(0))) {
    return { ...base, kind: 'free', bytes: 0, activationBytes }; // empty tensors: nothing to do
  }
  if (!dims.every((d) => Number.isSafeInteger(d) && d > 0)) {
    return fallback(`no kernel fits its shapes (${JSON.stringify(c.kernel.shape)})`);
  }
  return {
    kind: 'kernel',
    family: c.family,
    kernel: c.kernel,
    dtype,
    flops: c.flops,
    bytes: c.bytes ?? sum(inputs) + activationBytes,
    activationBytes,
    reason: null,
  };
}
