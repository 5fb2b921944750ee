/**
 * A published training cell that trained adapters on a frozen base (config.adapter): the plan
 * request's `finetune` part, as `plan --mode finetune --adapter A --rank R --alpha A --targets T`
 * takes it. config.targets lists the adapted layers in the CLI's short names (q,k,v,o); a source's
 * fused `qkv_proj` is written q,k,v (the same GEMMs, one adapter pair over the three). The tool is
 * config.finetuneStack (peft, torchtune, unsloth; default peft: transformers' Trainer with PEFT).
 */
import {
  ADAPTER_KINDS,
  FINETUNE_STACK_NAMES,
  LORA_TARGETS,
  type AdapterKind,
  type FinetuneStack,
  type LoraTarget,
} from '../../src-main/core/workload/finetune.js';
import type { PlanRequest } from '../../src-main/services/plan/plan-service.js';
import type { Cell } from './cells.js';

type Finetune = NonNullable<PlanRequest['finetune']>;

const isIn = <T extends string>(list: readonly T[], v: string): v is T => (list as readonly string[]).includes(v);

/**
 * The cell's adapters: `{ finetune }` for a cell that states config.adapter, `{}` for one that
 * trained every weight, or the reason it cannot be planned (a string).
 */
export function finetuneOf(c: Cell): { finetune: Finetune } | Record<string, never> | string {
  const adapter = c.config['adapter'];
  if (adapter === undefined) return {};
  if (typeof adapter !== 'string' || !isIn<AdapterKind>(ADAPTER_KINDS, adapter)) return `adapter ${String(adapter)}`;
  const rank = c.config['rank'];
  if (typeof rank !== 'number') return 'the source states no LoRA rank';
  const alpha = c.config['alpha'];
  const stack = c.config['finetuneStack'] ?? 'peft';
  if (typeof stack !== 'string' || !isIn<FinetuneStack>(FINETUNE_STACK_NAMES, stack))
    return `fine-tuning stack ${String(stack)}`;
  const named = c.config['targets'];
  const targets = typeof named === 'string' ? named.split(',').map((t) => t.trim()) : [];
  const unknown = targets.find((t) => !isIn<LoraTarget>(LORA_TARGETS, t));
  if (unknown !== undefined) return `LoRA target "${unknown}"`;
  return {
    finetune: {
      adapter,
      stack,
      rank,
      ...(typeof alpha === 'number' ? { alpha } : {}),
      ...(targets.length > 0 ? { targets: targets as LoraTarget[] } : {}),
    },
  };
}
