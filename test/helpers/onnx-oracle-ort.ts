/**
 * ONNX Runtime (CPU EP, one thread) as a test oracle for kernel models: random feeds, one run.
 */
import * as ort from 'onnxruntime-node';
import type { Dtype } from '../../src-main/core/domain/measurement.js';
import type { KernelModel, KernelTensor } from '../../src-main/core/kernels/build.js';
import { float32ToFloat16Bits, randomBytes } from '../../src-main/core/kernels/fill.js';

/**
 * A tensor of `info`'s dtype and dims: float `values` if given (fp32, fp16), else the
 * deterministic pseudo-random contents kernel weights get (uniform [-1,1), integers in [-8,8)),
 * which are cheap even at 16M elements.
 */
export function tensorFor(info: KernelTensor, values?: Float32Array, seed = 7): ort.Tensor {
  const count = info.dims.reduce((a, d) => a * d, 1);
  if (values && values.length !== count) throw new Error(`${info.name}: ${values.length} values for ${count}`);
  const dtype: Dtype = info.dtype;
  const bytes = (): ArrayBufferLike => randomBytes(dtype, count, seed).buffer;
  switch (dtype) {
    case 'fp32':
      return new ort.Tensor('float32', values ?? new Float32Array(bytes()), info.dims);
    case 'fp16':
      return new ort.Tensor(
        'float16',
        values ? Uint16Array.from(values, float32ToFloat16Bits) : new Uint16Array(bytes()),
        info.dims,
      );
    case 'int8':
      return new ort.Tensor('int8', new Int8Array(bytes()), info.dims);
    case 'int32':
      return new ort.Tensor('int32', new Int32Array(bytes()), info.dims);
    case 'int64':
      return new ort.Tensor('int64', new BigInt64Array(bytes()), info.dims);
    case 'bf16':
      throw new Error('onnxruntime-node cannot feed bfloat16 tensors');
    case 'fp8':
      throw new Error('fp8 is a planning dtype; no kernel is fed in it');
  }
}

/** Loads `km` on the CPU EP with one intra-op thread. */
export function cpuSession(km: KernelModel): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(km.model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    logSeverityLevel: 3,
  });
}

/** One run with the given feeds (random for inputs not given); returns the output tensor. */
export async function runOnCpu(km: KernelModel, given: Record<string, Float32Array> = {}): Promise<ort.Tensor> {
  const session = await cpuSession(km);
  try {
    const feeds: Record<string, ort.Tensor> = {};
    km.inputs.forEach((info, i) => {
      feeds[info.name] = tensorFor(info, given[info.name], 7 + i);
    });
    const out = await session.run(feeds);
    const y = out[km.outputName];
    if (!y) throw new Error(`no output ${km.outputName}`);
    return y;
  } finally {
    await session.release();
  }
}
