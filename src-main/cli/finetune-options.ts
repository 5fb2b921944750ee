/** `--mode finetune` and its options (`plan`, `fit`): the adapter, its rank, alpha and targets. */
import { UsageError } from '../core/errors.js';
import {
  ADAPTER_KINDS,
  FINETUNE_STACK_NAMES,
  parseLoraTargets,
  type FinetuneRequest,
} from '../core/workload/finetune.js';
import { FINETUNE_REQUEST } from '../core/workload/request-schemas.js';
import type { OptionSpec, ParsedOptions } from './command.js';
import { positiveInt } from './workload-options.js';
import { REQUEST_LIMITS } from '../core/workload/limits.js';
import { quoted } from '../core/text/shown.js';
import { series } from '../core/text/series.js';

export const FINETUNE_OPTIONS = {
  adapter: {
    type: 'string',
    valueName: 'KIND',
    description: '--mode finetune: lora (frozen base in its dtype) or qlora (frozen base in 4-bit NF4)',
  },
  rank: { type: 'string', valueName: 'R', description: '--mode finetune: LoRA rank (default 16)' },
  alpha: { type: 'string', valueName: 'A', description: '--mode finetune: LoRA alpha (default 2 x rank)' },
  stack: {
    type: 'string',
    valueName: 'TOOL',
    description:
      'the tool that runs the plan. Training: megatron, torchtitan, fsdp or deepspeed (default: any of them); the search keeps to what it runs, gradients are priced as it overlaps them and the exports are its launcher. --mode finetune: the tool whose memory to plan, peft (default: PEFT + Trainer, what the exports run), torchtune or unsloth',
  },
  targets: {
    type: 'string',
    valueName: 'LIST',
    description:
      '--mode finetune: layers with adapters, q,k,v,o,gate,up,down or PEFT names (default: all the model has)',
  },
} satisfies Record<string, OptionSpec>;

/**
 * The fine-tuning options as a request (`plan --mode finetune`): the adapter, rank, alpha, targets
 * and stack, each read but not checked (FINETUNE_REQUEST checks them); null for another mode, whose
 * fine-tuning options are refused.
 */
export function finetuneOptions(opts: ParsedOptions, mode: string): Record<string, unknown> | null {
  // --stack names a training stack outside --mode finetune (plan-request-options.ts reads it there).
  const given = ['adapter', 'rank', 'alpha', 'targets'].filter((k) => typeof opts[k] === 'string');
  if (mode !== 'finetune') {
    if (given.length > 0) throw new UsageError(`--${given[0] ?? 'adapter'} is for --mode finetune`);
    return null;
  }
  let targets: FinetuneRequest['targets'];
  try {
    targets = typeof opts.targets === 'string' ? parseLoraTargets(opts.targets) : undefined;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return {
    adapter: opts.adapter,
    ...(typeof opts.rank === 'string' ? { rank: positiveInt('--rank', opts.rank, REQUEST_LIMITS.rank) } : {}),
    ...(typeof opts.alpha === 'string' ? { alpha: Number(opts.alpha) } : {}),
    ...(targets ? { targets } : {}),
    ...(typeof opts.stack === 'string' ? { stack: opts.stack } : {}),
  };
}

/** The line when FINETUNE_REQUEST refuses what `path` names of the options' request. */
export function finetuneRefusal(opts: ParsedOptions, path: readonly PropertyKey[]): string {
  const { min, max } = REQUEST_LIMITS.alpha;
  switch (path[0]) {
    case 'adapter':
      return `--mode finetune needs --adapter ${series(ADAPTER_KINDS)}${typeof opts.adapter === 'string' ? `; got ${quoted(opts.adapter)}` : ''}`;
    case 'alpha':
      return `--alpha takes a number above ${min}, at most ${max}; got ${quoted(opts.alpha)}`;
    default:
      return `--stack takes ${FINETUNE_STACK_NAMES.join(', ')}; got ${quoted(opts.stack)}`;
  }
}

/** The fine-tuning request of `--mode finetune`, checked; null for another mode (its options then refused). */
export function finetuneRequest(opts: ParsedOptions, mode: string): FinetuneRequest | null {
  const given = finetuneOptions(opts, mode);
  if (!given) return null;
  const r = FINETUNE_REQUEST.safeParse(given);
  if (!r.success) throw new UsageError(finetuneRefusal(opts, r.error.issues[0]?.path ?? []));
  return r.data;
}
