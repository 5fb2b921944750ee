/**
 * CLI dispatch: `pipedejavu <command> [options]`. Exit 0 on success; on failure one
 * line on stderr ("pipedejavu: error: ...") and exit 1 (2 for usage errors).
 */
import { TOOL_VERSION } from '../core/version.js';
import { StoreError, environmentFailure } from '../adapters/store/errors.js';
import { printable, printableLine } from '../core/text/printable.js';
import { errorMessage, UsageError, UserError } from '../core/errors.js';
import { helpText, parseCommandArgs } from './args.js';
import type { Command } from './command.js';
import { CliContext, type CliIo } from './context.js';
import { COMMANDS } from './commands/index.js';

/** Levenshtein distance, for "did you mean" on mistyped commands. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (cur[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

function overview(commands: Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    'pipedejavu: how fast will a model run on these devices, and how should it be split?',
    '',
    'Usage: pipedejavu <command> [options]      (pipedejavu <command> --help for details)',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Global options: --json (machine-readable output), --db PATH (database file), --help, --version',
  ].join('\n');
}

export async function runCli(argv: string[], rawIo: CliIo, commands: Command[] = COMMANDS): Promise<number> {
  // Everything printed passes through printable(): no terminal control from untrusted text.
  const io: CliIo = {
    ...rawIo,
    stdout: (t) => rawIo.stdout(printable(t)),
    stderr: (t) => rawIo.stderr(printable(t)),
    terminal: rawIo.terminal ?? rawIo.stderr,
  };
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const target = name === 'help' ? commands.find((c) => c.name === rest[0]) : undefined;
    io.stdout(`${target ? helpText(target) : overview(commands)}\n`);
    return 0;
  }
  if (name === '--version' || name === '-V') {
    io.stdout(`${TOOL_VERSION}\n`);
    return 0;
  }
  let ctx: CliContext | null = null;
  try {
    const cmd = commands.find((c) => c.name === name);
    if (!cmd) {
      const near = commands.find((c) => editDistance(c.name, name) <= 2 || c.name.startsWith(name));
      throw new UsageError(
        `unknown command "${name}"${near ? ` (did you mean "${near.name}"?)` : ''}; see pipedejavu --help`,
      );
    }
    const { opts, positionals } = parseCommandArgs(cmd, rest);
    if (opts.help) {
      io.stdout(`${helpText(cmd)}\n`);
      return 0;
    }
    ctx = new CliContext(io, opts.json === true, typeof opts.db === 'string' ? opts.db : undefined);
    await cmd.run(ctx, opts, positionals);
    return 0;
  } catch (e) {
    // One line each: a newline in a file name or label must not start a line of its own.
    if (e instanceof UserError) {
      io.stderr(`pipedejavu: error: ${printableLine(e.message)}\n`);
      return e.exitCode;
    }
    if (e instanceof StoreError) {
      io.stderr(`pipedejavu: error: ${printableLine(e.message)}\n`);
      return 1;
    }
    const env = ctx ? environmentFailure(e, ctx.dbPath) : null;
    if (env) {
      io.stderr(`pipedejavu: error: ${printableLine(env)}\n`);
      return 1;
    }
    io.stderr(`pipedejavu: internal error: ${printableLine(errorMessage(e))} (this is a bug; please report it)\n`);
    if (io.env.PIPEDEJAVU_DEBUG && e instanceof Error && e.stack) io.stderr(`${e.stack}\n`);
    return 1;
  } finally {
    ctx?.close();
  }
}
