/**
 * `--predictor NAME`: which execution-time predictor a command trains or exports. Its old name,
 * `--model`, still works and prints one deprecation line on stderr ("model" is the network).
 */
import { UsageError } from '../core/errors.js';
import type { OptionSpec, ParsedOptions } from './command.js';
import type { CliContext } from './context.js';

/** The deprecated alias's spec, listed in --help so old scripts' flag is explained. */
export const DEPRECATED_MODEL_OPTION: OptionSpec = {
  type: 'string',
  valueName: 'NAME',
  description: 'deprecated: use --predictor',
};

/** The predictor named by `--predictor` (or `--model`, with a notice), and the flag that named it. */
export function predictorOption(ctx: CliContext, opts: ParsedOptions): { name: string; flag: string } | undefined {
  if (typeof opts.model === 'string') {
    if (typeof opts.predictor === 'string') throw new UsageError('--model is the old name of --predictor: give one');
    ctx.io.stderr('--model is deprecated: use --predictor\n');
    return { name: opts.model, flag: '--model' };
  }
  return typeof opts.predictor === 'string' ? { name: opts.predictor, flag: '--predictor' } : undefined;
}
