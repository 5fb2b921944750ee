/**
 * Finds the nvidia-smi binary: an explicit path (the CLI's --nvidia-smi), else
 * $PIPEDEJAVU_NVIDIA_SMI, else PATH, else the places drivers install it.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';

const SMI_ENV_VAR = 'PIPEDEJAVU_NVIDIA_SMI';

/** Where drivers install nvidia-smi, per platform, searched after PATH. */
function wellKnownSmiPaths(platform: NodeJS.Platform): readonly string[] {
  return platform === 'win32'
    ? ['C:\\Windows\\System32\\nvidia-smi.exe', 'C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvidia-smi.exe']
    : ['/usr/lib/wsl/lib/nvidia-smi', '/usr/bin/nvidia-smi'];
}

export interface LocateOptions {
  smiPath?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Places to look after PATH; defaults to wellKnownSmiPaths(platform). */
  wellKnownPaths?: readonly string[];
}

export type SmiLocation =
  /** A binary to run. */
  | { kind: 'found'; path: string }
  /** An explicit path (option or env var) that holds no usable binary. */
  | { kind: 'missing-explicit'; path: string; source: string }
  /** Nothing on PATH nor in the well-known places. */
  | { kind: 'none' };

async function isRunnableFile(p: string, platform: NodeJS.Platform): Promise<boolean> {
  try {
    if (!(await stat(p)).isFile()) return false;
    if (platform !== 'win32') await access(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** PATH lookup is case-insensitive on Windows, where the variable is usually "Path". */
function envPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  if (platform !== 'win32') return env.PATH ?? '';
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH');
  return key ? (env[key] ?? '') : '';
}

export async function locateSmi(opts: LocateOptions = {}): Promise<SmiLocation> {
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  const explicit = opts.smiPath
    ? { path: opts.smiPath, source: '--nvidia-smi' }
    : env[SMI_ENV_VAR]
      ? { path: env[SMI_ENV_VAR], source: SMI_ENV_VAR }
      : null;
  if (explicit) {
    return (await isRunnableFile(explicit.path, platform))
      ? { kind: 'found', path: explicit.path }
      : { kind: 'missing-explicit', ...explicit };
  }
  const pathApi = platform === 'win32' ? path.win32 : path.posix;
  const exe = platform === 'win32' ? 'nvidia-smi.exe' : 'nvidia-smi';
  const dirs = envPath(env, platform)
    .split(platform === 'win32' ? ';' : ':')
    .map((d) => d.trim().replace(/^"(.*)"$/, '$1'))
    .filter((d) => d !== '');
  const candidates = [
    ...dirs.map((d) => pathApi.join(d, exe)),
    ...(opts.wellKnownPaths ?? wellKnownSmiPaths(platform)),
  ];
  for (const candidate of candidates) {
    if (await isRunnableFile(candidate, platform)) return { kind: 'found', path: candidate };
  }
  return { kind: 'none' };
}
