/**
 * The waits for a quiet moment of one command that profiles several CPU targets in turn (1 and
 * 2 threads by default). The command has one budget for all of them, and a run that starts right
 * after another takes that run's last window (read after it, while nothing of ours ran) as its
 * own first window: when the machine was quiet then, it starts at once instead of reading again,
 * and when it was busy, it waits only what is left of the command's budget.
 */
import {
  ConditionsWatch,
  DEFAULT_QUIET_BUDGET_MS,
  type ConditionsProbe,
  type ReadingWindow,
} from './run-conditions-service.js';

/** How recent the last run's window must be to stand for this run's first (ms): one reading window. */
const HANDOVER_MS = 1000;

export class QuietWaits {
  private waitedMs = 0;
  private last: { window: ReadingWindow; at: number } | null = null;

  constructor(
    private readonly probe: ConditionsProbe,
    private readonly budgetMs: number = DEFAULT_QUIET_BUDGET_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A run's readings before it (ConditionsWatch.start), within what is left of the command's budget. */
  async start(opts: { signal?: AbortSignal; onWait?: (line: string) => void } = {}): Promise<ConditionsWatch | null> {
    const last = this.last && this.now() - this.last.at <= HANDOVER_MS ? this.last.window : null;
    this.last = null;
    const watch = await ConditionsWatch.start(this.probe, {
      ...opts,
      budgetMs: Math.max(0, this.budgetMs - this.waitedMs),
      ...(last ? { first: last } : {}),
      onAfter: (window) => (this.last = { window, at: this.now() }),
    });
    this.waitedMs += watch?.waitedMs ?? 0;
    return watch;
  }
}
