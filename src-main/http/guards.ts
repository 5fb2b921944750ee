/**
 * Web mode's guards: only 127.0.0.1/localhost on our port in Host (DNS rebinding), the
 * same origin in Origin when a browser sends one, and the session token on every API
 * call (compared in constant time). No CORS: other origins get nothing.
 */
import { timingSafeEqual } from 'node:crypto';

function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export function hostAllowed(host: string | undefined, port: number): boolean {
  return host !== undefined && allowedHosts(port).has(host.toLowerCase());
}

/** Browsers send Origin on POSTs and cross-origin requests; when present it must be ours. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
}

export function tokenMatches(given: string | null | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
