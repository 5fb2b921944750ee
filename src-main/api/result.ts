/**
 * What crosses a transport boundary (Electron IPC, HTTP, the job runner): a value or
 * one error line with a code, never a thrown exception. Pure.
 */
import { z } from 'zod';

const ApiErrorCodeSchema = z.enum([
  /** The request did not match the channel's schema (or the transport's rules). */
  'invalid',
  /** Web mode: no session token, or a stale one (the server restarted). */
  'unauthorized',
  /** A clear user-facing failure (no profile yet, bad file...). */
  'user',
  /** Unknown channel or job. */
  'not-found',
  /** Not offered by this transport (e.g. native file dialogs in web mode). */
  'unavailable',
  /** A bug: the message is still one line. */
  'internal',
]);
export type ApiErrorCode = z.infer<typeof ApiErrorCodeSchema>;

const ApiErrorSchema = z.object({ code: ApiErrorCodeSchema, message: z.string() });
export type ApiError = z.infer<typeof ApiErrorSchema>;

export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export const ApiResultEnvelopeSchema = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: ApiErrorSchema }),
]);

export function ok<T>(value: T): ApiResult<T> {
  return { ok: true, value };
}

export function fail(code: ApiErrorCode, message: string): ApiResult<never> {
  return { ok: false, error: { code, message } };
}
