/**
 * Progress of a long job on stderr: a redrawn bar on a terminal ("kernel n of N,
 * elapsed, remaining"), a line now and then otherwise (logs, CI). It writes its own
 * cursor control, so it gets the unescaped stream and escapes the text it shows.
 */
import { printable } from '../core/text/printable.js';
export interface ProgressSink {
  update(done: number, total: number, label: string, elapsedMs: number, remainingMs: number): void;
  log(line: string): void;
  end(): void;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60
    ? `${m}m${String(s % 60).padStart(2, '0')}s`
    : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export function progressBar(done: number, total: number, width = 24): string {
  const f = total > 0 ? Math.min(1, done / total) : 1;
  const full = Math.round(f * width);
  return `[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${String(Math.round(f * 100)).padStart(3)}%`;
}

export function makeProgress(write: (t: string) => void, tty: boolean): ProgressSink {
  let lastLine = 0;
  let drawn = false;
  return {
    update(done, total, label, elapsedMs, remainingMs) {
      const line = printable(
        `${progressBar(done, total)} kernel ${done}/${total}  elapsed ${formatDuration(elapsedMs)}  remaining ~${formatDuration(remainingMs)}  ${label}`,
      );
      if (tty) {
        write(`\r\x1b[2K${line.slice(0, 150)}`);
        drawn = true;
      } else if (done === total || Date.now() - lastLine > 5000) {
        lastLine = Date.now();
        write(`${line}\n`);
      }
    },
    log(line) {
      if (tty && drawn) write('\r\x1b[2K');
      drawn = false;
      write(`${printable(line)}\n`);
    },
    end() {
      if (tty && drawn) write('\n');
      drawn = false;
    },
  };
}
