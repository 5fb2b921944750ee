/**
 * Workloads: a model as the predictor and planner see it: nodes with their op family,
 * shapes and costs, grouped into layers (the units a planner may cut between). Both
 * imported ONNX models and the built-in catalog produce this. Pure.
 */
import type { Dtype } from '../domain/measurement.js';

export interface TensorShape {
  name: string;
  dims: number[];
  dtype: Dtype | 'other';
}

export interface WorkloadNode {
  /** Node name (unique within the workload; generated when the file has none). */
  name: string;
  /** ONNX op type, e.g. "Conv", "MatMul", "LSTM". */
  opType: string;
  /**
   * Predictor op family ('gemm', 'conv', 'elementwise', 'reduction', 'softmax',
   * 'layernorm', 'attention', 'datamove', 'copy'), or null when no family fits: such
   * nodes get a fallback estimate and are flagged, never dropped.
   */
  family: string | null;
  /** The kernel op and shape the predictor is asked about (e.g. MatMul {B,M,N,K}); null for fallback nodes. */
  kernel: { op: string; shape: Record<string, number> } | null;
  dtype: Dtype;
  inputs: TensorShape[];
  outputs: TensorShape[];
  /** Forward FLOPs. */
  flops: number;
  /** Bytes read and written (inputs + outputs + weights), once. */
  bytes: number;
  /** Parameter count (elements of the weights this node owns). */
  params: number;
  /** Output activation bytes. */
  activationBytes: number;
  /** The If node whose branch this node runs in (its time is inside the If's in a trace). */
  branchOf?: string;
  /**
   * Fine-tuning with adapters (core/catalog/lora.ts): a frozen base GEMM (backward: input
   * gradient only), QLoRA's dequantisation before one, or an adapter GEMM (trained).
   */
  finetune?: 'frozen' | 'dequant' | 'adapter';
}

export interface WorkloadLayer {
  /** Index in graph order. */
  index: number;
  name: string;
  /** Indices into Workload.nodes, in graph order. */
  nodes: number[];
  flops: number;
  bytes: number;
  params: number;
  /** Bytes of the tensors that cross the cut after this layer (activations sent to the next stage). */
  outBytes: number;
  /** Names of those tensors. */
  outTensors: string[];
  activationBytes: number;
  /** Backward FLOPs for training (about 2x forward), when known. */
  backwardFlops: number;
  /** Activation bytes kept for the backward pass when training without recomputation, when known. */
  trainingActivationBytes?: number;
}

export interface Workload {
  name: string;
  source: 'onnx' | 'catalog';
  /** Symbolic dimensions as bound by the user (batch=1, seq=128...). */
  bindings: Record<string, number>;
  /** Graph inputs with their resolved shapes (what measure-model feeds); empty for catalog models. */
  inputs?: TensorShape[];
  /** Graph outputs with their resolved shapes; empty for catalog models. */
  outputs?: TensorShape[];
  nodes: WorkloadNode[];
  layers: WorkloadLayer[];
  /** Total parameter bytes (weights as stored). */
  paramBytes: number;
  /** The NCHWc block of an executed graph that has NCHWc ops (16 with AVX-512, 8 with AVX2); absent otherwise. */
  nchwcBlock?: number;
  /** Notes for the user: unsupported ops with fallback estimates, shapes assumed, etc. */
  warnings: string[];
}
