/**
 * Cuts an ONNX model into pieces that run on their own: the subgraph between a set of input
 * tensors and a set of output tensors (what `onnx.utils.extract_model` does), and a two-stage
 * split at a cut for pipeline runs. Pure.
 *
 * Works on the wire format: the nodes, initializers and value_info entries that are kept are
 * copied byte for byte (weights, Constant nodes and attributes are never decoded), the other
 * ModelProto fields (IR version, opsets, metadata) are copied as they are, and only the graph's
 * input and output lists are written anew. A tensor named as an input is fed even where the
 * model computes it (that is the cut). Nodes with subgraphs (If, Loop, Scan) are refused when
 * kept: their bodies may read outer tensors that this extractor does not follow.
 */
import { UserError } from '../../src-main/core/errors.js';
import { valueInfoMessage, type ValueInfoDef } from '../../src-main/core/onnx/model-builder.js';
import { ProtoReader, WIRE_LEN } from '../../src-main/core/onnx/protobuf-reader.js';
import { ProtoWriter } from '../../src-main/core/onnx/protobuf-writer.js';

export interface ExtractOptions {
  /** Tensors fed to the submodel: graph inputs or intermediate tensors (a cut). */
  inputs: readonly string[];
  /** Tensors the submodel computes and returns. */
  outputs: readonly string[];
  /** Types of inputs and outputs the file has no value_info for (intermediate tensors usually). */
  valueInfo?: readonly ValueInfoDef[];
  /** Default: the original graph's name. */
  graphName?: string;
}

export interface ExtractedModel {
  bytes: Uint8Array;
  /** The inputs the submodel reads (those of `inputs` that it needs, in that order). */
  inputs: string[];
  outputs: string[];
  /** Nodes kept, of the original graph's. */
  nodes: number;
  totalNodes: number;
}

interface RawNode {
  raw: Uint8Array;
  name: string;
  opType: string;
  inputs: string[];
  outputs: string[];
  hasSubgraph: boolean;
}

interface RawNamed {
  raw: Uint8Array;
  name: string;
}

interface RawGraph {
  name: string;
  nodes: RawNode[];
  initializers: RawNamed[];
  inputs: RawNamed[];
  outputs: RawNamed[];
  valueInfo: RawNamed[];
}

interface RawModel {
  /** Every ModelProto field but the graph, as encoded (tag included). */
  otherFields: Uint8Array[];
  graph: RawGraph;
}

/** Reads fields of a message window, giving each field's whole encoding (tag included). */
function eachField(r: ProtoReader, f: (field: number, wire: number, raw: () => Uint8Array) => void): void {
  for (;;) {
    const start = r.pos;
    const t = r.tag();
    if (!t) return;
    const valueAt = r.pos;
    let end = -1;
    f(t.field, t.wire, () => {
      if (end < 0) {
        r.pos = valueAt;
        r.skip(t.wire);
        end = r.pos;
      }
      return r.buf.subarray(start, end);
    });
    if (end < 0) {
      r.pos = valueAt;
      r.skip(t.wire);
    } else r.pos = end;
  }
}

/** A length-delimited field's window (the reader is past the tag). */
function subReader(r: ProtoReader): ProtoReader {
  return r.message();
}

function stringField(msg: ProtoReader, field: number): string {
  let out = '';
  eachField(msg, (f, wire) => {
    if (f === field && wire === WIRE_LEN) out = msg.string();
  });
  return out;
}

function readNode(raw: Uint8Array, body: ProtoReader): RawNode {
  const n: RawNode = { raw, name: '', opType: '', inputs: [], outputs: [], hasSubgraph: false };
  eachField(body, (f, wire) => {
    if (wire !== WIRE_LEN) return;
    if (f === 1) n.inputs.push(body.string());
    else if (f === 2) n.outputs.push(body.string());
    else if (f === 3) n.name = body.string();
    else if (f === 4) n.opType = body.string();
    else if (f === 5) {
      const a = subReader(body);
      // AttributeProto: g = 6, graphs = 11.
      eachField(a, (af) => {
        if (af === 6 || af === 11) n.hasSubgraph = true;
      });
    }
  });
  return n;
}

