/** `--mode finetune` and its options (`plan`, `fit`): the adapter, its rank, alpha and targets. */
import { UsageError } from '../core/errors.js';
import {
  FINETUNE_STACK_NAMES,
  parseLoraTargets,
  type FinetuneRequest,
  type FinetuneStack,
} from '../core/workload/finetune.js';
import type { OptionSpec, ParsedOptions } from './command.js';
import { positiveInt } from './workload-options.js';
import { REQUEST_LIMITS } from '../core/workload/limits.js';
import { quoted } from '../core/text/shown.js';

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
      '--mode finetune: the tool whose memory to plan, peft (default: PEFT + Trainer, what the exports run), torchtune or unsloth',
  },
  targets: {
    type: 'string',
    valueName: 'LIST',
    description:
      '--mode finetune: layers with adapters, q,k,v,o,gate,up,down or PEFT names (default: all the model has)',
  },
} satisfies Record<string, OptionSpec>;

/** The fine-tuning request of `--mode finetune`; null for another mode (its options then refused). */
export function finetuneRequest(opts: ParsedOptions, mode: string): FinetuneRequest | null {
  const given = ['adapter', 'rank', 'alpha', 'targets', 'stack'].filter((k) => typeof opts[k] === 'string');
  if (mode !== 'finetune') {
    if (given.length > 0) throw new UsageError(`--${given[0] ?? 'adapter'} is for --mode finetune`);
    return null;
  }
  const adapter = opts.adapter;
  if (adapter !== 'lora' && adapter !== 'qlora')
    throw new UsageError(
      `--mode finetune needs --adapter lora or qlora${typeof adapter === 'string' ? `; got ${quoted(adapter)}` : ''}`,
    );
  const alpha = typeof opts.alpha === 'string' ? Number(opts.alpha) : undefined;
  const { min, max } = REQUEST_LIMITS.alpha;
  if (alpha !== undefined && !(alpha > min && alpha <= max))
    throw new UsageError(`--alpha takes a number above ${min}, at most ${max}; got ${quoted(opts.alpha)}`);
  const stack = typeof opts.stack === 'string' ? opts.stack : undefined;
  if (stack !== undefined && !(FINETUNE_STACK_NAMES as readonly string[]).includes(stack))
    throw new UsageError(`--stack takes ${FINETUNE_STACK_NAMES.join(', ')}; got ${quoted(stack)}`);
  let targets: FinetuneRequest['targets'];
  try {
    targets = typeof opts.targets === 'string' ? parseLoraTargets(opts.targets) : undefined;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return {
    adapter,
    ...(typeof opts.rank === 'string' ? { rank: positiveInt('--rank', opts.rank, REQUEST_LIMITS.rank) } : {}),
    ...(alpha !== undefined ? { alpha } : {}),
    ...(targets ? { targets } : {}),
    ...(stack ? { stack: stack as FinetuneStack } : {}),
  };
}
