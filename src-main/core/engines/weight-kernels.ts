/**
 * The kernels engines multiply activations by stored weights with, one `as const` table: what
 * each reads per weight and computes in, how close it streams to the memory's achieved bandwidth
 * when it runs as a GEMV (decode: few rows), and what share of the GPU's large-GEMM rate it
 * reaches with many rows (prefill), after its dequantisation. Engines pick one per weight format
 * and GPU generation (the *-engine.ts files). Each figure names where it comes from. Pure.
 */
import type { WeightFormat } from '../workload/generation.js';
import type { ComputeDtype, GpuSpec } from './gpu-spec.js';
import { FP8_ARCHITECTURES_TEXT, gpuArchitecture } from '../domain/gpu-architectures.js';

export interface WeightKernel {
  title: string;
  /** Dtype of the tensor-core arithmetic (fp16 also stands for bf16). */
  compute: ComputeDtype;
  /** Rows up to which the kernel is a GEMV streaming the weights (llama.cpp MMVQ: 8). */
  gemvRows: number;
  /** Share of the memory's achieved bandwidth the GEMV streams packed weights at. */
  stream: number;
  /**
   * Little's law for a GEMV of few warps per SM: the bytes its SMs keep in flight, over the memory's
   * latency in SM cycles, as bytes per SM per cycle. The GEMV streams at most smCount x clock x this,
   * whatever the bandwidth (gemvStreamBytesPerUs). Absent: the bandwidth share alone bounds it.
   */
  smBytesPerCycle?: number;
  /** Share of the GPU's large-GEMM fraction reached with many rows, dequantisation included. */
  gemm: number;
  /** With many rows, the weights are first dequantised to fp16 in memory (read packed, write 2 bytes each). */
  dequantPass?: boolean;
  /**
   * With many rows, the GEMM accumulates in fp16 (cublasGemmEx with CUBLAS_COMPUTE_16F): it runs at
   * the GPU's fp16-accumulate peak (GpuSpec.peakFp16AccFp16: twice the fp32-accumulate rate on
   * GeForce cards, the same elsewhere). Absent: fp32 accumulation.
   */
  accumulate?: 'fp16';
  /**
   * W8A8: the GEMM reads its activations in the compute dtype, so each GEMM's input is quantised
   * first (read 16-bit, write 8-bit and a scale); an engine runs that as its own kernel or fuses it
   * into the kernel before (EngineRules.launches.activationQuant).
   */
  quantisesActivations?: boolean;
  /**
   * Operations the host issues around each GEMM besides the GEMM itself (kernels, allocations that
   * fill, reads back to the host), each one a launch and a kernel's fixed time like any other.
   * Absent: none (the GEMM is one launch).
   */
  hostOps?: number;
  /** Where the figures come from. */
  from: string;
}

/**
 * llama.cpp's MMVQ GEMV on GGUF blocks (ggml-cuda/mmvq.cu, mul_mat_vec_q): a block of 4 warps per
 * weight row at one column (nwarps 4, rows_per_cuda_block 1), each thread a few 32-bit loads per
 * iteration: a fixed shape whose bytes in flight per SM do not grow with the GPU's bandwidth, so it
 * is bounded per SM cycle like the f16 GEMV (Little's law). Fitted on llama.cpp's own cells
 * (bench:engines-calibrate -- --engine llama.cpp --only mmvq; bench/runs/h57-launch.md).
 */
const MMVQ_SM_BYTES_PER_CYCLE = 4;

