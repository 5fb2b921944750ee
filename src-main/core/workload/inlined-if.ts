/**
 * The marker inline-branches.ts leaves where an If was: it reads its condition, writes nothing
 * (its branch's nodes, inlined after it, write its outputs) and costs no work of its own. Its
 * own module, so that shape inference and node costs, which inlining itself uses, can ask. Pure.
 */
import type { OnnxNode } from '../onnx/onnx-parser.js';

/** True for an If left by inlineBranches (it has no branches and writes nothing). */
export function isInlinedIf(n: OnnxNode): boolean {
  return n.opType === 'If' && n.attributes.get('inlined')?.type === 'STRING';
}
