/** Versions of the runtimes a profile was made with, for provenance. */
import { createRequire } from 'node:module';

export function runtimeVersions(): Record<string, string> {
  const require = createRequire(import.meta.url);
  const versions: Record<string, string> = { node: process.version };
  for (const pkg of ['onnxruntime-node', 'better-sqlite3']) {
    try {
      versions[pkg] = (require(`${pkg}/package.json`) as { version: string }).version;
    } catch {
      // not installed: leave it out
    }
  }
  return versions;
}
