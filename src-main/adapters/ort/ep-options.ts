/** Session options for one execution provider, and whether that provider can run here. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as ort from 'onnxruntime-node';
import type { EpConfig } from '../../core/domain/execution-provider.js';

/** A session on `ep`; with a `tracePrefix`, the ORT trace is on (enableProfiling) and its file starts with it. */
export function sessionOptions(ep: EpConfig, tracePrefix: string | null): ort.InferenceSession.SessionOptions {
  const base: ort.InferenceSession.SessionOptions = {
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    interOpNumThreads: 1,
    logSeverityLevel: 3,
    ...(tracePrefix ? { enableProfiling: true, profileFilePrefix: tracePrefix } : {}),
  };
  switch (ep.name) {
    case 'cpu':
      // ORT's defaults otherwise (thread spinning on): what users run. Turning spinning
      // off measured slower GEMMs here (107-192 vs 149-207 GFLOP/s at 512^3, 2 threads).
      return { ...base, intraOpNumThreads: ep.threads, executionProviders: ['cpu'] };
    case 'cuda':
      return { ...base, executionProviders: [{ name: 'cuda', deviceId: ep.deviceId }] };
    case 'webgpu':
      return { ...base, executionProviders: ['webgpu'] };
    case 'torch-cpu':
    case 'torch-cuda':
      throw new Error(`${ep.name} is the PyTorch backend, not an ONNX Runtime execution provider`);
  }
}

/** Directory of onnxruntime-node's native binaries for this platform. */
export function ortBinDir(): string {
  const require = createRequire(import.meta.url);
  const root = path.dirname(require.resolve('onnxruntime-node/package.json'));
  return path.join(root, 'bin', 'napi-v6', process.platform, process.arch);
}

/**
 * The CUDA provider is not bundled with onnxruntime-node: `npm run install-cuda`
 * downloads it. Returns why it cannot run, or null when its library is present.
 */
export function cudaUnavailableReason(): string | null {
  const lib = process.platform === 'win32' ? 'onnxruntime_providers_cuda.dll' : 'libonnxruntime_providers_cuda.so';
  if (process.platform === 'darwin') return 'ONNX Runtime has no CUDA provider on macOS';
  if (!existsSync(path.join(ortBinDir(), lib))) {
    return 'ONNX Runtime CUDA execution provider is not installed; run `npm run install-cuda` on a machine with internet (needs CUDA 12 and cuDNN 9)';
  }
  return null;
}

/** ORT failed to dlopen a provider library (it is there, but something it links is not). */
export const isLibraryLoadFailure = (message: string): boolean =>
  /Failed to load (shared )?library|cannot open shared object/i.test(message);

/**
 * Why ORT's CUDA provider, installed, cannot load, in one line: the libraries it links that the
 * loader cannot find (ldd), which ORT's own message ("Failed to load shared library") leaves out.
 */
export function cudaLoadFailure(): string {
  const lib = path.join(ortBinDir(), 'libonnxruntime_providers_cuda.so');
  let missing: string[] = [];
  try {
    const out = execFileSync('ldd', [lib], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] });
    missing = [...out.matchAll(/^\s*(\S+) => not found/gm)].map((m) => m[1] ?? '');
  } catch {
    // no ldd, or it failed: say what is known
  }
  const needs = 'it needs CUDA 12 and cuDNN 9 where the loader finds them, e.g. on LD_LIBRARY_PATH';
  return missing.length
    ? `ONNX Runtime's CUDA provider is installed but cannot load: ${missing.join(', ')} not found (${needs})`
    : `ONNX Runtime's CUDA provider is installed but could not be loaded (${needs})`;
}
