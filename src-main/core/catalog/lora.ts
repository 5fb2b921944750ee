/**
 * A transformer workload fine-tuned with LoRA or QLoRA adapters (core/workload/finetune.ts). Pure.
 *
 * Every targeted linear node of a block gains its adapter as two GEMMs after it, x A (rows x r)
 * and (x A) B (rows x out), whose weights are the trained parameters. The base weights stay
 * frozen: their backward computes only the input gradient (one GEMM of the forward's size, not
 * two), and no gradient or optimizer state is kept for them. Under QLoRA the blocks' linear
 * weights are stored in NF4 and each is dequantised to the compute dtype when it runs: a node
 * before each frozen GEMM, priced as an elementwise pass over the weight (2 bytes read and written
 * per weight: the real kernel reads half a byte, so the pass is an upper bound of its traffic).
 * Embeddings, norms and the LM head are not quantised (bitsandbytes skips them): they stay in the
 * compute dtype, or in fp32 where the stack upcasts them (PEFT's prepare_model_for_kbit_training).
 *
 * Target names map onto the catalog's block nodes: q, k, v onto the fused attn.qkv (by their
 * widths), or under multi-head latent attention q onto attn.q / q_a / q_b and k, v onto
 * attn.kv_a / kv_b; o onto attn.out; gate, up, down onto mlp.gate / up / down, the routed and
 * shared experts' too; a GELU MLP's fc and proj are up and down (it has no gate).
 */
import { UserError } from '../errors.js';
import { makeKernel } from '../kernels/cost.js';
import { DTYPE_BYTES } from '../domain/dtypes.js';
import type { WorkloadNode } from '../workload/types.js';
import {
  FINETUNE_STACKS,
  LORA_TARGETS,
  NF4_BYTES_PER_PARAM,
  type FinetuneSpec,
  type LoraTarget,
} from '../workload/finetune.js';
import type { CatalogLayer } from './builder.js';
import type { TransformerEntry } from './schema.js';
import { isBlockName } from './block-names.js';
import { kvWidth } from './transformer.js';

export interface FinetunedWorkload {
  nodes: WorkloadNode[];
  layers: CatalogLayer[];
}

/** The targets of a linear node (by its name inside a block), each with its output width; [] when untargetable. */
function nodeTargets(e: TransformerEntry, local: string, outF: number): { target: LoraTarget; out: number }[] {
  const kv = kvWidth(e);
  switch (local) {
    case 'attn.qkv':
      return [
        { target: 'q', out: outF - 2 * kv },
        { target: 'k', out: kv },
        { target: 'v', out: kv },
      ];
    case 'attn.q':
    case 'attn.q_a':
    case 'attn.q_b':
      return [{ target: 'q', out: outF }];
    case 'attn.kv_a':
    case 'attn.kv_b':
      return [{ target: 'k', out: outF }];
    case 'attn.out':
      return [{ target: 'o', out: outF }];
    case 'mlp.fc':
      return [{ target: 'up', out: outF }];
    case 'mlp.proj':
      return [{ target: 'down', out: outF }];
    default: {
      const m = /^mlp\.(?:experts\.|shared\.)?(gate|up|down)$/.exec(local);
      return m ? [{ target: m[1] as LoraTarget, out: outF }] : [];
    }
  }
}

/** The targets this entry's blocks can take: a GELU MLP has no gate. */
export function availableTargets(e: TransformerEntry): LoraTarget[] {
  return LORA_TARGETS.filter((t) => t !== 'gate' || e.mlp === 'swiglu');
}

/** One line when a target is not in the model: the targets it has. */
function checkTargets(e: TransformerEntry, spec: FinetuneSpec): void {
  const has = availableTargets(e);
  const missing = spec.targets.filter((t) => !has.includes(t));
  if (missing.length > 0)
    throw new UserError(
      `--targets ${missing.join(',')}: ${e.title} has no ${missing.join(', ')} projection (its LoRA targets: ${has.join(',')})`,
    );
}

