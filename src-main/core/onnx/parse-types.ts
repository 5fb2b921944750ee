/**
 * The lightweight IR an ONNX model is parsed into: the graph's structure, shapes and small
 * constants, never the weights' bytes (only their sizes). Pure.
 */

/** A tensor dim: a value, a symbolic dim_param, or null where the file gives neither. */
export type OnnxDim = number | string | null;

export interface OnnxExternalData {
  /** Path of the data file, relative to the model file's folder. */
  location: string;
  offset: number;
  /** Bytes in the file; null when the entry does not say. */
  length: number | null;
}

export interface OnnxTensor {
  name: string;
  /** TensorProto.DataType code (1 FLOAT, 7 INT64, ...). */
  dataType: number;
  dims: number[];
  /** Element count (product of dims; 1 for a scalar). */
  elements: number;
  /** Size of the data in memory (elements x element size; strings: their bytes). */
  byteLength: number;
  /** Values of small numeric tensors (at most SMALL_TENSOR_ELEMENTS), else null. */
  values: number[] | null;
  /** Where the data lives when data_location is EXTERNAL, else null. */
  external: OnnxExternalData | null;
}

export type OnnxAttribute =
  | { type: 'INT'; value: number }
  | { type: 'INTS'; value: number[] }
  | { type: 'FLOAT'; value: number }
  | { type: 'FLOATS'; value: number[] }
  | { type: 'STRING'; value: string }
  | { type: 'STRINGS'; value: string[] }
  | { type: 'TENSOR'; value: OnnxTensor }
  /** Subgraphs: an If's then_branch or else_branch, a Loop's or Scan's body (GRAPHS: several). */
  | { type: 'GRAPH'; graphs: OnnxGraph[] }
  /** Sparse tensors, type protos, tensor lists: recorded, not decoded. */
  | { type: 'OTHER'; code: number };

export interface OnnxNode {
  opType: string;
  /** '' for the default ai.onnx domain. */
  domain: string;
  /** As in the file ('' when it has none). */
  name: string;
  /** '' marks an omitted optional input or output. */
  inputs: string[];
  outputs: string[];
  attributes: Map<string, OnnxAttribute>;
  /** For a node of an If branch inlined into its graph (workload/inline-branches.ts): the If's name. */
  branchOf?: string;
}

export interface OnnxValueInfo {
  name: string;
  /** TensorProto.DataType of the elements; 0 when unknown or not a tensor. */
  elemType: number;
  /** null when the file gives no shape (unknown rank) or the value is not a tensor. */
  dims: OnnxDim[] | null;
  /** False for sequences, maps, optionals and sparse tensors. */
  isTensor: boolean;
}

export interface OnnxGraph {
  name: string;
  /** Nodes in a topological order (the file's order where it already is one). */
  nodes: OnnxNode[];
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
  valueInfo: OnnxValueInfo[];
  initializers: OnnxTensor[];
}

export interface OnnxOpset {
  /** '' for the default ai.onnx domain (an 'ai.onnx' entry is stored as ''). */
  domain: string;
  version: number;
}

export interface OnnxModel {
  irVersion: number;
  opsets: OnnxOpset[];
  /** The default domain's opset version (0 when the model imports none). */
  opset: number;
  producerName: string;
  producerVersion: string;
  graph: OnnxGraph;
  /** Distinct external-data files the initializers reference, in first-use order. */
  externalFiles: string[];
}

/** Tensors up to this many elements keep their values (shape constants, scales, axes). */
export const SMALL_TENSOR_ELEMENTS = 4096;

import { DataType } from './data-type.js';

export { DataType };

/** Bytes per element of each data type (4-bit types 0.5; strings 0: variable). */
const ELEMENT_BYTES: Record<number, number> = {
  1: 4,
  2: 1,
  3: 1,
  4: 2,
  5: 2,
  6: 4,
  7: 8,
  8: 0,
  9: 1,
  10: 2,
  11: 8,
  12: 4,
  13: 8,
  14: 8,
  15: 16,
  16: 2,
  17: 1,
  18: 1,
  19: 1,
  20: 1,
  21: 0.5,
  22: 0.5,
  23: 0.5,
  24: 1,
};

/** Bytes per element; 4 for an unknown or undefined type (the common float case). */
export function elementBytes(dataType: number): number {
  return ELEMENT_BYTES[dataType] ?? 4;
}

/** True for the integer and bool types whose values are exact in a number. */
export function isIntegerType(dataType: number): boolean {
  return [2, 3, 4, 5, 6, 7, 9, 12, 13].includes(dataType);
}
