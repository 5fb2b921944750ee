/**
 * Runs a binary without a shell, with a hard timeout. A hung driver must never hang
 * the app: on timeout the child gets SIGKILL and the promise settles at once, without
 * waiting for the child (a process stuck in the kernel may never exit). Never throws.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export type CommandResult =
  | { kind: 'ok'; stdout: string; stderr: string; code: 0 }
  /** The binary is missing, not executable, or a directory. */
  | { kind: 'not-found' }
  | { kind: 'timeout' }
  /** Exited non-zero, or was killed by a signal (code null). */
  | { kind: 'exit'; code: number | null; stdout: string; stderr: string }
  /** Anything else: the spawn failed for another reason, or the output exceeded the cap. */
  | { kind: 'error'; message: string };

export interface RunOptions {
  /** Kill the child after this many milliseconds. Default 5000. */
  timeoutMs?: number;
  /** Most bytes kept of stdout and of stderr each; more kills the child. Default 8 MiB. */
  maxOutputBytes?: number;
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
const NOT_FOUND_CODES = new Set(['ENOENT', 'EACCES', 'EISDIR', 'ENOTDIR', 'EPERM']);

function errorCode(e: unknown): string | undefined {
  if (typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string') return e.code;
  return undefined;
}

export function runCommand(file: string, args: readonly string[], opts: RunOptions = {}): Promise<CommandResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  return new Promise<CommandResult>((resolve) => {
    let settled = false;
    let child: ChildProcess | undefined;
    const kill = (): void => {
      try {
        // The whole process group: a wrapper script's own children go too.
        if (child?.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child?.kill('SIGKILL');
      } catch {
        // already gone
      }
      child?.stdout?.destroy();
      child?.stderr?.destroy();
    };
    const timer = setTimeout(() => {
      kill();
      settle({ kind: 'timeout' });
    }, timeoutMs);
    const settle = (r: CommandResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    try {
      child = spawn(file, [...args], {
        env: opts.env ?? process.env,
        shell: false,
        windowsHide: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, so a timeout can kill everything it started.
        detached: process.platform !== 'win32',
      });
    } catch (e) {
      // Synchronous spawn errors: bad arguments (e.g. a NUL byte in the path).
      const code = errorCode(e);
      settle(code && NOT_FOUND_CODES.has(code) ? { kind: 'not-found' } : { kind: 'error', message: String(e) });
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    child.stdout?.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxBytes) {
        kill();
        settle({ kind: 'error', message: `output exceeded ${maxBytes} bytes` });
      } else out.push(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      errBytes += chunk.length;
      if (errBytes <= maxBytes) err.push(chunk);
    });
    child.on('error', (e) => {
      const code = errorCode(e);
      kill();
      settle(code && NOT_FOUND_CODES.has(code) ? { kind: 'not-found' } : { kind: 'error', message: e.message });
    });
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      settle(code === 0 ? { kind: 'ok', stdout, stderr, code: 0 } : { kind: 'exit', code, stdout, stderr });
    });
  });
}