/**
 * bitsandbytes 0.41 `MatMul8bitLt.forward` (transformers' load_in_8bit: Linear8bitLt, outlier
 * threshold 6.0, int8 weights in the Ampere/Turing tile order, outlier columns present), counted
 * in its source (bitsandbytes/autograd/_functions.py, functional.py) besides the int8 GEMM:
 * get_colrow_absmax 5 (two fills, a zeroed counter, the stats kernel, its cumsum); double_quant
 * 11 (two zeroed outputs, two `.item()` reads of the outlier count, three zeroed COO arrays, the
 * quantise kernel, a sort, two gathers); `torch.unique` of the outlier columns 1; the outliers'
 * weight columns 6 (zeroed buffer, extract kernel, scale, divide, transpose copy, cast); zeroing
 * the outlier columns of both quantised inputs and gathering them from A 6 (three `.long()`, two
 * index writes, a gather); the int8 product 4 besides the GEMM (zeroed col32 buffer and transform,
 * zeroed int32 output, dequantise); the fp16 outlier product and its add 2; the 3-D output's clone 1.
 * The `.item()` reads and `unique` wait for the GPU, so the host cannot queue ahead across them.
 */
export const BNB_INT8_HOST_OPS = 36;

export const WEIGHT_KERNELS = {
  cublas: {
    title: 'cuBLAS GEMM on float weights',
    compute: 'fp16',
    gemvRows: 0,
    stream: 1,
    gemm: 1,
    from: 'the GPU architecture fractions of models/gpu-kernels.json',
  },
  'cublas-fp32': {
    title: 'cuBLAS SGEMM on fp32 weights',
    compute: 'fp32',
    gemvRows: 0,
    stream: 1,
    gemm: 1,
    from: 'the GPU architecture fractions of models/gpu-kernels.json',
  },
  'fp8-gemm': {
    title: `W8A8 fp8 GEMM (CUTLASS / cuBLASLt) on ${FP8_ARCHITECTURES_TEXT}`,
    compute: 'fp8',
    gemvRows: 0,
    stream: 1,
    gemm: 1,
    quantisesActivations: true,
    from: 'gemmFp8 of models/gpu-kernels.json (MAMF fp8)',
  },
  'fp8-marlin': {
    title: 'fp8 weights dequantised to fp16 inside a Marlin GEMM (W8A16, GPUs without fp8 units)',
    compute: 'fp16',
    gemvRows: 16,
    stream: 0.85,
    gemm: 0.85,
    from: 'Marlin kernel design (IST-DASLab/marlin README): near-ideal weight streaming up to 16-32 rows',
  },
  'int8-gemm': {
    title: 'W8A8 int8 GEMM (SmoothQuant, CUTLASS)',
    compute: 'int8',
    gemvRows: 0,
    stream: 1,
    gemm: 0.8,
    from: 'int8 tensor-core rate at the fp16 GEMM fraction, less the activation quantisation',
  },
  marlin: {
    title: 'Marlin / Machete int4 (AWQ, GPTQ) weight-only GEMM',
    compute: 'fp16',
    gemvRows: 16,
    stream: 0.85,
    gemm: 0.85,
    from: 'IST-DASLab/marlin README: close to the ideal 3.87x over fp16 up to batch 16-32 (weights streamed near peak), near fp16 cuBLAS at large batches',
  },
  'awq-gemm': {
    title: "AutoAWQ's GEMM kernel (eager PyTorch, no Marlin)",
    compute: 'fp16',
    gemvRows: 8,
    stream: 0.6,
    gemm: 0.55,
    from: "gemm fitted on Hugging Face's own optimum GPTQ benchmark (cells-firstparty-transformers.json); stream not told apart by it",
  },
  'bnb-int8': {
    title: 'bitsandbytes LLM.int8 (outlier decomposition, int8 GEMM plus an fp16 one)',
    compute: 'int8',
    gemvRows: 0,
    stream: 0.35,
    gemm: 0.25,
    hostOps: BNB_INT8_HOST_OPS,
    from: "stream and gemm not calibrated: no first-party transformers figure of LLM.int8 is expressible; hostOps counted in bitsandbytes 0.41's MatMul8bitLt.forward (BNB_INT8_HOST_OPS)",
  },
  'ggml-f16': {
    title:
      "llama.cpp's float GEMV on f16 weights (dequantize_mul_mat_vec: one warp a row, 2 halves a thread per iteration) for one row; cuBLAS accumulating in fp16 beyond",
    compute: 'fp16',
    gemvRows: 1,
    stream: 1,
    smBytesPerCycle: 5,
    gemm: 0.66,
    accumulate: 'fp16',
    from: "smBytesPerCycle fitted (bench:engines-calibrate -- --only ggml-f16) on llama.cpp maintainers' figures: only the RTX 3090 f16 tg128 of PR #4766 is bound by it (cells-firstparty-llama-cpp.json); the kernel's shape from ggml-cuda/dmmv.cu (bench/runs/h57-hbm.md). Many rows: cuBLAS with CUBLAS_COMPUTE_16F (ggml_cuda_op_mul_mat_cublas), gemm fitted with ggml-cublas's on the same cells (bench/runs/h57-prefill.md)",
  },
  'ggml-cublas': {
    title:
      'llama.cpp before its MMQ ran on tensor cores (June 2024): MMVQ GEMV up to 8 rows; beyond, the weights dequantised to fp16 and cuBLAS accumulating in fp16',
    compute: 'fp16',
    gemvRows: 8,
    stream: 0.75,
    smBytesPerCycle: MMVQ_SM_BYTES_PER_CYCLE,
    gemm: 0.59,
    dequantPass: true,
    accumulate: 'fp16',
    from: "llama.cpp maintainers' llama-bench tables of early 2024 builds (bench/engines cells-firstparty-llama-cpp.json); many rows: ggml_cuda_op_mul_mat_cublas (ggml-cuda.cu, ggerganov/llama.cpp 005de593) converts the weights and activations to fp16 and calls cublasGemmEx with CUBLAS_COMPUTE_16F on Volta and later, gemm fitted on those cells at that rate (bench:engines-calibrate -- --only ggml-, bench/runs/h57-prefill.md); refit 0.66 -> 0.59 once PR #4766's January 2024 branch cells are priced with January's rules, not the newest (bench/runs/h63-llama.md)",
  },
  ggml: {
    title:
      "llama.cpp's kernels on GGUF blocks: MMVQ GEMV (dp4a on quantised activations) up to 8 rows, MMQ (int8 mma.sync tensor cores) beyond",
    compute: 'int8',
    gemvRows: 8,
    stream: 0.75,
    smBytesPerCycle: MMVQ_SM_BYTES_PER_CYCLE,
    gemm: 0.33,
    from: "fitted on llama.cpp maintainers' llama-bench tables (bench/engines cells-firstparty-llama-cpp.json)",
  },
  exl2: {
    title: "ExLlamaV2's EXL2/GPTQ GEMV, and dequantise-then-cuBLAS for many rows",
    compute: 'fp16',
    gemvRows: 32,
    stream: 1,
    gemm: 0.8,
    from: "stream fitted on turboderp/exllamav2's README decode figures (cells-firstparty-exllamav2.json); gemm not told apart by them",
  },
} as const satisfies Record<string, WeightKernel>;

