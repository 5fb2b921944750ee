/**
 * GraphProto, NodeProto, AttributeProto and ValueInfoProto -> the IR of parse-types.ts.
 * Field numbers as in onnx.proto. Subgraphs (If/Loop bodies) are skipped, not parsed. Pure.
 */
import { ProtoReader, WIRE_FIXED32, WIRE_LEN, WIRE_VARINT } from './protobuf-reader.js';
import { parseTensor } from './parse-tensor.js';
import type { OnnxAttribute, OnnxDim, OnnxGraph, OnnxNode, OnnxTensor, OnnxValueInfo } from './parse-types.js';

/** GraphProto; nodes in file order (sorting is the caller's). */
export function parseGraph(r: ProtoReader): OnnxGraph {
  const g: OnnxGraph = { name: '', nodes: [], inputs: [], outputs: [], valueInfo: [], initializers: [] };
  for (let t = r.tag(); t; t = r.tag()) {
    switch (t.field) {
      case 1: // node
        r.expectWire(t.wire, WIRE_LEN);
        g.nodes.push(parseNode(r.message()));
        break;
      case 2: // name
        r.expectWire(t.wire, WIRE_LEN);
        g.name = r.string();
        break;
      case 5: // initializer
        r.expectWire(t.wire, WIRE_LEN);
        g.initializers.push(parseTensor(r.message()));
        break;
      case 15: // sparse_initializer
        r.expectWire(t.wire, WIRE_LEN);
        g.initializers.push(parseSparseTensor(r.message()));
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

function parseNode(r: ProtoReader): OnnxNode {
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
        const a = parseAttribute(r.message());
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

function parseAttribute(r: ProtoReader): { name: string; value: OnnxAttribute } {
  let name = '';
  let type = 0;
  let f: number | null = null;
  let i: number | null = null;
  let s: string | null = null;
  let tensor: OnnxTensor | null = null;
  let graphs = 0;
  let other = false;
  const floats: number[] = [];
  const ints: number[] = [];
  const strings: string[] = [];
  for (let t = r.tag(); t; t = r.tag()) {
    switch (t.field) {
      case 1:
        r.expectWire(t.wire, WIRE_LEN);
        name = r.string();
        break;
      case 20:
        r.expectWire(t.wire, WIRE_VARINT);
        type = r.int64();
        break;
      case 2:
        r.expectWire(t.wire, WIRE_FIXED32);
        f = r.float();
        break;
      case 3:
        r.expectWire(t.wire, WIRE_VARINT);
        i = r.int64();
        break;
      case 4:
        r.expectWire(t.wire, WIRE_LEN);
        s = r.string();
        break;
      case 5:
        r.expectWire(t.wire, WIRE_LEN);
        tensor = parseTensor(r.message());
        break;
      case 6: // g
      case 11: // graphs
        r.expectWire(t.wire, WIRE_LEN);
        r.skip(t.wire);
        graphs++;
        break;
      case 7:
        r.repeatedFloat(t.wire, floats);
        break;
      case 8:
        r.repeatedVarint(t.wire, ints);
        break;
      case 9:
        r.expectWire(t.wire, WIRE_LEN);
        strings.push(r.string());
        break;
      case 10: // tensors
      case 14: // tp
      case 15: // type_protos
      case 22: // sparse_tensor
      case 23: // sparse_tensors
        r.skip(t.wire);
        other = true;
        break;
      default:
        r.skip(t.wire);
    }
  }
  if (type === 0) {
    // IR < 3 files may lack the type: infer it from the field that is set.
    type =
      f !== null
        ? ATTR.FLOAT
        : i !== null
          ? ATTR.INT
          : s !== null
            ? ATTR.STRING
            : tensor
              ? ATTR.TENSOR
              : graphs
                ? ATTR.GRAPH
                : floats.length
                  ? ATTR.FLOATS
                  : ints.length
                    ? ATTR.INTS
                    : strings.length
                      ? ATTR.STRINGS
                      : 0;
  }
  return { name, value: attributeValue(type, { f, i, s, tensor, graphs, floats, ints, strings, other }) };
}

function attributeValue(
  type: number,
  v: {
    f: number | null;
    i: number | null;
    s: string | null;
    tensor: OnnxTensor | null;
    graphs: number;
    floats: number[];
    ints: number[];
    strings: string[];
    other: boolean;
  },
): OnnxAttribute {
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
      return { type: 'GRAPH', count: v.graphs };
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

export function parseValueInfo(r: ProtoReader): OnnxValueInfo {
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
      else if (u.field === 2 && u.wire === WIRE_LEN) v.dims = parseShape(tt.message());
      else tt.skip(u.wire);
    }
  }
}

function parseShape(r: ProtoReader): OnnxDim[] {
  const dims: OnnxDim[] = [];
  for (let t = r.tag(); t; t = r.tag()) {
    if (t.field !== 1 || t.wire !== WIRE_LEN) {
      r.skip(t.wire);
      continue;
    }
    const d = r.message();
    let dim: OnnxDim = null;
    for (let u = d.tag(); u; u = d.tag()) {
      if (u.field === 1 && u.wire === WIRE_VARINT) dim = d.int64();
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
