/**
 * Hostile ONNX bytes written straight as protobuf (no recursion, no model builder checks): long
 * node chains and subgraphs nested past any sane depth. Shared by the parser tests and bench:hostile.
 */
import { encodeModel, OnnxDataType, type NodeDef } from '../../src-main/core/onnx/model-builder.js';
import { ProtoWriter } from '../../src-main/core/onnx/protobuf-writer.js';

/** Graph bytes holding `count` minimal Relu nodes (6 bytes each), written directly: no builder objects. */
export function reluNodesGraph(count: number): Uint8Array {
  const one = new ProtoWriter().message(1, new ProtoWriter().string(4, 'Relu')).finish();
  const out = new Uint8Array(one.length * count);
  for (let i = 0; i < count; i++) out.set(one, i * one.length);
  return out;
}

/** A model around raw graph bytes. */
export function modelAround(graph: Uint8Array): Uint8Array {
  const w = new ProtoWriter().varint(1, 8);
  w.bytes(7, graph);
  w.message(8, new ProtoWriter().string(1, '').varint(2, 17));
  return w.finish();
}

/** `depth` If nodes, each holding the next in its then_branch, encoded inside out without recursion. */
export function nestedIfs(depth: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const tail: Uint8Array[] = [];
  const sizes: number[] = [0];
  const varintLength = (n: number): number => (n < 128 ? 1 : 1 + varintLength(Math.floor(n / 128)));
  const opType = new ProtoWriter().string(4, 'If').finish();
  const attrName = new ProtoWriter().string(1, 'then_branch').finish();
  const attrType = new ProtoWriter().varint(20, 5).finish();
  // sizes[k]: bytes of the graph k levels from the innermost (empty) one.
  for (let k = 1; k <= depth; k++) {
    const inner = sizes[k - 1]!;
    const attribute = attrName.length + 1 + varintLength(inner) + inner + attrType.length;
    const nodeSize = opType.length + 1 + varintLength(attribute) + attribute;
    sizes.push(1 + varintLength(nodeSize) + nodeSize);
  }
  const varint = (n: number): number[] => {
    const b: number[] = [];
    while (n >= 128) {
      b.push((n % 128) | 128);
      n = Math.floor(n / 128);
    }
    b.push(n);
    return b;
  };
  for (let k = depth; k >= 1; k--) {
    const inner = sizes[k - 1]!;
    const attribute = attrName.length + 1 + varintLength(inner) + inner + attrType.length;
    const nodeSize = opType.length + 1 + varintLength(attribute) + attribute;
    parts.push(Uint8Array.from([0x0a, ...varint(nodeSize)]), opType, Uint8Array.from([0x2a, ...varint(attribute)]));
    parts.push(attrName, Uint8Array.from([0x32, ...varint(inner)]));
    tail.push(attrType);
  }
  const all = [...parts, ...tail.reverse()];
  const out = new Uint8Array(all.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of all) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** x -> Relu -> ... (n nodes) -> y, a real model: small on disk, long to walk; node names from `name`. */
export function reluChain(n: number, name: (i: number) => string = (i) => `relu${i}`): Uint8Array {
  const nodes: NodeDef[] = [];
  let x = 'x';
  for (let i = 0; i < n; i++) {
    nodes.push({ opType: 'Relu', inputs: [x], outputs: [`r${i}`], name: name(i) });
    x = `r${i}`;
  }
  return encodeModel({
    graph: {
      name: 'relu-chain',
      nodes,
      inputs: [{ name: 'x', elemType: OnnxDataType.FLOAT, dims: [1, 16] }],
      outputs: [{ name: x, elemType: OnnxDataType.FLOAT, dims: [1, 16] }],
    },
  });
}
