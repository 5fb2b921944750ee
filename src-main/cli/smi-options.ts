/** The nvidia-smi options `probe` and `doctor` share, and their parsing. */
import { quoted } from '../core/text/shown.js';
import { UsageError } from '../core/errors.js';
import type { OptionSpec, ParsedOptions } from './command.js';

export const SMI_OPTIONS: Record<string, OptionSpec> = {
  'nvidia-smi': { type: 'string', valueName: 'PATH', description: 'nvidia-smi binary to run' },
  timeout: { type: 'string', valueName: 'SECONDS', description: 'limit for each nvidia-smi call (default 5)' },
};

/** --nvidia-smi and --timeout (seconds, more than 0 and at most 600) as probe options. */
export function smiOptions(command: string, opts: ParsedOptions): { smiPath?: string; timeoutMs?: number } {
  const out: { smiPath?: string; timeoutMs?: number } = {};
  if (typeof opts.timeout === 'string') {
    const s = Number(opts.timeout);
    if (!/^[0-9.]+$/.test(opts.timeout) || !Number.isFinite(s) || s <= 0 || s > 600)
      throw new UsageError(
        `${command}: --timeout takes seconds, more than 0 and at most 600; got ${quoted(opts.timeout)}`,
      );
    out.timeoutMs = s * 1000;
  }
  if (typeof opts['nvidia-smi'] === 'string') out.smiPath = opts['nvidia-smi'];
  return out;
}
