/**
 * The built renderer, read-only, for both shells that show it (the HTTP server and Electron's
 * app:// protocol): nothing outside its folder is reachable, and both send the same CSP.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** src-renderer/dist next to the running bundle's project (dist/cli.js, dist/electron/main.js) or the sources. */
export function defaultRendererDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    path.resolve(here, '../src-renderer/dist'),
    path.resolve(here, '../../src-renderer/dist'),
    path.resolve(here, '../../../src-renderer/dist'),
  ];
  return candidates.find((p) => existsSync(path.join(p, 'index.html'))) ?? (candidates[0] as string);
}

export interface StaticFile {
  body: Buffer;
  type: string;
}

export function readStatic(rootDir: string, urlPath: string): StaticFile | null {
  const root = path.resolve(rootDir);
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (rel === '/' || rel === '') rel = '/index.html';
  const file = path.resolve(root, `.${path.posix.normalize(rel)}`);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  try {
    if (!statSync(file).isFile()) return null;
    return { body: readFileSync(file), type: TYPES[path.extname(file)] ?? 'application/octet-stream' };
  } catch {
    return null;
  }
}
