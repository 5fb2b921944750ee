/**
 * Parameter-efficient fine-tuning (LoRA, QLoRA) as a plan sees it: which linear layers get
 * adapters, their rank, and how the frozen base is stored. Pure.
 *
 * LoRA (Hu et al. 2021): each targeted linear W (in x out) stays frozen and gains A (in x r) and
 * B (r x out), trained; its output is W x + (alpha / r) B A x. QLoRA (Dettmers et al. 2023) stores
 * the frozen linear weights of the blocks in 4-bit NormalFloat with double-quantised block
 * constants and dequantises each to bf16 when it runs (forward, recomputation and backward).
 */
import { quoted } from '../text/shown.js';
import { UserError } from '../errors.js';

/** Target names as PEFT users write them, shortened: q_proj -> q, gate_proj -> gate. */
export const LORA_TARGETS = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] as const;
export type LoraTarget = (typeof LORA_TARGETS)[number];

/** LoRA (a frozen base in its dtype) or QLoRA (a frozen base in 4-bit NF4). */
export const ADAPTER_KINDS = ['lora', 'qlora'] as const;
export type AdapterKind = (typeof ADAPTER_KINDS)[number];

/**
 * The tool that runs the fine-tuning: what it keeps in GPU memory differs by twice for the same
 * job (bench/finetune/README.md). 'peft': transformers' Trainer with PEFT and bitsandbytes, what
 * the exports write; 'torchtune'; 'unsloth'. One `as const` table (FINETUNE_STACKS, below) their
 * names and type derive from.
 */
interface StackMemory {
  title: string;
  /** Bytes per adapter parameter: its weight, its gradient, the optimizer's state. */
  adapterWeightBytes: number;
  adapterGradBytes: number;
  adapterOptimizerBytes: number;
  /** QLoRA: bytes of each frozen parameter left unquantised (embeddings, norms, LM head). */
  unquantizedFrozenBytes: number;
  /** Bytes per logit (token x vocabulary entry) the loss holds at its peak. */
  logitBytes: number;
  /** Checkpointed block inputs stay on the GPU (false: offloaded to host memory). */
  checkpointsOnDevice: boolean;
}

/**
 * What each stack keeps (sources in bench/finetune/README.md):
 * - peft: LoRA A/B in fp32 (PEFT's autocast_adapter_dtype) with fp32 gradients and AdamW's fp32
 *   moments; prepare_model_for_kbit_training upcasts what QLoRA leaves unquantised to fp32; the
 *   loss holds bf16 logits, their fp32 upcast and its log-softmax (2 + 4 + 4 bytes a logit).
 * - torchtune: the whole model in bf16, adapters and AdamW state too (2 + 2 + 4); chunked
 *   cross-entropy: bf16 logits plus one fp32 chunk of eight at a time (2 + 8 / 8).
 * - unsloth: bf16 adapters with 8-bit AdamW (2 + 2 + 2); cut cross-entropy holds no logits;
 *   checkpointed block inputs offloaded to host memory.
 */
export const FINETUNE_STACKS = {
  peft: {
    title: 'PEFT + transformers Trainer (bitsandbytes for QLoRA)',
    adapterWeightBytes: 4,
    adapterGradBytes: 4,
    adapterOptimizerBytes: 8,
    unquantizedFrozenBytes: 4,
    logitBytes: 10,
    checkpointsOnDevice: true,
  },
  torchtune: {
    title: 'torchtune',
    adapterWeightBytes: 2,
    adapterGradBytes: 2,
    adapterOptimizerBytes: 4,
    unquantizedFrozenBytes: 2,
    logitBytes: 3,
    checkpointsOnDevice: true,
  },
  unsloth: {
    title: 'Unsloth',
    adapterWeightBytes: 2,
    adapterGradBytes: 2,
    adapterOptimizerBytes: 2,
    unquantizedFrozenBytes: 2,
    logitBytes: 0,
    checkpointsOnDevice: false,
  },
} as const satisfies Record<string, StackMemory>;

