/**
 * ONNX Runtime (CPU EP) as a shape oracle: runs a model once on deterministic inputs of the
 * given shapes and reports the dims of every output it produced.
 */
import * as ort from 'onnxruntime-node';

/** A feed: float inputs get small pseudo-random values, integer inputs `intValue` (default 1). */
function feed(type: string, dims: number[], intValue: number): ort.Tensor {
  const n = dims.reduce((a, d) => a * d, 1);
  switch (type) {
    case 'float32':
      return new ort.Tensor(
        type,
        Float32Array.from({ length: n }, (_, i) => ((i * 7919) % 1000) / 1000 - 0.5),
        dims,
      );
    case 'int64':
      return new ort.Tensor(type, new BigInt64Array(n).fill(BigInt(intValue)), dims);
    case 'int32':
      return new ort.Tensor(type, new Int32Array(n).fill(intValue), dims);
    case 'bool':
      return new ort.Tensor(type, new Uint8Array(n).fill(1), dims);
    default:
      throw new Error(`no feed for input type ${type}`);
  }
}

export interface OrtRun {
  /** Dims of every output, by name. */
  shapes: Map<string, number[]>;
}

/**
 * Runs `model` with inputs of the given shapes (by name; their element types come from the
 * session's metadata). `ints` overrides the value integer inputs are filled with.
 */
export async function ortShapes(
  model: Uint8Array,
  inputs: Record<string, number[]>,
  ints: Record<string, number> = {},
): Promise<OrtRun> {
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    logSeverityLevel: 3,
  });
  try {
    const feeds: Record<string, ort.Tensor> = {};
    session.inputMetadata.forEach((meta) => {
      const dims = inputs[meta.name];
      if (!dims) throw new Error(`no shape given for input ${meta.name}`);
      const type = meta.isTensor ? meta.type : 'float32';
      feeds[meta.name] = feed(type, dims, ints[meta.name] ?? 1);
    });
    const out = await session.run(feeds);
    const shapes = new Map<string, number[]>();
    for (const [name, t] of Object.entries(out)) shapes.set(name, [...t.dims]);
    return { shapes };
  } finally {
    await session.release();
  }
}