export type WeightKernelName = keyof typeof WEIGHT_KERNELS;

/**
 * The arithmetic of an m x n x k GEMM (µs at the full rate of `flopsPerUs`), as tiled kernels run
 * it: the output is cut into tiles (the architecture's, or half of it either way, whichever the
 * library would pick as fastest), the tiles run in waves of one per SM, and a short K loop pays
 * its prologue. A GEMM of few tiles leaves SMs idle in its last wave: what a tensor-parallel shard
 * of a layer loses (NeuSight's wave quantisation).
 */
function tiledComputeUs(gpu: GpuSpec, flopsPerUs: number, m: number, n: number, k: number): number {
  const [tileM, tileN] = gpu.tile;
  const perSm = flopsPerUs / gpu.smCount;
  let best = Infinity;
  for (const [tm0, tn] of [
    [tileM, tileN],
    [tileM, tileN / 2],
    [tileM / 2, tileN / 2],
  ] as const) {
    const tm = Math.min(tm0, 2 ** Math.ceil(Math.log2(Math.max(16, m))));
    const tiles = Math.ceil(m / tm) * Math.ceil(n / tn);
    const waves = Math.ceil(tiles / gpu.smCount);
    // Smaller tiles reuse less of what they load: each halving of a tile side costs a tenth of the rate.
    const reuse = (tm0 === tileM ? 1 : 0.9) * (tn === tileN ? 1 : 0.9);
    best = Math.min(best, (waves * 2 * tm * tn * k) / (perSm * reuse * (k / (k + 64))));
  }
  return best;
}

