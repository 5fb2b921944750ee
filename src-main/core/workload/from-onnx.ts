/**
 * An ONNX model as a Workload: parse, bind and infer shapes, cost every node, group the nodes
 * into layers. Pure: the caller reads the file (adapters/files/read-onnx.ts).
 */
import { elementBytes, parseOnnxModel, DataType, type OnnxModel } from '../onnx/onnx-parser.js';
import { groupLayers } from './layers.js';
import { nodeCost, toDtype, type NodeCost } from './node-cost.js';
import { product } from './shape-inference-context.js';
import { inferShapes, type TensorInfo } from './shape-inference.js';
import type { TensorShape, Workload, WorkloadNode } from './types.js';

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

export function importOnnxModel(model: OnnxModel, opts: OnnxImportOptions): OnnxImport {
  const g = model.graph;
  const shapes = inferShapes(model, {
    dims: opts.dims ?? {},
    inputs: opts.inputs ?? {},
    ...(opts.nchwcChannels ? { nchwcChannels: opts.nchwcChannels } : {}),
  });
  const tensors = shapes.tensors;
  const info = (name: string): TensorInfo | undefined => (name ? tensors.get(name) : undefined);
  const bytesOf = (name: string): number => {
    const t = info(name);
    return t?.dims ? Math.ceil(product(t.dims) * elementBytes(t.dtype)) : 0;
  };
  const shapeOf = (name: string): TensorShape => {
    const t = info(name);
    return { name, dims: t?.dims ? [...t.dims] : [], dtype: t ? toDtype(t.dtype) : 'other' };
  };

  // Parameters: weight elements, owned by the first node that does work with them (through
  // nodes folded at load time, such as a Cast or DequantizeLinear of a weight).
  const pending = new Map<string, number>();
  let paramBytes = 0;
  for (const t of g.initializers) {
    paramBytes += t.byteLength;
    if (isParamType(t.dataType)) pending.set(t.name, t.elements);
  }

  const used = new Set<string>();
  const costs: NodeCost[] = [];
  const nodes: WorkloadNode[] = g.nodes.map((node, i) => {
    const ins = node.inputs.map(info);
    const outs = node.outputs.map(info);
    const cost = nodeCost(node, model.opset, ins, outs);
    costs.push(cost);
    if (node.opType === 'Constant') {
      const v = node.attributes.get('value');
      if (v?.type === 'TENSOR') {
        paramBytes += v.value.byteLength;
        if (isParamType(v.value.dataType) && node.outputs[0]) pending.set(node.outputs[0], v.value.elements);
      }
    }
    let params = 0;
    for (const name of node.inputs) {
      const p = pending.get(name);
      if (p === undefined) continue;
      pending.delete(name);
      params += p;
    }
    const firstOut = node.outputs.find((o) => o);
    if (cost.kind === 'free' && params > 0 && firstOut) {
      pending.set(firstOut, (pending.get(firstOut) ?? 0) + params);
      params = 0;
    }
    let name = node.name || `${node.opType}_${i}`;
    if (used.has(name)) name = `${name}_${i}`;
    used.add(name);
    return {
      name,
      opType: node.opType,
      family: cost.family,
      kernel: cost.kernel,
      dtype: cost.dtype,
      inputs: node.inputs.filter((n) => n).map(shapeOf),
      outputs: node.outputs.filter((n) => n).map(shapeOf),
      flops: cost.flops,
      bytes: cost.bytes,
      params,
      activationBytes: cost.activationBytes,
    };
  });

  const constants = new Set<string>();
  for (const [name, t] of tensors) if (t.constant) constants.add(name);
  const initializerNames = new Set(g.initializers.map((t) => t.name));
  const layers = groupLayers(nodes, { constants, graphOutputs: g.outputs.map((o) => o.name), bytesOf });
  return {
    workload: {
      name: opts.name,
      source: 'onnx',
      bindings: shapes.bindings,
      inputs: g.inputs.filter((i) => !initializerNames.has(i.name)).map((i) => shapeOf(i.name)),
      nodes,
      layers,
      paramBytes,
      warnings: [
        ...shapes.warnings,
        ...fallbackWarnings(
          g.nodes.map((n) => n.opType),
          costs,
        ),
      ],
    },
    costs,
    model,
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
