/**
 * The web-mode session token: `pipedejavu serve` prints `http://127.0.0.1:PORT/?token=...`.
 * The renderer takes it from the query, keeps it for the tab's session and removes it from
 * the address bar. Pure: the caller reads and writes location, sessionStorage and history.
 */

const TOKEN_PARAM = 'token';
export const TOKEN_STORAGE_KEY = 'pipedejavu.token';

export interface TokenFromUrl {
  /** The token from the query, else the stored one, else null. */
  token: string | null;
  /** The query without the token ("" when nothing else was there), for history.replaceState. */
  search: string;
  /** Whether the query carried a token (so the address bar must be rewritten). */
  fromQuery: boolean;
}

export function takeToken(search: string, stored: string | null): TokenFromUrl {
  const params = new URLSearchParams(search);
  const fromQuery = params.get(TOKEN_PARAM);
  params.delete(TOKEN_PARAM);
  const rest = params.toString();
  const token = fromQuery && fromQuery.trim() ? fromQuery.trim() : stored && stored.trim() ? stored.trim() : null;
  return { token, search: rest ? `?${rest}` : '', fromQuery: fromQuery !== null };
}
