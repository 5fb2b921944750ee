/**
 * Parameter-efficient fine-tuning (LoRA, QLoRA) as a plan sees it: which linear layers get
 * adapters, their rank, and how the frozen base is stored. Pure.
 *
 * LoRA (Hu et al. 2021): each targeted linear W (in x out) stays frozen and gains A (in x r) and
 * B (r x out), trained; its output is W x + (alpha / r) B A x. QLoRA (Dettmers et al. 2023) stores
 * the frozen linear weights of the blocks in 4-bit NormalFloat with double-quantised block
 * constants and dequantises each to bf16 when it runs (forward, recomputation and backward).
 */

/** Target names as PEFT users write them, shortened: q_proj -> q, gate_proj -> gate. */
export const LORA_TARGETS = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] as const;
export type LoraTarget = (typeof LORA_TARGETS)[number];

export type AdapterKind = 'lora' | 'qlora';

export interface FinetuneSpec {
  adapter: AdapterKind;
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

/**
 * Bytes per trained adapter parameter: fp32 weight (4), fp32 gradient (4) and Adam's two fp32
 * moments (8), as PEFT keeps adapters under mixed precision.
 */
export const ADAPTER_BYTES_PER_PARAM = 16;

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
