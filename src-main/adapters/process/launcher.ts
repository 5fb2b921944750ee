/**
 * Starting the app's own Node scripts (the job runner, the kernel runner) as child
 * processes: messages both ways (structured clone), stderr text, kill at once, one exit
 * event. `pipedejavu` and `serve` fork plain Node children (childProcessLauncher); the
 * Electron shell injects utility processes, since its binary never runs as Node. Neither
 * the adapters nor the app import electron.
 */
import { fork } from 'node:child_process';

/**
 * A stand-in for Node to start the children with; unset in use. `scripts/check-avx2.sh` sets
 * it to run the runners under a CPU emulator, so tests see ONNX Runtime's layout on an
 * AVX2-only CPU (8-wide NCHWc) from a machine with AVX-512.
 */
const CHILD_EXEC_ENV = 'PIPEDEJAVU_CHILD_EXEC';

export interface LaunchOptions {
  /** Names the process (Electron's serviceName, seen in its task metrics); plain Node ignores it. */
  name: string;
  env?: NodeJS.ProcessEnv;
  /** Node flags for the child; left out, a forked child inherits the parent's. */
  execArgv?: string[];
  /** POSIX: its own process group, so a terminal's Ctrl-C meant for the parent misses it. */
  detached?: boolean;
}

export interface ChildEvents {
  message: [message: unknown];
  stderr: [text: string];
  /** Once. `signal` is null where the platform reports only a code (utility processes). */
  exit: [code: number | null, signal: string | null];
  /** The process could not be started. */
  error: [error: Error];
}

export type ChildListener<E extends keyof ChildEvents> = (...args: ChildEvents[E]) => void;

export interface LaunchedChild {
  /** Dropped once the child is gone. */
  send(message: unknown): void;
  /** Ends the child at once (SIGKILL where there are signals). */
  kill(): void;
  on<E extends keyof ChildEvents>(event: E, listener: ChildListener<E>): void;
  off<E extends keyof ChildEvents>(event: E, listener: ChildListener<E>): void;
}

export interface ProcessLauncher {
  fork(modulePath: string, options: LaunchOptions): LaunchedChild;
}

/** The listener bookkeeping every launcher's children share. */
export class ChildEmitter {
  private readonly listeners = new Map<keyof ChildEvents, Set<unknown>>();

  on<E extends keyof ChildEvents>(event: E, listener: ChildListener<E>): void {
    const set = this.listeners.get(event) ?? new Set<unknown>();
    set.add(listener);
    this.listeners.set(event, set);
  }

  off<E extends keyof ChildEvents>(event: E, listener: ChildListener<E>): void {
    this.listeners.get(event)?.delete(listener);
  }

  emit<E extends keyof ChildEvents>(event: E, ...args: ChildEvents[E]): void {
    for (const l of [...(this.listeners.get(event) ?? [])]) (l as ChildListener<E>)(...args);
  }
}

/** Plain Node children over child_process.fork and its IPC channel (advanced serialization). */
export const childProcessLauncher: ProcessLauncher = {
  fork(modulePath, o) {
    const events = new ChildEmitter();
    const cp = fork(modulePath, [], {
      serialization: 'advanced',
      execPath: process.env[CHILD_EXEC_ENV] || process.execPath,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: o.env ?? process.env,
      ...(o.execArgv ? { execArgv: o.execArgv } : {}),
      detached: o.detached === true && process.platform !== 'win32',
    });
    cp.stderr?.on('data', (d: Buffer) => events.emit('stderr', d.toString()));
    cp.on('message', (m: unknown) => events.emit('message', m));
    cp.on('exit', (code, signal) => events.emit('exit', code, signal));
    cp.on('error', (e) => events.emit('error', e));
    return {
      send(message) {
        if (cp.connected) cp.send(message as never);
      },
      kill() {
        // A child in its own group is ended with the processes it started (a job runner's kernel runner).
        const running = cp.pid !== undefined && cp.exitCode === null && cp.signalCode === null;
        if (o.detached === true && process.platform !== 'win32' && running)
          try {
            process.kill(-cp.pid, 'SIGKILL');
            return;
          } catch {
            // no such group: the child alone
          }
        cp.kill('SIGKILL');
      },
      on: (event, listener) => events.on(event, listener),
      off: (event, listener) => events.off(event, listener),
    };
  },
};
