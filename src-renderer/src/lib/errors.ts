/** One line for an error shown next to the control that caused it. Pure. */
import { ApiCallError } from '../../../src-main/api/client.js';

export function errorMessage(e: unknown): string {
  if (e instanceof ApiCallError) return e.message;
  if (e instanceof Error) return e.message || e.name;
  return typeof e === 'string' ? e : 'Something went wrong (no message).';
}
