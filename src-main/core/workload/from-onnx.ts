/**
 * An ONNX model as a Workload: parse, bind and infer shapes, cost every node, group the nodes
 * into layers. Pure: the caller reads the file (adapters/files/read-onnx.ts).
 */
import {
  elementBytes,
  parseOnnxModel,
  DataType,
  type OnnxModel,
  type OnnxNode,
  type OnnxTensor,
} from '../onnx/onnx-parser.js';
import { inlineBranches, unknownBranchNote } from './inline-branches.js';
import { groupLayers } from './layers.js';
import { nodeCost, toDtype, type NodeCost } from './node-cost.js';
import { product } from './shape-inference-context.js';
import { inferShapes, type InferredTensor } from './shape-inference.js';
import type { TensorShape, Workload, WorkloadNode } from './types.js';
import { UserError } from '../errors.js';

export interface OnnxImportOptions {
  /** Workload name. */
  name: string;
  /** Symbolic dims by name: {batch: 1}. */
  dims?: Record<string, number>;
  /** Whole input shapes: {x: [1, 3, 640, 640]}. */
  inputs?: Record<string, number[]>;
  /** For ORT's executed graphs: true channel counts of NCHWc conv outputs (executed-graph.ts nchwcChannelHints). */
  nchwcChannels?: Record<string, number>;
}

/** Per node, with the workload: how it is costed ('kernel', 'free' or 'fallback'). */
export interface OnnxImport {
  workload: Workload;
  costs: NodeCost[];
  model: OnnxModel;
}

export function workloadFromOnnx(bytes: Uint8Array, opts: OnnxImportOptions): Workload {
  return importOnnxModel(parseOnnxModel(bytes), opts).workload;
}

export function workloadFromModel(model: OnnxModel, opts: OnnxImportOptions): Workload {
  return importOnnxModel(model, opts).workload;
}

/** Weights count as parameters unless they are index or shape data (int64, bool). */
const isParamType = (dataType: number): boolean => dataType !== DataType.INT64 && dataType !== DataType.BOOL;

/**
 * `file` as costed: its If nodes replaced by the branch that runs (inline-branches.ts). Callers
 * that map node indices between graphs inline both first; inlining again changes nothing.
 */
export function importOnnxModel(file: OnnxModel, opts: OnnxImportOptions): OnnxImport {
  const bind = {
    dims: opts.dims ?? {},
    inputs: opts.inputs ?? {},
    ...(opts.nchwcChannels ? { nchwcChannels: opts.nchwcChannels } : {}),
  };
  const model = inlineBranches(file, bind);
  const g = model.graph;
  const shapes = inferShapes(model, bind);
  const tensors = new TensorLookup(shapes.tensors);
  const params = new ParamOwners(g.initializers);
  const used = new Set<string>();
  const costs: NodeCost[] = [];
  const nodes = g.nodes.map((node, i) => {
    const cost = nodeCost(node, model.opset, node.inputs.map(tensors.info), node.outputs.map(tensors.info));
    checkCountable(node, cost);
    costs.push(cost);
    return workloadNode(node, cost, params.claim(node, cost), uniqueName(node, i, used), tensors);
  });
  const constants = new Set<string>();
  for (const [name, t] of shapes.tensors) if (t.constant) constants.add(name);
  const initializerNames = new Set(g.initializers.map((t) => t.name));
  const layers = groupLayers(nodes, {
    constants,
    graphOutputs: g.outputs.map((o) => o.name),
    bytesOf: tensors.bytesOf,
  });
  const warnings = [
    ...g.nodes.map(unknownBranchNote).filter((m): m is string => m !== null),
    ...shapes.warnings,
    ...fallbackWarnings(
      g.nodes.map((n) => n.opType),
      costs,
    ),
  ];
  const workload: Workload = {
    name: opts.name,
    source: 'onnx',
    bindings: shapes.bindings,
    inputs: g.inputs.filter((i) => !initializerNames.has(i.name)).map((i) => tensors.shapeOf(i.name)),
    outputs: g.outputs.map((o) => tensors.shapeOf(o.name)),
    nodes,
    layers,
    paramBytes: params.bytes,
    ...(shapes.nchwcBlock !== null ? { nchwcBlock: shapes.nchwcBlock } : {}),
    warnings,
  };
  return { workload, costs, model };
}

/**
 * A node's FLOPs and bytes must be finite counts a double holds exactly: each dimension is
 * capped (ONNX_LIMITS.dim), but their products can still pass 2^53. One line otherwise.
 */
