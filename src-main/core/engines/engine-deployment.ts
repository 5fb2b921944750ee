/**
 * A deployment as the engine model prices it: one replica's pipeline stages, each a
 * tensor-parallel group of GPUs known by their datasheets, running a decoder's blocks in a weight
 * format on an engine. Pure.
 */
import type { TransformerEntry } from '../catalog/schema.js';
import type { GpuDatasheet } from '../planner/cost/datasheets.js';
import type { KernelEfficiencies } from '../predictor/kernel-efficiency.js';
import { WEIGHT_FORMATS, type WeightFormat } from '../workload/generation.js';
import { engineDecoder } from './engine-decoder.js';
import type { EngineRules } from './engine-rules.js';
import type { EngineDeployment } from './engine-step.js';
import { gpuSpec } from './gpu-spec.js';
import { WEIGHT_KERNELS } from './weight-kernels.js';

export interface DeploymentStage {
  /** The slowest GPU of the stage's tensor-parallel group (all members wait for it). */
  gpu: GpuDatasheet;
  blocks: number;
  members: readonly string[];
}

export interface DeploymentRequest {
  engine: EngineRules;
  entry: TransformerEntry;
  format: WeightFormat;
  kvCache: 'auto' | 'fp8';
  stages: readonly DeploymentStage[];
  /** Kernel fractions (shipped, or lent by a profiled GPU of the architecture). */
  table?: KernelEfficiencies;
  allReduceUs(members: readonly string[], bytes: number): number;
  sendUs(from: string, to: string, bytes: number): number;
}

/** Q6_K: 256 weights in 210 bytes, the type llama-quantize gives the output layer of Q4 and Q8 files' neighbours. */
const Q6_K = 210 / 256;

/** The LM head's bytes per weight: GGUF files keep it at Q6_K (Q8_0 files at Q8_0), other formats at 16 bits. */
function headBytes(format: WeightFormat): number {
  if (format === 'q8_0') return WEIGHT_FORMATS.q8_0;
  if (format === 'q4_k' || format === 'q4_0') return Q6_K;
  return format === 'fp32' ? 4 : 2;
}

export function engineDeployment(req: DeploymentRequest): EngineDeployment {
  const decoder = engineDecoder(req.entry);
  const stages = req.stages.map((s) => ({ gpu: gpuSpec(s.gpu, req.table), blocks: s.blocks, members: s.members }));
  return {
    engine: req.engine,
    decoder,
    bytesPerWeight: WEIGHT_FORMATS[req.format],
    headBytesPerWeight: headBytes(req.format),
    kvBytesPerValue: req.engine.kvBytes[req.kvCache],
    kvCache: req.kvCache,
    kernels: req.stages.map((s) => WEIGHT_KERNELS[req.engine.kernel(req.format, s.gpu.architecture)]),
    stages,
    allReduceUs: req.allReduceUs,
    sendUs: req.sendUs,
  };
}
