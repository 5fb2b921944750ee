/**
 * What a command runs with: where output goes, global flags, and a lazily opened
 * store. Tests build one with in-memory streams and an injected database path.
 */
import type Database from 'better-sqlite3';
import { openDatabase } from '../adapters/store/open-database.js';
import { resolveDbPath } from '../adapters/paths/data-dir.js';
import { shown } from '../core/text/shown.js';
import { textLines } from './output.js';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** True when stderr is a terminal (progress bars). */
  isTty: boolean;
  /**
   * stderr without escaping, for the CLI's own cursor control (the progress bar). runCli
   * escapes control characters in stdout and stderr; only this bypasses it.
   */
  terminal?: (text: string) => void;
  /**
   * Standard input when something is piped in (`import -`); absent when it is a terminal. A
   * function, so that a command that does not read it never opens it.
   */
  stdin?: () => AsyncIterable<Uint8Array>;
}

export class CliContext {
  private db: Database.Database | null = null;

  constructor(
    readonly io: CliIo,
    readonly json: boolean,
    private readonly dbOption: string | undefined,
  ) {}

  get dbPath(): string {
    return resolveDbPath(this.dbOption, this.io.env);
  }

  database(): Database.Database {
    if (!this.db) this.db = openDatabase(this.dbPath);
    return this.db;
  }

  print(text: string): void {
    this.io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  }

  /**
   * One line that holds outside text (a name, a reason, a warning): its control characters, newlines
   * included, are shown as escapes, so it stays one line.
   */
  printLine(text: string): void {
    this.io.stdout(`${shown(text)}\n`);
  }

  /** Lines of output, each kept one line as printLine keeps it (a table goes in as its rows: tableRows). */
  printLines(lines: readonly string[]): void {
    this.io.stdout(`${textLines(lines)}\n`);
  }

  printJson(value: unknown): void {
    this.io.stdout(`${JSON.stringify(value, null, 2)}\n`);
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }
}