function checkCountable(node: OnnxNode, cost: NodeCost): void {
  const ok = (v: number): boolean => Number.isFinite(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER;
  if (ok(cost.flops) && ok(cost.bytes) && ok(cost.activationBytes)) return;
  throw new UserError(
    `node "${node.name || node.opType}" (${node.opType}) costs ${cost.flops} FLOPs and ${cost.bytes} bytes, past ${Number.MAX_SAFE_INTEGER} (2^53 - 1); the model's dimensions are too large to cost`,
  );
}

/** Inferred tensors by name, as the workload records them. */
class TensorLookup {
  constructor(private readonly tensors: Map<string, InferredTensor>) {}

  info = (name: string): InferredTensor | undefined => (name ? this.tensors.get(name) : undefined);

  bytesOf = (name: string): number => {
    const t = this.info(name);
    return t?.dims ? Math.ceil(product(t.dims) * elementBytes(t.dtype)) : 0;
  };

  shapeOf = (name: string): TensorShape => {
    const t = this.info(name);
    return { name, dims: t?.dims ? [...t.dims] : [], dtype: t ? toDtype(t.dtype) : 'other' };
  };
}

/**
 * Parameters: weight elements, owned by the first node that does work with them (through nodes
 * folded at load time, such as a Cast or DequantizeLinear of a weight). `bytes` counts every
 * initializer and Constant.
 */
class ParamOwners {
  bytes = 0;
  readonly #pending = new Map<string, number>();

  constructor(initializers: readonly OnnxTensor[]) {
    for (const t of initializers) {
      this.bytes += t.byteLength;
      if (isParamType(t.dataType)) this.#pending.set(t.name, t.elements);
    }
  }

  /** The parameters `node` owns; a free node passes what it takes on to its first output. */
  claim(node: OnnxNode, cost: NodeCost): number {
    if (node.opType === 'Constant') {
      const v = node.attributes.get('value');
      if (v?.type === 'TENSOR') {
        this.bytes += v.value.byteLength;
        if (isParamType(v.value.dataType) && node.outputs[0]) this.#pending.set(node.outputs[0], v.value.elements);
      }
    }
    let params = 0;
    for (const name of node.inputs) {
      const p = this.#pending.get(name);
      if (p === undefined) continue;
      this.#pending.delete(name);
      params += p;
    }
    const firstOut = node.outputs.find((o) => o);
    if (cost.kind === 'free' && params > 0 && firstOut) {
      this.#pending.set(firstOut, (this.#pending.get(firstOut) ?? 0) + params);
      return 0;
    }
    return params;
  }
}

function uniqueName(node: OnnxNode, i: number, used: Set<string>): string {
  let name = node.name || `${node.opType}_${i}`;
  if (used.has(name)) name = `${name}_${i}`;
  used.add(name);
  return name;
}

function workloadNode(node: OnnxNode, cost: NodeCost, params: number, name: string, t: TensorLookup): WorkloadNode {
  return {
    name,
    opType: node.opType,
    family: cost.family,
    kernel: cost.kernel,
    dtype: cost.dtype,
    inputs: node.inputs.filter((n) => n).map(t.shapeOf),
    outputs: node.outputs.filter((n) => n).map(t.shapeOf),
    flops: cost.flops,
    bytes: cost.bytes,
    params,
    activationBytes: cost.activationBytes,
    ...(node.branchOf ? { branchOf: node.branchOf } : {}),
  };
}

/** One line per reason a node was estimated without a kernel, naming its ops (with counts). */
function fallbackWarnings(opTypes: readonly string[], costs: readonly NodeCost[]): string[] {
  const byReason = new Map<string, Map<string, number>>();
  costs.forEach((c, i) => {
    if (c.kind !== 'fallback') return;
    const reason = c.reason ?? 'no kernel';
    const ops = byReason.get(reason) ?? new Map<string, number>();
    const op = opTypes[i] ?? '?';
    ops.set(op, (ops.get(op) ?? 0) + 1);
    byReason.set(reason, ops);
  });
  return [...byReason].map(([reason, ops]) => {
    const count = [...ops.values()].reduce((a, n) => a + n, 0);
    const list = [...ops].map(([op, n]) => (n > 1 ? `${op} x${n}` : op)).join(', ');
    return `${count} node${count > 1 ? 's' : ''} (${list}): ${reason}; estimated from bytes moved`;
  });
}
