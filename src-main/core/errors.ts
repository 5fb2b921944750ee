/**
 * Errors meant for the user: one clear line, no stack trace. Anything else that
 * escapes is a bug and is reported as such. Pure.
 */
export class UserError extends Error {
  constructor(
    message: string,
    /** Process exit code the CLI uses: 1 failure, 2 usage. */
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

export class UsageError extends UserError {
  constructor(message: string) {
    super(message, 2);
    this.name = 'UsageError';
  }
}

/** A result that crosses a boundary (IPC, HTTP, worker) instead of a throw. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
