/** The skeleton of a model (its large weights left out) parses to the same model as the whole file. */
import { describe, expect, it } from 'vitest';
import { encodeModel, OnnxDataType, type TensorDef } from '../../../../src-main/core/onnx/model-builder.js';
import { parseOnnxModel } from '../../../../src-main/core/onnx/onnx-parser.js';
import { onnxSkeleton, SkeletonError, type ByteSource } from '../../../../src-main/core/onnx/onnx-skeleton.js';
import { modelAround, nestedIfs } from '../../../helpers/hostile-onnx.js';

/** A ByteSource over bytes in memory that counts what was read. */
function source(bytes: Uint8Array): ByteSource & { readBytes: number } {
  const s = {
    size: bytes.length,
    readBytes: 0,
    read(offset: number, length: number): Uint8Array {
      const out = bytes.slice(offset, Math.min(bytes.length, offset + length));
      s.readBytes += out.length;
      return out;
    },
  };
  return s;
}

const weight = (name: string, n: number): TensorDef => ({
  name,
  dataType: OnnxDataType.FLOAT,
  dims: [n],
  rawData: new Uint8Array(n * 4).fill(7),
});
const io = (name: string, dims: number[]) => ({ name, elemType: OnnxDataType.FLOAT, dims });

/** Weights of 256 KiB as initializers, a Constant, and inside an If's branch; a large doc string. */
function modelWithWeights(): Uint8Array {
  const branch = {
    name: 'then',
    nodes: [{ opType: 'Add', inputs: ['x', 'wb'], outputs: ['yb'] }],
    inputs: [],
    outputs: [io('yb', [65536])],
    initializers: [weight('wb', 65536)],
  };
  return encodeModel({
    docString: 'd'.repeat(300_000),
    graph: {
      name: 'g',
      nodes: [
        {
          opType: 'Constant',
          inputs: [],
          outputs: ['c'],
          attributes: [{ name: 'value', type: 'TENSOR', value: weight('c0', 65536) }],
        },
        { opType: 'Add', inputs: ['x', 'w'], outputs: ['a'] },
        { opType: 'Add', inputs: ['a', 'c'], outputs: ['b'] },
        { opType: 'Add', inputs: ['b', 'small'], outputs: ['s'] },
        {
          opType: 'If',
          inputs: ['cond'],
          outputs: ['y'],
          attributes: [
            { name: 'then_branch', type: 'GRAPH', value: branch },
            { name: 'else_branch', type: 'GRAPH', value: { ...branch, name: 'else' } },
          ],
        },
      ],
      inputs: [io('x', [65536]), { name: 'cond', elemType: OnnxDataType.BOOL, dims: [] }],
      outputs: [io('s', [65536]), io('y', [65536])],
      initializers: [weight('w', 65536), { ...weight('small', 4), dims: [4] }],
    },
  });
}

describe('onnxSkeleton', () => {
  it('parses to the same model, sizes included, from a small part of the bytes', () => {
    const bytes = modelWithWeights();
    const src = source(bytes);
    const skeleton = onnxSkeleton(src, 64 * 1024);
    expect(parseOnnxModel(skeleton)).toEqual(parseOnnxModel(bytes));
    expect(skeleton.length).toBeLessThan(4096);
    expect(bytes.length).toBeGreaterThan(1_300_000);
    // The weights were never read: only headers and small fields.
    expect(src.readBytes).toBeLessThan(64 * 1024);
  });

  it('keeps a model without large fields byte for byte', () => {
    const bytes = encodeModel({
      graph: {
        name: 'g',
        nodes: [{ opType: 'Relu', inputs: ['x'], outputs: ['y'] }],
        inputs: [io('x', [4])],
        outputs: [io('y', [4])],
      },
    });
    expect(onnxSkeleton(source(bytes))).toEqual(bytes);
  });

  it('refuses bytes that are not protobuf, and a length past the end', () => {
    const refusal = (bytes: Uint8Array): string => {
      try {
        onnxSkeleton(source(bytes));
        return 'accepted';
      } catch (e) {
        return e instanceof SkeletonError ? e.message : `not a SkeletonError: ${String(e)}`;
      }
    };
    expect(refusal(new TextEncoder().encode('hello world, not a model'))).toMatch(
      /^invalid field tag|runs past the end/,
    );
    const whole = modelWithWeights();
    expect(refusal(whole.subarray(0, 500_000))).toMatch(/runs past the end of its message/);
  });

  it('refuses weights nested deeper than the parser would read, without recursing past it', () => {
    // 100k If levels around weights: each level is large, so each is descended into until the cap.
    const deep = modelAround(nestedIfs(100_000));
    expect(() => onnxSkeleton(source(deep), 0)).toThrow('subgraphs nest deeper than 64 levels');
  });
});