function readGraph(r: ProtoReader): RawGraph {
  const g: RawGraph = { name: '', nodes: [], initializers: [], inputs: [], outputs: [], valueInfo: [] };
  eachField(r, (field, wire, raw) => {
    if (wire !== WIRE_LEN) return;
    switch (field) {
      case 1: {
        const bytes = raw();
        const body = new ProtoReader(bytes);
        body.tag();
        g.nodes.push(readNode(bytes, subReader(body)));
        break;
      }
      case 2:
        g.name = r.string();
        break;
      case 5: {
        // TensorProto: name = 8.
        const bytes = raw();
        const body = new ProtoReader(bytes);
        body.tag();
        g.initializers.push({ raw: bytes, name: stringField(subReader(body), 8) });
        break;
      }
      case 15: {
        // SparseTensorProto: values = 1 (a TensorProto named as the sparse tensor).
        const bytes = raw();
        const body = new ProtoReader(bytes);
        body.tag();
        const sparse = subReader(body);
        let name = '';
        eachField(sparse, (f, w) => {
          if (f === 1 && w === WIRE_LEN) name = stringField(subReader(sparse), 8);
        });
        g.initializers.push({ raw: bytes, name });
        break;
      }
      case 11:
      case 12:
      case 13: {
        const bytes = raw();
        const body = new ProtoReader(bytes);
        body.tag();
        const entry = { raw: bytes, name: stringField(subReader(body), 1) };
        (field === 11 ? g.inputs : field === 12 ? g.outputs : g.valueInfo).push(entry);
        break;
      }
      default:
        break;
    }
  });
  return g;
}