interface LinearShape {
  rows: number;
  inF: number;
  outF: number;
  /** Experts a grouped GEMM holds (1 for a plain linear). */
  groups: number;
}

function linearShape(n: WorkloadNode): LinearShape | null {
  if (n.kernel?.op !== 'MatMul' && n.kernel?.op !== 'Gemm') return null;
  const weight = n.inputs.find((t) => t.name === `${n.name}.weight`);
  if (!weight || n.params === 0) return null;
  const dims = weight.dims;
  const outF = dims[dims.length - 1] ?? 0;
  const inF = dims[dims.length - 2] ?? 0;
  const groups = dims.length === 3 ? (dims[0] ?? 1) : 1;
  return { rows: n.kernel.shape.M ?? 0, inF, outF, groups };
}

function gemmNode(
  name: string,
  dtype: WorkloadNode['dtype'],
  m: number,
  n: number,
  k: number,
  params: number,
): WorkloadNode {
  const kernel = makeKernel('MatMul', dtype, { B: 1, M: m, N: n, K: k });
  const out = { name: `${name}.out`, dims: [m, n], dtype };
  return {
    name,
    opType: 'MatMul',
    family: kernel.family,
    kernel: { op: kernel.op, shape: kernel.shape },
    dtype,
    inputs: [{ name: `${name}.weight`, dims: [k, n], dtype }],
    outputs: [out],
    flops: kernel.flops,
    bytes: kernel.bytes,
    params,
    activationBytes: m * n * DTYPE_BYTES[dtype],
  };
}

/** The adapter GEMMs of one targeted linear node: x A then (x A) B per target, each over the node's rows. */
function adapterNodes(
  n: WorkloadNode,
  s: LinearShape,
  targets: { target: LoraTarget; out: number }[],
  r: number,
): WorkloadNode[] {
  const dtype = n.dtype === 'fp8' ? 'bf16' : n.dtype;
  return targets.flatMap(({ target, out }) => [
    gemmNode(`${n.name}.lora_${target}.a`, dtype, s.rows, r, s.inF, s.groups * s.inF * r),
    gemmNode(`${n.name}.lora_${target}.b`, dtype, s.rows, out, r, s.groups * r * out),
  ]);
}

/** QLoRA's dequantisation of a frozen weight to the compute dtype, as an elementwise pass over it. */
function dequantNode(n: WorkloadNode, s: LinearShape): WorkloadNode {
  const dtype = n.dtype === 'fp8' ? 'bf16' : n.dtype;
  const elements = s.groups * s.inF * s.outF;
  const kernel = makeKernel('Relu', dtype, { n: elements });
  return {
    name: `${n.name}.dequant`,
    opType: 'DequantizeNF4',
    family: kernel.family,
    kernel: { op: kernel.op, shape: kernel.shape },
    dtype,
    inputs: [],
    outputs: [{ name: `${n.name}.dequant.out`, dims: [elements], dtype }],
    flops: kernel.flops,
    bytes: kernel.bytes,
    params: 0,
    activationBytes: 0,
  };
}

/**
 * The workload's nodes and layers with adapters on the spec's targets (checked against the
 * entry). Layer params then include the adapters; `finetune` says which are trained and what
 * the frozen weights take in memory.
 */
