/**
 * Encodes an ONNX ModelProto from plain objects. Pure.
 *
 * Field numbers follow onnx.proto (ONNX 1.12, IR version 8) exactly; the unit tests check the
 * output with the official ONNX checker and by loading it in ONNX Runtime.
 */
import { TOOL_VERSION } from '../version.js';
import { DataType } from './data-type.js';
import { ProtoWriter } from './protobuf-writer.js';

/** TensorProto.DataType (the same codes the parser reads). */
export const OnnxDataType = DataType;
export type OnnxDataTypeCode = (typeof OnnxDataType)[keyof typeof OnnxDataType];

/** AttributeProto.AttributeType (the subset this builder writes). */
const OnnxAttributeType = {
  FLOAT: 1,
  INT: 2,
  STRING: 3,
  TENSOR: 4,
  GRAPH: 5,
  FLOATS: 6,
  INTS: 7,
  STRINGS: 8,
} as const;

/** IR version 8 (ONNX 1.10 to 1.12) with default-domain opset 17 (LayerNormalization needs 17). */
const DEFAULT_IR_VERSION = 8;
const DEFAULT_OPSET = 17;
/** The ai.onnx.ml opset that ships with ONNX 1.12, the release that introduced opset 17. */
const DEFAULT_ML_OPSET = 3;

export interface TensorDef {
  name: string;
  dataType: OnnxDataTypeCode;
  dims: readonly number[];
  /** Little-endian element bytes (preferred). */
  rawData?: Uint8Array;
  /** FLOAT values as float_data, instead of rawData (FLOAT tensors only). */
  floatData?: readonly number[];
}

export type AttributeDef =
  | { name: string; type: 'INT'; value: number }
  | { name: string; type: 'INTS'; value: readonly number[] }
  | { name: string; type: 'FLOAT'; value: number }
  | { name: string; type: 'FLOATS'; value: readonly number[] }
  | { name: string; type: 'STRING'; value: string }
  | { name: string; type: 'STRINGS'; value: readonly string[] }
  | { name: string; type: 'TENSOR'; value: TensorDef }
  /** A subgraph: an If's then_branch or else_branch, a Loop's body. */
  | { name: string; type: 'GRAPH'; value: GraphDef };

export interface NodeDef {
  opType: string;
  inputs: readonly string[];
  outputs: readonly string[];
  name?: string;
  /** '' (default) is the ai.onnx domain. */
  domain?: string;
  attributes?: readonly AttributeDef[];
}

/** A tensor-typed graph input, output or intermediate; a string dim is a symbolic dim_param. */
export interface ValueInfoDef {
  name: string;
  elemType: OnnxDataTypeCode;
  dims: readonly (number | string)[];
}

export interface GraphDef {
  name: string;
  nodes: readonly NodeDef[];
  inputs: readonly ValueInfoDef[];
  outputs: readonly ValueInfoDef[];
  initializers?: readonly TensorDef[];
  valueInfo?: readonly ValueInfoDef[];
}

export interface OpsetId {
  domain: string;
  version: number;
}

export interface ModelDef {
  graph: GraphDef;
  /** Default DEFAULT_IR_VERSION. */
  irVersion?: number;
  /** Default [{domain: '', version: DEFAULT_OPSET}]. */
  opsetImports?: readonly OpsetId[];
  /** Adds {domain: 'ai.onnx.ml', version: DEFAULT_ML_OPSET} when no ml opset is listed. */
  includeMlOpset?: boolean;
  /** Default 'pipedejavu'. */
  producerName?: string;
  /** Default the tool's version. */
  producerVersion?: string;
  /** ModelProto.doc_string. */
  docString?: string;
  /** ModelProto.metadata_props, in insertion order. */
  metadataProps?: Readonly<Record<string, string>>;
}

export const attr = {
  int: (name: string, value: number): AttributeDef => ({ name, type: 'INT', value }),
  ints: (name: string, value: readonly number[]): AttributeDef => ({ name, type: 'INTS', value }),
  float: (name: string, value: number): AttributeDef => ({ name, type: 'FLOAT', value }),
  floats: (name: string, value: readonly number[]): AttributeDef => ({ name, type: 'FLOATS', value }),
  string: (name: string, value: string): AttributeDef => ({ name, type: 'STRING', value }),
  strings: (name: string, value: readonly string[]): AttributeDef => ({ name, type: 'STRINGS', value }),
  tensor: (name: string, value: TensorDef): AttributeDef => ({ name, type: 'TENSOR', value }),
  graph: (name: string, value: GraphDef): AttributeDef => ({ name, type: 'GRAPH', value }),
};

