/** Input tensors for a kernel model: seeded random data of the right type and shape. */
import * as ort from 'onnxruntime-node';
import type { Dtype } from '../../core/domain/measurement.js';
import type { KernelTensor } from '../../core/kernels/build.js';
import { DTYPE_BYTES } from '../../core/domain/dtypes.js';
import { encodeValues, randomBytes } from '../../core/kernels/fill.js';

const ORT_TYPE: Record<Dtype, ort.Tensor.Type> = {
  fp32: 'float32',
  fp16: 'float16',
  bf16: 'bfloat16' as ort.Tensor.Type,
  // No kernel is profiled in fp8 (a planning dtype only): its bytes travel as uint8.
  fp8: 'uint8',
  int8: 'int8',
  int32: 'int32',
  int64: 'int64',
};

function typedView(dtype: Dtype, bytes: Uint8Array): ort.Tensor.DataType {
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  switch (dtype) {
    case 'fp32':
      return new Float32Array(buf);
    case 'fp16':
    case 'bf16':
      return new Uint16Array(buf);
    case 'fp8':
      return new Uint8Array(buf);
    case 'int8':
      return new Int8Array(buf);
    case 'int32':
      return new Int32Array(buf);
    case 'int64':
      return new BigInt64Array(buf);
  }
}

/**
 * Seeded random floats; integers are random small values, or ones with
 * `integerFill: 'ones'` (token ids and masks of user models must stay in range).
 */
export function makeFeeds(
  inputs: readonly (KernelTensor & { integerFill?: 'random' | 'ones' })[],
  seed = 7,
): Record<string, ort.Tensor> {
  const feeds: Record<string, ort.Tensor> = {};
  inputs.forEach((info, i) => {
    const count = info.dims.reduce((a, b) => a * b, 1);
    const isInt = !['fp32', 'fp16', 'bf16'].includes(info.dtype);
    const bytes =
      isInt && info.integerFill === 'ones'
        ? encodeValues(info.dtype, new Array<number>(count).fill(1))
        : randomBytes(info.dtype, count, seed + i);
    feeds[info.name] = new ort.Tensor(ORT_TYPE[info.dtype], typedView(info.dtype, bytes), info.dims);
  });
  return feeds;
}

/** An output tensor to run into (zeros), so ORT writes into memory allocated once. */
export function outputTensor(info: KernelTensor): ort.Tensor {
  const count = info.dims.reduce((a, b) => a * b, 1);
  return new ort.Tensor(
    ORT_TYPE[info.dtype],
    typedView(info.dtype, new Uint8Array(count * DTYPE_BYTES[info.dtype])),
    info.dims,
  );
}