export type FinetuneStack = keyof typeof FINETUNE_STACKS;
/** Every stack, the default (peft) first. */
export const FINETUNE_STACK_NAMES = Object.keys(FINETUNE_STACKS) as [FinetuneStack, ...FinetuneStack[]];

/** Bytes a stack keeps per adapter parameter: weight, gradient and optimizer state. */
export function adapterBytesPerParam(stack: FinetuneStack): number {
  const m = FINETUNE_STACKS[stack];
  return m.adapterWeightBytes + m.adapterGradBytes + m.adapterOptimizerBytes;
}

export interface FinetuneSpec {
  adapter: AdapterKind;
  /** The tool that runs it (default 'peft'): its memory rules (FINETUNE_STACKS). */
  stack: FinetuneStack;
  /** LoRA rank r (1 to 1024). */
  rank: number;
  /** LoRA alpha (default 2 x rank, as Unsloth and axolotl examples use). */
  alpha: number;
  /** The linear layers that get adapters (default: all seven). */
  targets: LoraTarget[];
}

/**
 * Bytes per frozen weight in NF4 with double quantisation (QLoRA paper, section 3): 4 bits, plus
 * one 8-bit absmax per 64 weights, plus one fp32 constant per 256 of those: 0.5 + 1/64 + 4/16384.
 */
export const NF4_BYTES_PER_PARAM = 0.5 + 1 / 64 + 4 / (64 * 256);

export const MAX_LORA_RANK = 1024;

/** The PEFT module names a target stands for, per architecture family (for exports and messages). */
export const PEFT_MODULE_NAMES: Readonly<Record<LoraTarget, string>> = {
  q: 'q_proj',
  k: 'k_proj',
  v: 'v_proj',
  o: 'o_proj',
  gate: 'gate_proj',
  up: 'up_proj',
  down: 'down_proj',
};

/** A fine-tuning request as the CLI and the app give it: rank, alpha and targets may be left to their defaults. */
export interface FinetuneRequest {
  adapter: AdapterKind;
  stack?: FinetuneStack;
  rank?: number;
  alpha?: number;
  targets?: LoraTarget[];
}

const DEFAULT_LORA_RANK = 16;

/**
 * The spec of a request: rank 16 and alpha 2 x rank by default, and every target the model has
 * (`available`, PEFT's "all-linear") when none are named. One line (Error) for a rank or alpha out
 * of range; targets the model lacks are refused where the model is known (core/catalog/lora.ts).
 */
export function finetuneSpec(r: FinetuneRequest, available: readonly LoraTarget[]): FinetuneSpec {
  const rank = r.rank ?? DEFAULT_LORA_RANK;
  if (!Number.isSafeInteger(rank) || rank < 1 || rank > MAX_LORA_RANK)
    throw new UserError(`--rank must be a whole number from 1 to ${MAX_LORA_RANK}, got ${String(rank)}`);
  const alpha = r.alpha ?? 2 * rank;
  if (!(alpha > 0 && alpha <= 1e6)) throw new UserError(`--alpha must be a number above 0, got ${String(alpha)}`);
  const targets = r.targets && r.targets.length > 0 ? [...new Set(r.targets)] : [...available];
  return { adapter: r.adapter, stack: r.stack ?? 'peft', rank, alpha, targets };
}

/** "q,k,v,o" or PEFT's names ("q_proj,v_proj"), or "all" (undefined: every target the model has). */
export function parseLoraTargets(text: string): LoraTarget[] | undefined {
  const items = text
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  if (items.length === 1 && (items[0] === 'all' || items[0] === 'all-linear')) return undefined;
  if (items.length === 0) throw new UserError(`--targets takes ${LORA_TARGETS.join(',')} or all`);
  return items.map((t) => {
    const short = t.replace(/_proj$/, '');
    if (!(LORA_TARGETS as readonly string[]).includes(short))
      throw new UserError(
        `--targets: ${quoted(t)} is not a LoRA target here; use ${LORA_TARGETS.join(',')} (or PEFT's q_proj...down_proj, or all)`,
      );
    return short as LoraTarget;
  });
}
