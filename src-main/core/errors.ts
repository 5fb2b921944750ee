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

/** One line for any error; a zod validation error becomes its first issue with its path. */
export function errorMessage(e: unknown): string {
  const issues = (e as { issues?: unknown } | null)?.issues;
  if (Array.isArray(issues) && issues.length > 0) {
    const first = issues[0] as { path?: PropertyKey[]; message?: string };
    const where = (first.path ?? []).map(String).join('.');
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    return `${where ? `${where}: ` : ''}${first.message ?? 'invalid'}${more}`;
  }
  if (e instanceof Error) return e.message.split('\n')[0] ?? e.message;
  return String(e);
}
