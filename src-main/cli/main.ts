/**
 * CLI dispatch: `pipedejavu <command> [options]`. Exit 0 on success; on failure one
 * line on stderr ("pipedejavu: error: ...") and exit 1 (2 for usage errors).
 */
import { TOOL_VERSION } from '../core/version.js';
import { StoreError, environmentFailure } from '../adapters/store/errors.js';
import { printable } from '../core/text/printable.js';
import { quoted, shown } from '../core/text/shown.js';
import { errorMessage, UsageError, UserError } from '../core/errors.js';
import { helpText, parseCommandArgs } from './args.js';
import type { Command } from './command.js';
import { CliContext, type CliIo } from './context.js';
import { COMMANDS } from './commands/index.js';
import { editDistance } from '../core/text/edit-distance.js';

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
    'Global options: --json (machine-readable output and errors), --db PATH (database file), --help, -v/--version',
    'Shell completion: pipedejavu completion bash|zsh|fish (see pipedejavu completion --help)',
  ].join('\n');
}

/** What kind of failure an error is; under --json it is the error's `code`. */
export type CliErrorCode = 'usage' | 'user' | 'store' | 'environment' | 'internal';

/**
 * Reports a failure on stderr in one line and gives the exit code: `pipedejavu: error: ...`, or
 * under --json `{"error": {"code": ..., "message": ...}}`. A newline in a file name or label
 * must not start a line of its own.
 */
function failure(io: CliIo, json: boolean): (code: CliErrorCode, message: string, exitCode: number) => number {
  return (code, message, exitCode) => {
    // JSON escapes newlines itself, and io.stderr writes what is left unsafe as JSON's own \u escapes.
    if (json) {
      io.stderr(`${JSON.stringify({ error: { code, message } })}\n`);
      return exitCode;
    }
    const line = shown(message);
    if (code === 'internal') io.stderr(`pipedejavu: internal error: ${line} (this is a bug; please report it)\n`);
    else io.stderr(`pipedejavu: error: ${line}\n`);
    return exitCode;
  };
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
  if (name === '--version' || name === '-v' || name === '-V') {
    io.stdout(`${TOOL_VERSION}\n`);
    return 0;
  }
  let ctx: CliContext | null = null;
  // --json anywhere (a usage error may come before the options are parsed): errors as JSON too.
  const fail = failure(io, rest.includes('--json'));
  try {
    const cmd = commands.find((c) => c.name === name);
    if (!cmd) {
      const near = commands.find((c) => editDistance(c.name, name) <= 2 || c.name.startsWith(name));
      throw new UsageError(
        `unknown command ${quoted(name)}${near ? ` (did you mean "${near.name}"?)` : ''}; see pipedejavu --help`,
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
    if (e instanceof UserError) return fail(e.exitCode === 2 ? 'usage' : 'user', e.message, e.exitCode);
    if (e instanceof StoreError) return fail('store', e.message, 1);
    const env = ctx ? environmentFailure(e, ctx.dbPath) : null;
    if (env) return fail('environment', env, 1);
    const code = fail('internal', errorMessage(e), 1);
    if (io.env.PIPEDEJAVU_DEBUG && e instanceof Error && e.stack) io.stderr(`${e.stack}\n`);
    return code;
  } finally {
    ctx?.close();
  }
}
