/**
 * GraphProto, NodeProto, AttributeProto and ValueInfoProto -> the IR of parse-types.ts.
 * Field numbers as in onnx.proto. Subgraphs (If branches, Loop and Scan bodies) are parsed into
 * their attributes. Pure.
 */
import { ProtoReader, WIRE_FIXED32, WIRE_LEN, WIRE_VARINT } from './protobuf-reader.js';
import { parseTensor } from './parse-tensor.js';
import type { OnnxAttribute, OnnxDim, OnnxGraph, OnnxNode, OnnxTensor, OnnxValueInfo } from './parse-types.js';
import { UserError } from '../errors.js';
import { ONNX_LIMITS } from '../workload/limits.js';

/**
 * What one model's parse has used so far, against ONNX_LIMITS: nodes, initializers and value
 * infos over all its graphs, and how deep the graph being read lies in subgraphs.
 */
interface Budget {
  depth: number;
  /** Shared by every graph of the model. */
  used: { nodes: number; initializers: number; valueInfos: number };
}

const n = (value: number): string => value.toLocaleString('en-US');

/**
 * Counts a graph's nodes, initializers and value infos from its tags alone (each field skipped,
 * nothing built) and adds them to the budget; one line when a cap is passed.
 */
function spend(r: ProtoReader, budget: Budget): void {
  const scan = new ProtoReader(r.buf, r.pos, r.end);
  const used = budget.used;
  for (let t = scan.tag(); t; t = scan.tag()) {
    if (t.field === 1) used.nodes++;
    else if (t.field === 5 || t.field === 15) used.initializers++;
    else if (t.field === 11 || t.field === 12 || t.field === 13) used.valueInfos++;
    scan.skip(t.wire);
  }
  const over = (what: string, used: number, cap: number): void => {
    if (used > cap) {
      throw new UserError(`the graph has more than ${n(cap)} ${what} (counting subgraphs), over the cap of ${n(cap)}`);
    }
  };
  over('nodes', used.nodes, ONNX_LIMITS.nodes);
  over('initializers', used.initializers, ONNX_LIMITS.initializers);
  over('inputs, outputs and value infos', used.valueInfos, ONNX_LIMITS.valueInfos);
}

/** A dimension within ONNX_LIMITS.dim; one line naming the tensor otherwise. */
function checkedDim(tensor: string, dim: bigint): number {
  if (dim > BigInt(ONNX_LIMITS.dim)) {
    throw new UserError(
      `tensor "${tensor}" has a dimension of ${dim}, over the cap of ${ONNX_LIMITS.dim} (2^${Math.log2(ONNX_LIMITS.dim)})`,
    );
  }
  return Number(dim);
}

/**
 * GraphProto; nodes in file order (sorting is the caller's). Subgraphs nest at most
 * ONNX_LIMITS.subgraphDepth deep, so the recursion through attributes stays shallow.
 */
export function parseGraph(
  r: ProtoReader,
  budget: Budget = { depth: 0, used: { nodes: 0, initializers: 0, valueInfos: 0 } },
): OnnxGraph {
  if (budget.depth > ONNX_LIMITS.subgraphDepth) {
    throw new UserError(`subgraphs nest deeper than ${ONNX_LIMITS.subgraphDepth} levels`);
  }
  spend(r, budget);
  const g: OnnxGraph = { name: '', nodes: [], inputs: [], outputs: [], valueInfo: [], initializers: [] };
  for (let t = r.tag(); t; t = r.tag()) {
    switch (t.field) {
      case 1: // node
        r.expectWire(t.wire, WIRE_LEN);
        g.nodes.push(parseNode(r.message(), budget));
        break;
      case 2: // name
        r.expectWire(t.wire, WIRE_LEN);
        g.name = r.string();
        break;
      case 5: // initializer
        r.expectWire(t.wire, WIRE_LEN);
        g.initializers.push(checkedTensor(parseTensor(r.message())));
        break;
      case 15: // sparse_initializer
        r.expectWire(t.wire, WIRE_LEN);
        g.initializers.push(checkedTensor(parseSparseTensor(r.message())));
        break;
      case 11: // input
      case 12: // output
      case 13: {
        // value_info
        r.expectWire(t.wire, WIRE_LEN);
        const v = parseValueInfo(r.message());
        (t.field === 11 ? g.inputs : t.field === 12 ? g.outputs : g.valueInfo).push(v);
        break;
      }
      default:
        r.skip(t.wire);
    }
  }
  return g;
}