/**
 * The rate (bytes per µs) a kernel streams packed weights at as a GEMV: its share of the achieved
 * bandwidth, or fewer where its SMs cannot keep enough bytes in flight to cover the memory's
 * latency (Little's law): a fixed-shape kernel that keeps a GDDR card of ~1 TB/s busy leaves an HBM
 * GPU of 2-3 TB/s waiting.
 */
export function gemvStreamBytesPerUs(gpu: GpuSpec, kernel: WeightKernel): number {
  const bandwidth = gpu.bytesPerUs * kernel.stream;
  const perCycle = kernel.smBytesPerCycle;
  return perCycle === undefined ? bandwidth : Math.min(bandwidth, gpu.smCount * gpu.clockMHz * perCycle);
}

/**
 * A GEMM of `m` rows over an n x k weight (µs, without the kernel's fixed time): the larger of its
 * tiled arithmetic at the kernel's share of the GPU's GEMM rate (at the sustained clock,
 * GpuSpec.sustained), and its bytes (packed weights at
 * the kernel's streaming rate as a GEMV, else its streaming share; activations at the full bandwidth).
 */
export function weightGemmUs(
  gpu: GpuSpec,
  kernel: WeightKernel,
  bytesPerWeight: number,
  m: number,
  n: number,
  k: number,
): number {
  if (m <= 0 || n <= 0 || k <= 0) return 0;
  const fraction = kernel.compute === 'fp8' ? gpu.gemmFp8Fraction : gpu.gemmFraction;
  const gemv = m <= kernel.gemvRows;
  const peak =
    !gemv && kernel.accumulate === 'fp16'
      ? (gpu.peakFp16AccFp16 ?? gpu.peak.fp16)
      : gpu.peak[kernel.compute] || gpu.peak.fp16;
  const share = gemv ? 1 : kernel.gemm;
  const dequantUs = kernel.dequantPass && !gemv ? (n * k * (bytesPerWeight + 2)) / gpu.bytesPerUs : 0;
  const computeUs = tiledComputeUs(gpu, peak * fraction * share * gpu.sustained, m, n, k) + dequantUs;
  const streamRate = gemv ? gemvStreamBytesPerUs(gpu, kernel) : gpu.bytesPerUs * kernel.stream;
  const memoryUs = (n * k * bytesPerWeight) / streamRate + (m * (n + k) * 2) / gpu.bytesPerUs;
  return Math.max(computeUs, memoryUs);
}

/**
 * The kernel most engines run a format on (vLLM, SGLang, TensorRT-LLM, TGI): cuBLAS for float
 * weights, W8A8 fp8 where the GPU has fp8 units and Marlin's W8A16 elsewhere, W8A8 int8, Marlin for
 * int4 (AutoAWQ's GEMM before Ampere, where Marlin does not run), llama.cpp's kernels for GGUF
 * blocks (vLLM reads GGUF files with them).
 */
export function standardKernel(format: WeightFormat, architecture: string): WeightKernelName {
  switch (format) {
    case 'fp32':
      return 'cublas-fp32';
    case 'fp8':
      return gpuArchitecture(architecture)?.fp8 ? 'fp8-gemm' : 'fp8-marlin';
    case 'int8':
      return 'int8-gemm';
    case 'int4':
      return (gpuArchitecture(architecture)?.marlin ?? true) ? 'marlin' : 'awq-gemm';
    case 'q8_0':
    case 'q4_k':
    case 'q4_0':
      return 'ggml';
    default:
      return 'cublas';
  }
}