/** Encodes a complete model. Weight bytes (rawData) are copied exactly once. */
export function encodeModel(model: ModelDef): Uint8Array {
  const opsets: OpsetId[] = [...(model.opsetImports ?? [{ domain: '', version: DEFAULT_OPSET }])];
  if (model.includeMlOpset && !opsets.some((o) => o.domain === 'ai.onnx.ml')) {
    opsets.push({ domain: 'ai.onnx.ml', version: DEFAULT_ML_OPSET });
  }
  const w = new ProtoWriter();
  w.varint(1, model.irVersion ?? DEFAULT_IR_VERSION); // ir_version
  w.string(2, model.producerName ?? 'pipedejavu'); // producer_name
  w.string(3, model.producerVersion ?? TOOL_VERSION); // producer_version
  if (model.docString !== undefined) w.string(6, model.docString); // doc_string
  w.message(7, graphMessage(model.graph)); // graph
  for (const o of opsets) w.message(8, new ProtoWriter().string(1, o.domain).varint(2, o.version)); // opset_import
  for (const [key, value] of Object.entries(model.metadataProps ?? {})) {
    w.message(14, new ProtoWriter().string(1, key).string(2, value)); // metadata_props: key, value
  }
  return w.finish();
}

function graphMessage(g: GraphDef): ProtoWriter {
  const w = new ProtoWriter();
  for (const n of g.nodes) w.message(1, nodeMessage(n)); // node
  w.string(2, g.name); // name
  for (const t of g.initializers ?? []) w.message(5, tensorMessage(t)); // initializer
  for (const v of g.inputs) w.message(11, valueInfoMessage(v)); // input
  for (const v of g.outputs) w.message(12, valueInfoMessage(v)); // output
  for (const v of g.valueInfo ?? []) w.message(13, valueInfoMessage(v)); // value_info
  return w;
}

function nodeMessage(n: NodeDef): ProtoWriter {
  const w = new ProtoWriter();
  for (const i of n.inputs) w.string(1, i); // input
  for (const o of n.outputs) w.string(2, o); // output
  if (n.name !== undefined) w.string(3, n.name); // name
  w.string(4, n.opType); // op_type
  for (const a of n.attributes ?? []) w.message(5, attributeMessage(a)); // attribute
  if (n.domain) w.string(7, n.domain); // domain
  return w;
}

function attributeMessage(a: AttributeDef): ProtoWriter {
  const w = new ProtoWriter();
  w.string(1, a.name); // name
  switch (a.type) {
    case 'FLOAT':
      w.float(2, a.value); // f
      break;
    case 'INT':
      w.varint(3, a.value); // i
      break;
    case 'STRING':
      w.string(4, a.value); // s
      break;
    case 'TENSOR':
      w.message(5, tensorMessage(a.value)); // t
      break;
    case 'GRAPH':
      w.message(6, graphMessage(a.value)); // g
      break;
    case 'FLOATS':
      w.packedFloats(7, a.value); // floats
      break;
    case 'INTS':
      w.packedVarints(8, a.value); // ints
      break;
    case 'STRINGS':
      for (const v of a.value) w.string(9, v); // strings
      break;
  }
  w.varint(20, OnnxAttributeType[a.type]); // type
  return w;
}

/** TensorProto: dims, data_type, then float_data or raw_data, and name. */
export function tensorMessage(t: TensorDef): ProtoWriter {
  const count = t.dims.reduce((a, d) => a * d, 1);
  const w = new ProtoWriter();
  w.packedVarints(1, t.dims); // dims
  w.varint(2, t.dataType); // data_type
  if (t.floatData !== undefined) {
    if (t.dataType !== OnnxDataType.FLOAT) throw new RangeError(`tensor ${t.name}: floatData needs FLOAT`);
    if (t.floatData.length !== count)
      throw new RangeError(`tensor ${t.name}: ${t.floatData.length} values for ${count}`);
    w.packedFloats(4, t.floatData); // float_data
  }
  w.string(8, t.name); // name
  if (t.rawData !== undefined) w.bytes(9, t.rawData); // raw_data
  return w;
}

/** ValueInfoProto of a tensor (name, elem type, shape). */
export function valueInfoMessage(v: ValueInfoDef): ProtoWriter {
  const shape = new ProtoWriter();
  for (const d of v.dims) {
    const dim = new ProtoWriter();
    if (typeof d === 'number')
      dim.varint(1, d); // dim_value
    else dim.string(2, d); // dim_param
    shape.message(1, dim); // dim
  }
  const tensorType = new ProtoWriter().varint(1, v.elemType).message(2, shape); // elem_type, shape
  const type = new ProtoWriter().message(1, tensorType); // tensor_type
  return new ProtoWriter().string(1, v.name).message(2, type); // name, type
}