/** A weight or constant whose dims are each within ONNX_LIMITS.dim and whose elements are within ONNX_LIMITS.tensorElements. */
function checkedTensor(t: OnnxTensor): OnnxTensor {
  for (const d of t.dims) checkedDim(t.name, BigInt(d));
  const cap = ONNX_LIMITS.tensorElements;
  if (t.elements > cap) {
    throw new UserError(
      `tensor "${t.name}" holds ${t.elements} elements (${t.dims.join(' x ')}), over the cap of ${cap} (2^${Math.log2(cap)})`,
    );
  }
  return t;
}

function parseNode(r: ProtoReader, budget: Budget): OnnxNode {
  const n: OnnxNode = { opType: '', domain: '', name: '', inputs: [], outputs: [], attributes: new Map() };
  for (let t = r.tag(); t; t = r.tag()) {
    switch (t.field) {
      case 1:
        r.expectWire(t.wire, WIRE_LEN);
        n.inputs.push(r.string());
        break;
      case 2:
        r.expectWire(t.wire, WIRE_LEN);
        n.outputs.push(r.string());
        break;
      case 3:
        r.expectWire(t.wire, WIRE_LEN);
        n.name = r.string();
        break;
      case 4:
        r.expectWire(t.wire, WIRE_LEN);
        n.opType = r.string();
        break;
      case 5: {
        r.expectWire(t.wire, WIRE_LEN);
        const a = parseAttribute(r.message(), budget);
        n.attributes.set(a.name, a.value);
        break;
      }
      case 7:
        r.expectWire(t.wire, WIRE_LEN);
        n.domain = normalizeDomain(r.string());
        break;
      default:
        r.skip(t.wire);
    }
  }
  return n;
}

/** 'ai.onnx' and '' both name the default domain; stored as ''. */
export function normalizeDomain(domain: string): string {
  return domain === 'ai.onnx' ? '' : domain;
}

/** AttributeProto.AttributeType codes. */
const ATTR = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, GRAPH: 5, FLOATS: 6, INTS: 7, STRINGS: 8, GRAPHS: 10 };

/** An AttributeProto's fields as read, before its type decides which one is the value. */
interface RawAttribute {
  name: string;
  type: number;
  f: number | null;
  i: number | null;
  s: string | null;
  tensor: OnnxTensor | null;
  graphs: OnnxGraph[];
  floats: number[];
  ints: number[];
  strings: string[];
  other: boolean;
  /** The parse's budget; a subgraph of this attribute lies one level deeper. */
  budget: Budget;
}

type FieldReader = (r: ProtoReader, wire: number, a: RawAttribute) => void;

const skipOther: FieldReader = (r, wire, a) => {
  r.skip(wire);
  a.other = true;
};

const readGraph: FieldReader = (r, wire, a) => {
  r.expectWire(wire, WIRE_LEN);
  a.graphs.push(parseGraph(r.message(), { ...a.budget, depth: a.budget.depth + 1 }));
};

/** AttributeProto fields by number; tensors, type protos and sparse tensors are skipped but noted. */
const ATTRIBUTE_FIELDS: Record<number, FieldReader> = {
  1: (r, wire, a) => {
    r.expectWire(wire, WIRE_LEN);
    a.name = r.string();
  },
  20: (r, wire, a) => {
    r.expectWire(wire, WIRE_VARINT);
    a.type = r.int64();
  },
  2: (r, wire, a) => {
    r.expectWire(wire, WIRE_FIXED32);
    a.f = r.float();
  },
  3: (r, wire, a) => {
    r.expectWire(wire, WIRE_VARINT);
    a.i = r.int64();
  },
  4: (r, wire, a) => {
    r.expectWire(wire, WIRE_LEN);
    a.s = r.string();
  },
  5: (r, wire, a) => {
    r.expectWire(wire, WIRE_LEN);
    a.tensor = checkedTensor(parseTensor(r.message()));
  },
  6: readGraph, // g
  11: readGraph, // graphs
  7: (r, wire, a) => r.repeatedFloat(wire, a.floats),
  8: (r, wire, a) => r.repeatedVarint(wire, a.ints),
  9: (r, wire, a) => {
    r.expectWire(wire, WIRE_LEN);
    a.strings.push(r.string());
  },
  10: skipOther, // tensors
  14: skipOther, // tp
  15: skipOther, // type_protos
  22: skipOther, // sparse_tensor
  23: skipOther, // sparse_tensors
};

function parseAttribute(r: ProtoReader, budget: Budget): { name: string; value: OnnxAttribute } {
  const a: RawAttribute = {
    name: '',
    type: 0,
    f: null,
    i: null,
    s: null,
    tensor: null,
    graphs: [],
    floats: [],
    ints: [],
    strings: [],
    other: false,
    budget,
  };
  for (let t = r.tag(); t; t = r.tag()) {
    const read = ATTRIBUTE_FIELDS[t.field];
    if (read) read(r, t.wire, a);
    else r.skip(t.wire);
  }
  // IR < 3 files may lack the type: infer it from the field that is set.
  return { name: a.name, value: attributeValue(a.type === 0 ? inferredType(a) : a.type, a) };
}