function readModel(bytes: Uint8Array): RawModel {
  const r = new ProtoReader(bytes);
  const otherFields: Uint8Array[] = [];
  let graph: RawGraph | null = null;
  try {
    eachField(r, (field, wire, raw) => {
      if (field === 7 && wire === WIRE_LEN) graph = readGraph(subReader(r));
      else otherFields.push(raw());
    });
  } catch (e) {
    if (e instanceof RangeError) throw new UserError(`not a readable ONNX model: ${e.message}`);
    throw e;
  }
  if (!graph) throw new UserError('not an ONNX model: it has no graph');
  return { otherFields, graph };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The submodel computing `outputs` from `inputs` (and the weights); see the file comment. */
export function extractSubmodel(bytes: Uint8Array, opts: ExtractOptions): ExtractedModel {
  const model = readModel(bytes);
  const g = model.graph;
  if (opts.outputs.length === 0) throw new UserError('extract: name at least one output');
  const fed = new Set(opts.inputs);
  const initializers = new Map(g.initializers.map((t) => [t.name, t]));
  const producer = new Map<string, number>();
  g.nodes.forEach((n, i) => {
    for (const o of n.outputs) if (o) producer.set(o, i);
  });
  const keepNode = new Set<number>();
  const usedInputs = new Set<string>();
  const usedInits = new Set<string>();
  const seen = new Set<string>();
  const stack = [...opts.outputs];
  while (stack.length > 0) {
    const t = stack.pop() as string;
    if (seen.has(t)) continue;
    seen.add(t);
    if (fed.has(t)) {
      usedInputs.add(t);
      continue;
    }
    if (initializers.has(t)) {
      usedInits.add(t);
      continue;
    }
    const p = producer.get(t);
    if (p === undefined) {
      throw new UserError(
        `extract: tensor "${t}" is needed but is neither computed by the model, a weight, nor one of the inputs given (${opts.inputs.join(', ') || 'none'})`,
      );
    }
    if (keepNode.has(p)) continue;
    const node = g.nodes[p] as RawNode;
    if (node.hasSubgraph) {
      throw new UserError(
        `extract: node ${node.name || node.opType} (${node.opType}) has a subgraph; submodels with If/Loop/Scan nodes are not supported`,
      );
    }
    keepNode.add(p);
    for (const i of node.inputs) if (i) stack.push(i);
  }
  const given = new Map((opts.valueInfo ?? []).map((v) => [v.name, v]));
  const declared = new Map<string, Uint8Array>();
  for (const list of [g.valueInfo, g.outputs, g.inputs]) for (const v of list) declared.set(v.name, v.raw);
  /** A graph input (field 11) or output (12) entry for tensor `name`. */
  const entry = (field: 11 | 12, name: string): Uint8Array => {
    const def = given.get(name);
    if (def) return new ProtoWriter().message(field, valueInfoMessage(def)).finish();
    const raw = declared.get(name);
    if (!raw) {
      throw new UserError(`extract: the model declares no type for "${name}"; give it in valueInfo`);
    }
    // Re-tag the stored ValueInfoProto as the wanted field.
    const r = new ProtoReader(raw);
    r.tag();
    return new ProtoWriter().bytes(field, r.bytes()).finish();
  };
  const inputs = opts.inputs.filter((n) => usedInputs.has(n));
  const produced = new Set<string>();
  for (const i of keepNode) for (const o of (g.nodes[i] as RawNode).outputs) if (o) produced.add(o);
  const boundary = new Set([...inputs, ...opts.outputs]);
  const parts: Uint8Array[] = [];
  g.nodes.forEach((n, i) => {
    if (keepNode.has(i)) parts.push(n.raw);
  });
  parts.push(new ProtoWriter().string(2, opts.graphName ?? g.name).finish());
  for (const t of g.initializers) if (usedInits.has(t.name)) parts.push(t.raw);
  for (const name of inputs) parts.push(entry(11, name));
  // IR 3 lists weights among the graph inputs too.
  for (const v of g.inputs) if (usedInits.has(v.name)) parts.push(v.raw);
  for (const name of opts.outputs) parts.push(entry(12, name));
  for (const v of g.valueInfo) if (produced.has(v.name) && !boundary.has(v.name)) parts.push(v.raw);
  const graph = concat(parts);
  const out = concat([...model.otherFields, new ProtoWriter().bytes(7, graph).finish()]);
  return { bytes: out, inputs, outputs: [...opts.outputs], nodes: keepNode.size, totalNodes: g.nodes.length };
}

export interface ModelSplit {
  first: ExtractedModel;
  second: ExtractedModel;
}

/** Names of the graph's inputs that are not weights, and of its outputs. */
export function graphInterface(bytes: Uint8Array): { inputs: string[]; outputs: string[] } {
  const g = readModel(bytes).graph;
  const inits = new Set(g.initializers.map((t) => t.name));
  return { inputs: g.inputs.map((v) => v.name).filter((n) => !inits.has(n)), outputs: g.outputs.map((v) => v.name) };
}

/**
 * Two stages at a cut: the first computes the `cut` tensors from the graph inputs, the second
 * the graph outputs from the cut tensors alone (a graph input the second stage reads must be in
 * the cut). `valueInfo` types the cut tensors when the file does not.
 */
export function splitModel(bytes: Uint8Array, cut: readonly string[], valueInfo?: readonly ValueInfoDef[]): ModelSplit {
  if (cut.length === 0) throw new UserError('split: the cut names no tensor');
  const io = graphInterface(bytes);
  const passThrough = cut.filter((t) => io.inputs.includes(t));
  if (passThrough.length > 0) {
    throw new UserError(
      `split: graph input(s) ${passThrough.join(', ')} cross the cut; stage 1 would only pass them on`,
    );
  }
  const vi = valueInfo ? { valueInfo } : {};
  const first = extractSubmodel(bytes, { inputs: io.inputs, outputs: cut, ...vi });
  const second = extractSubmodel(bytes, { inputs: cut, outputs: io.outputs, ...vi });
  return { first, second };
}
