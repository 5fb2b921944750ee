/** JSON columns (written with JSON.stringify, read back through a zod schema) and input validation. */
import type { z } from 'zod';
import { StoreError, errorMessage } from './errors.js';

export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

export function toJsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/** Parses a JSON column; `what` names the column in the error (e.g. "machines.probe_json of m1"). */
export function parseJsonColumn<S extends z.ZodType>(schema: S, text: string, what: string): z.infer<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new StoreError('corrupt-row', `${what} is not valid JSON: ${errorMessage(err)}`, { cause: err });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new StoreError('corrupt-row', `${what} does not match its schema: ${parsed.error.message}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

export function parseJsonColumnOrNull<S extends z.ZodType>(
  schema: S,
  text: string | null,
  what: string,
): z.infer<S> | null {
  return text === null ? null : parseJsonColumn(schema, text, what);
}

/** Validates a value given to the store; throws StoreError 'invalid-input' naming `what`. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new StoreError('invalid-input', `invalid ${what}: ${parsed.error.message}`, { cause: parsed.error });
  }
  return parsed.data;
}
