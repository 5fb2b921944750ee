/**
 * The fine-tuning part of the plan form (LoRA/QLoRA adapters) turned into `plan:create`'s
 * `finetune`, and the plan header's one-line description of what was planned. Pure.
 */
import { MAX_LORA_RANK, type ApiRequest } from '../../../src-main/api/contract.js';
import type { PlanView } from '../../../src-main/api/view-models.js';

export type FinetuneRequest = NonNullable<ApiRequest<'plan:create'>['finetune']>;
export type LoraTarget = NonNullable<FinetuneRequest['targets']>[number];
export type FinetuneStack = NonNullable<FinetuneRequest['stack']>;
export type FinetuneSpec = NonNullable<PlanView['finetune']>;

export interface FinetuneForm {
  adapter: FinetuneRequest['adapter'];
  /** LoRA's r (a number input: a number, or a string or null when edited by hand). */
  rank: number | string | null;
  /** Empty for the default, 2 x rank. */
  alpha: number | string | null;
  /** The linear layers that get adapters; none: every one the model has. */
  targets: LoraTarget[];
  stack: FinetuneStack;
}

export const DEFAULT_FINETUNE_FORM: Readonly<FinetuneForm> = {
  adapter: 'lora',
  rank: 16,
  alpha: '',
  targets: [],
  stack: 'peft',
};

const ADAPTER_LABEL: Readonly<Record<FinetuneForm['adapter'], string>> = { lora: 'LoRA', qlora: 'QLoRA' };
export const STACK_LABEL: Readonly<Record<FinetuneStack, string>> = {
  peft: 'PEFT',
  torchtune: 'torchtune',
  unsloth: 'Unsloth',
};

const isEmpty = (v: number | string | null): boolean => v === null || (typeof v === 'string' && v.trim() === '');
const toNumber = (v: number | string): number => (typeof v === 'number' ? v : Number(v.trim()));

/** The request's `finetune`, or one line naming what would work. */
export function finetuneFields(f: FinetuneForm): FinetuneRequest | string {
  const rank = isEmpty(f.rank) ? NaN : toNumber(f.rank as number | string);
  if (!Number.isInteger(rank) || rank < 1 || rank > MAX_LORA_RANK)
    return `Rank: a whole number from 1 to ${MAX_LORA_RANK} (16 is usual).`;
  const out: FinetuneRequest = { adapter: f.adapter, rank, stack: f.stack };
  if (!isEmpty(f.alpha)) {
    const alpha = toNumber(f.alpha as number | string);
    if (!(alpha > 0 && alpha <= 1e6)) return 'Alpha: a number above 0 (or empty for 2 × rank).';
    out.alpha = alpha;
  }
  if (f.targets.length > 0) out.targets = [...f.targets];
  return out;
}

/** "QLoRA r16 α32 on q,k,v,o,gate,up,down · PEFT". */
export function finetuneText(s: FinetuneSpec): string {
  return `${ADAPTER_LABEL[s.adapter]} r${s.rank} α${s.alpha} on ${s.targets.join(',')} · ${STACK_LABEL[s.stack]}`;
}