function inferredType(a: RawAttribute): number {
  if (a.f !== null) return ATTR.FLOAT;
  if (a.i !== null) return ATTR.INT;
  if (a.s !== null) return ATTR.STRING;
  if (a.tensor) return ATTR.TENSOR;
  if (a.graphs.length) return ATTR.GRAPH;
  if (a.floats.length) return ATTR.FLOATS;
  if (a.ints.length) return ATTR.INTS;
  if (a.strings.length) return ATTR.STRINGS;
  return 0;
}

function attributeValue(type: number, v: RawAttribute): OnnxAttribute {
  switch (type) {
    case ATTR.FLOAT:
      return { type: 'FLOAT', value: v.f ?? 0 };
    case ATTR.INT:
      return { type: 'INT', value: v.i ?? 0 };
    case ATTR.STRING:
      return { type: 'STRING', value: v.s ?? '' };
    case ATTR.TENSOR:
      return v.tensor ? { type: 'TENSOR', value: v.tensor } : { type: 'OTHER', code: type };
    case ATTR.GRAPH:
    case ATTR.GRAPHS:
      return { type: 'GRAPH', graphs: v.graphs };
    case ATTR.FLOATS:
      return { type: 'FLOATS', value: v.floats };
    case ATTR.INTS:
      return { type: 'INTS', value: v.ints };
    case ATTR.STRINGS:
      return { type: 'STRINGS', value: v.strings };
    default:
      return { type: 'OTHER', code: type };
  }
}

function parseValueInfo(r: ProtoReader): OnnxValueInfo {
  const v: OnnxValueInfo = { name: '', elemType: 0, dims: null, isTensor: false };
  for (let t = r.tag(); t; t = r.tag()) {
    if (t.field === 1 && t.wire === WIRE_LEN) v.name = r.string();
    else if (t.field === 2 && t.wire === WIRE_LEN) parseType(r.message(), v);
    else r.skip(t.wire);
  }
  return v;
}

/** TypeProto: only tensor_type (1) is read; other kinds leave isTensor false. */
function parseType(r: ProtoReader, v: OnnxValueInfo): void {
  for (let t = r.tag(); t; t = r.tag()) {
    if (t.field !== 1 || t.wire !== WIRE_LEN) {
      r.skip(t.wire);
      continue;
    }
    v.isTensor = true;
    const tt = r.message();
    for (let u = tt.tag(); u; u = tt.tag()) {
      if (u.field === 1 && u.wire === WIRE_VARINT) v.elemType = tt.int64();
      else if (u.field === 2 && u.wire === WIRE_LEN) v.dims = parseShape(tt.message(), v.name);
      else tt.skip(u.wire);
    }
  }
}

function parseShape(r: ProtoReader, name: string): OnnxDim[] {
  const dims: OnnxDim[] = [];
  for (let t = r.tag(); t; t = r.tag()) {
    if (t.field !== 1 || t.wire !== WIRE_LEN) {
      r.skip(t.wire);
      continue;
    }
    const d = r.message();
    let dim: OnnxDim = null;
    for (let u = d.tag(); u; u = d.tag()) {
      if (u.field === 1 && u.wire === WIRE_VARINT) dim = checkedDim(name, d.int64Big());
      else if (u.field === 2 && u.wire === WIRE_LEN) dim = d.string() || null;
      else d.skip(u.wire);
    }
    dims.push(dim);
  }
  return dims;
}

/** SparseTensorProto {values = 1, indices = 2, dims = 3}: sizes only. */
function parseSparseTensor(r: ProtoReader): OnnxTensor {
  let values: OnnxTensor | null = null;
  let indexBytes = 0;
  const dims: number[] = [];
  for (let t = r.tag(); t; t = r.tag()) {
    if (t.field === 1 && t.wire === WIRE_LEN) values = parseTensor(r.message());
    else if (t.field === 2 && t.wire === WIRE_LEN) indexBytes = parseTensor(r.message()).byteLength;
    else if (t.field === 3) r.repeatedVarint(t.wire, dims);
    else r.skip(t.wire);
  }
  return {
    name: values?.name ?? '',
    dataType: values?.dataType ?? 0,
    dims,
    elements: dims.reduce((a, d) => a * d, 1),
    byteLength: (values?.byteLength ?? 0) + indexBytes,
    values: null,
    external: values?.external ?? null,
  };
}
