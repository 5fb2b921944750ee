/**
 * A CLI command: its options, its help text, and a run function that receives the
 * parsed options and an output sink. Commands call services; they hold no logic of
 * their own beyond presenting results.
 */
import type { CliContext } from './context.js';

export type OptionSpec =
  | { type: 'boolean'; short?: string; description: string }
  | { type: 'string'; short?: string; description: string; valueName?: string; multiple?: boolean; default?: string };

/** A string option that takes one value: its name in the help (N, PATH) and what the option means. */
export function valueOption(valueName: string, description: string): OptionSpec {
  return { type: 'string', valueName, description };
}

export interface Command {
  name: string;
  summary: string;
  /** Usage line after "pipedejavu <name>", e.g. "[--json] [--nvidia-smi PATH]". */
  usage: string;
  /** Longer help shown by --help. */
  details?: string;
  options: Record<string, OptionSpec>;
  /** Words its first argument may be (`workload add|list|...`), for shell completion. */
  subcommands?: readonly string[];
  /** Positional arguments allowed: min and max. */
  positionals?: { min: number; max: number; names: string };
  run(ctx: CliContext, opts: ParsedOptions, positionals: string[]): Promise<void>;
}

export type ParsedOptions = Record<string, string | boolean | string[] | undefined>;