export function withAdapters(
  e: TransformerEntry,
  w: { nodes: WorkloadNode[]; layers: CatalogLayer[] },
  spec: FinetuneSpec,
): FinetunedWorkload {
  checkTargets(e, spec);
  const wanted = new Set(spec.targets);
  const nodes: FinetunedWorkload['nodes'] = [];
  const layers = w.layers.map((layer) => {
    const first = nodes.length;
    const inBlock = isBlockName(layer.name);
    let adapterParams = 0;
    let quantized = 0;
    for (const i of layer.nodes) {
      const n = w.nodes[i] as WorkloadNode;
      const s = inBlock ? linearShape(n) : null;
      if (!s) {
        nodes.push(n);
        continue;
      }
      if (spec.adapter === 'qlora') {
        nodes.push({ ...dequantNode(n, s), finetune: 'dequant' });
        quantized += s.groups * s.inF * s.outF;
      }
      nodes.push({ ...n, finetune: 'frozen' });
      const local = n.name.slice(layer.name.length + 1);
      const targets = nodeTargets(e, local, s.outF).filter((t) => wanted.has(t.target));
      const adapters = adapterNodes(n, s, targets, spec.rank).map((a) => ({ ...a, finetune: 'adapter' as const }));
      adapterParams += adapters.reduce((sum, a) => sum + a.params, 0);
      nodes.push(...adapters);
    }
    const own = nodes.slice(first);
    const sum = (f: (n: WorkloadNode) => number): number => own.reduce((s, n) => s + f(n), 0);
    const frozenParams = layer.params;
    const elementBytes = DTYPE_BYTES[own[0]?.dtype === 'fp32' ? 'fp32' : 'bf16'];
    // QLoRA's stack may hold what it leaves unquantised wider (PEFT upcasts it to fp32).
    const unquantized = spec.adapter === 'qlora' ? FINETUNE_STACKS[spec.stack].unquantizedFrozenBytes : elementBytes;
    const frozenBytes = quantized * NF4_BYTES_PER_PARAM + (frozenParams - quantized) * unquantized;
    return {
      ...layer,
      nodes: own.map((_, k) => first + k),
      flops: sum((n) => n.flops),
      bytes: sum((n) => n.bytes),
      params: frozenParams + adapterParams,
      // A frozen GEMM's backward is its input gradient only; QLoRA dequantises again for it.
      backwardFlops: sum((n) => (n.finetune === 'frozen' || n.finetune === 'dequant' ? 1 : 2) * n.flops),
      finetune: { adapterParams, frozenParams, frozenBytes },
    };
  });
  return { nodes, layers };
}

/** PEFT module names per architecture where they are not Llama's (q_proj ... down_proj). */
const PEFT_NAMES: Readonly<Record<string, Partial<Record<LoraTarget, string[]>>>> = {
  gpt2: { q: ['c_attn'], k: ['c_attn'], v: ['c_attn'], o: ['attn.c_proj'], up: ['c_fc'], down: ['mlp.c_proj'] },
  bert: {
    q: ['query'],
    k: ['key'],
    v: ['value'],
    o: ['attention.output.dense'],
    up: ['intermediate.dense'],
    down: ['output.dense'],
  },
  gpt_neox: {
    q: ['query_key_value'],
    k: ['query_key_value'],
    v: ['query_key_value'],
    o: ['attention.dense'],
    up: ['dense_h_to_4h'],
    down: ['dense_4h_to_h'],
  },
  phi3: { q: ['qkv_proj'], k: ['qkv_proj'], v: ['qkv_proj'], gate: ['gate_up_proj'], up: ['gate_up_proj'] },
  deepseek: {
    q: ['q_a_proj', 'q_b_proj', 'q_proj'],
    k: ['kv_a_proj_with_mqa', 'kv_b_proj'],
    v: ['kv_a_proj_with_mqa', 'kv_b_proj'],
  },
};

/** The architecture a catalog family or a config.json's model_type names, as PEFT_NAMES keys it. */
function peftArchitecture(family: string): string {
  const type = family.startsWith('config.json ') ? family.slice('config.json '.length) : family.toLowerCase();
  if (type === 'gpt-2' || type === 'gpt2') return 'gpt2';
  if (type === 'bert' || type === 'roberta') return 'bert';
  if (type.startsWith('deepseek')) return 'deepseek';
  return type;
}

/** PEFT's target_modules for the targets, in the architecture's own module names. */
export function peftTargetModules(family: string, targets: readonly LoraTarget[]): string[] {
  const names = PEFT_NAMES[peftArchitecture(family)] ?? {};
  const modules = targets.flatMap((t) => names[t] ?? [`${t}_proj`]);
  return [...new Set(modules)];
}
