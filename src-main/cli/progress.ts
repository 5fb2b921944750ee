/**
 * Progress of a long job on stderr: a redrawn bar on a terminal ("kernel n of N,
 * elapsed, remaining"), a line now and then otherwise (logs, CI). It writes its own
 * cursor control, so it gets the unescaped stream and escapes the text it shows.
 */
import { shown } from '../core/text/shown.js';
import { formatDuration } from '../core/text/duration.js';
export interface ProgressSink {
  update(done: number, total: number, label: string, elapsedMs: number, remainingMs: number): void;
  log(line: string): void;
  end(): void;
}

export { formatDuration };

function progressBar(done: number, total: number, width = 24): string {
  const f = total > 0 ? Math.min(1, done / total) : 1;
  const full = Math.round(f * width);
  return `[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${String(Math.round(f * 100)).padStart(3)}%`;
}

export function makeProgress(write: (t: string) => void, tty: boolean): ProgressSink {
  let lastLine = 0;
  let drawn = false;
  return {
    update(done, total, label, elapsedMs, remainingMs) {
      const line = shown(
        `${progressBar(done, total)} step ${done}/${total}  elapsed ${formatDuration(elapsedMs)}  remaining ~${formatDuration(remainingMs)}  ${label}`,
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
      write(`${shown(line)}\n`);
    },
    end() {
      if (tty && drawn) write('\n');
      drawn = false;
    },
  };
}
