/**
 * Assembles a catalog workload node by node: every node is one profiled kernel (validated by
 * makeKernel, whose FLOPs and bytes the node takes over unchanged), and nodes are grouped into
 * layers as they are added. Pure.
 */
import type { Dtype } from '../domain/measurement.js';
import { makeKernel } from '../kernels/cost.js';
import { DTYPE_BYTES } from '../domain/dtypes.js';
import type { KernelOp } from '../kernels/types.js';
import type { TensorShape, WorkloadLayer, WorkloadNode } from '../workload/types.js';
import { UserError } from '../errors.js';

/**
 * A catalog layer: a WorkloadLayer plus the activation memory training keeps for it (proposed as
 * an optional WorkloadLayer field; until then it rides along as this extra property).
 */
export interface CatalogLayer extends WorkloadLayer {
  /**
   * Bytes of activations this layer keeps for its backward pass when training without
   * recomputation (Korthikanti et al. 2022 for transformer blocks; see activation-memory.ts).
   */
  trainingActivationBytes: number;
  /** Fine-tuning with adapters (lora.ts): the trained adapter parameters (inside params) and the frozen weights. */
  finetune?: { adapterParams: number; frozenParams: number; frozenBytes: number };
}

/** Backward FLOPs per forward FLOP: a GEMM's backward is two GEMMs of its size (dX and dW). */
const BACKWARD_FACTOR = 2;

export function elements(dims: readonly number[]): number {
  return dims.reduce((a, b) => a * b, 1);
}

export interface NodeSpec {
  name: string;
  opType: string;
  op: KernelOp;
  shape: Record<string, number>;
  /** Activation inputs (tensors produced by earlier nodes or fed by the user). */
  inputs: TensorShape[];
  /** Dims of the single output tensor (named `${name}.out`). */
  out: number[];
  /** Weight tensors this node owns, as [suffix, dims] (e.g. ['weight', [768, 2304]]). */
  weights?: [string, number[]][];
  /** Weight tensors read but owned elsewhere (tied embeddings): named inputs, no params. */
  shared?: TensorShape[];
}

export class WorkloadBuilder {
  readonly nodes: WorkloadNode[] = [];
  readonly layers: CatalogLayer[] = [];
  private open: { name: string; first: number } | null = null;

  /** Activations and every kernel but the weight GEMMs: bf16 when the model is built in fp8. */
  readonly dtype: Dtype;
  /** The weight GEMMs' dtype: fp8 runs them Transformer-Engine style (fp8 GEMMs, bf16 elsewhere). */
  private readonly gemmDtype: Dtype;

  /** `model`: the workload's name, for the one line that refuses a tensor too large to count. */
  constructor(
    dtype: Dtype,
    readonly model = 'workload',
  ) {
    this.dtype = dtype === 'fp8' ? 'bf16' : dtype;
    this.gemmDtype = dtype;
  }

  tensor(name: string, dims: number[]): TensorShape {
    return { name, dims, dtype: this.dtype };
  }

  bytesOf(t: TensorShape): number {
    return elements(t.dims) * DTYPE_BYTES[this.dtype];
  }

  /**
   * Refuses (UserError, one line) a node whose kernel dims or tensors exceed what a double counts
   * exactly: the hyper-parameters are each in range, but batch x seq x width can still pass 2^53.
   */
  private checkCountable(spec: NodeSpec): void {
    const sizes = [
      ...Object.values(spec.shape),
      elements(spec.out),
      ...(spec.weights ?? []).map(([, dims]) => elements(dims)),
    ];
    const over = sizes.find((n) => !(n <= Number.MAX_SAFE_INTEGER));
    if (over !== undefined) {
      throw new UserError(
        `${this.model}: ${spec.name} has ${String(over)} elements, over ${Number.MAX_SAFE_INTEGER} (2^53 - 1); use a smaller batch or seq`,
      );
    }
  }

  /** Adds one node; returns its output tensor. */
  node(spec: NodeSpec): TensorShape {
    if (!this.open) throw new Error(`node ${spec.name} outside a layer`);
    this.checkCountable(spec);
    const weightGemm = (spec.op === 'MatMul' || spec.op === 'Gemm') && (spec.weights?.length ?? 0) > 0;
    const dtype = weightGemm ? this.gemmDtype : this.dtype;
    const kernel = makeKernel(spec.op, dtype, spec.shape);
    const weights = (spec.weights ?? []).map(([suffix, dims]) => this.tensor(`${spec.name}.${suffix}`, dims));
    const out = this.tensor(`${spec.name}.out`, spec.out);
    this.nodes.push({
      name: spec.name,
      opType: spec.opType,
      family: kernel.family,
      kernel: { op: kernel.op, shape: kernel.shape },
      dtype,
      inputs: [...spec.inputs, ...weights, ...(spec.shared ?? [])],
      outputs: [out],
      flops: kernel.flops,
      bytes: kernel.bytes,
      params: weights.reduce((s, w) => s + elements(w.dims), 0),
      activationBytes: this.bytesOf(out),
    });
    return out;
  }

  beginLayer(name: string): void {
    if (this.open) throw new Error(`layer ${this.open.name} still open`);
    this.open = { name, first: this.nodes.length };
  }

  /**
   * Closes the open layer. `out` are the tensors that cross a cut after it. Training activation
   * memory defaults to every node output of the layer (what a graph without recomputation keeps).
   */
  endLayer(out: TensorShape[], trainingActivationBytes?: number): void {
    const open = this.open;
    if (!open) throw new Error('no open layer');
    this.open = null;
    const indices = this.nodes.map((_, i) => i).slice(open.first);
    const nodes = indices.map((i) => this.nodes[i] as WorkloadNode);
    const sum = (f: (n: WorkloadNode) => number): number => nodes.reduce((s, n) => s + f(n), 0);
    const flops = sum((n) => n.flops);
    const activationBytes = sum((n) => n.activationBytes);
    this.layers.push({
      index: this.layers.length,
      name: open.name,
      nodes: indices,
      flops,
      bytes: sum((n) => n.bytes),
      params: sum((n) => n.params),
      outBytes: out.reduce((s, t) => s + this.bytesOf(t), 0),
      outTensors: out.map((t) => t.name),
      activationBytes,
      backwardFlops: BACKWARD_FACTOR * flops,
      trainingActivationBytes: trainingActivationBytes ?? activationBytes,
    });
  }
}
