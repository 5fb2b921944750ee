/** Strict option parsing on node:util parseArgs: unknown options are usage errors. */
import { parseArgs } from 'node:util';
import { QUOTED_MAX_CHARS, cut, quoted } from '../core/text/shown.js';
import { UsageError } from '../core/errors.js';
import type { Command, OptionSpec, ParsedOptions } from './command.js';

export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: 'print machine-readable JSON on stdout' },
  db: {
    type: 'string',
    valueName: 'PATH',
    description: 'database file (default: $PIPEDEJAVU_DB or the user data directory)',
  },
  help: { type: 'boolean', short: 'h', description: 'show help for this command' },
};

export function parseCommandArgs(cmd: Command, argv: string[]): { opts: ParsedOptions; positionals: string[] } {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const [name, spec] of Object.entries({ ...GLOBAL_OPTIONS, ...cmd.options })) {
    options[name] = { type: spec.type, ...(spec.short ? { short: spec.short } : {}) };
    if (spec.type === 'string' && 'multiple' in spec && spec.multiple) options[name].multiple = true;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(`${cmd.name}: ${parseFailure(e, argv)}`);
  }
  const opts = parsed.values as ParsedOptions;
  if (opts.help) return { opts, positionals: parsed.positionals };
  const pos = cmd.positionals ?? { min: 0, max: 0, names: '' };
  if (parsed.positionals.length < pos.min) throw new UsageError(`${cmd.name}: missing ${pos.names}`);
  if (parsed.positionals.length > pos.max) {
    throw new UsageError(`${cmd.name}: unexpected argument ${quoted(parsed.positionals[pos.max])}`);
  }
  return { opts, positionals: parsed.positionals };
}

/** parseArgs' complaint in one line; a value starting with "-" (`--seq -1`) is named with its option. */
function parseFailure(e: unknown, argv: string[]): string {
  const msg = e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e);
  const ambiguous = /^Option '(--[\w-]+)' argument is ambiguous/.exec(msg);
  if (ambiguous) {
    const option = ambiguous[1]!;
    const value = argv[argv.indexOf(option) + 1] ?? '';
    return `${option} was given ${quoted(value)}, which reads as an option; write ${option}=${cut(value, QUOTED_MAX_CHARS)} to pass it as the value`;
  }
  // An unknown option is named as typed: cut like any echoed value.
  return msg
    .replace(/\. To specify a positional.*$/, '')
    .replace(/'([^']*)'/g, (_, name: string) => `'${cut(name, QUOTED_MAX_CHARS)}'`);
}

export function helpText(cmd: Command): string {
  const all = { ...cmd.options, ...GLOBAL_OPTIONS };
  const lines = Object.entries(all).map(([name, spec]) => {
    const value = spec.type === 'string' ? ` ${('valueName' in spec && spec.valueName) || 'VALUE'}` : '';
    const short = spec.short ? `-${spec.short}, ` : '    ';
    return `  ${short}--${name}${value}`.padEnd(34) + spec.description;
  });
  return [
    `Usage: pipedejavu ${cmd.name} ${cmd.usage}`.trimEnd(),
    '',
    cmd.summary,
    ...(cmd.details ? ['', cmd.details] : []),
    '',
    'Options:',
    ...lines,
  ].join('\n');
}
