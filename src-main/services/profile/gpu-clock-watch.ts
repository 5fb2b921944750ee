/**
 * nvidia-smi readings around every timed batch on a CUDA GPU (core/profiler/gpu-clocks.ts):
 * a batch that ran under a thermal or power throttle is run again once, and flagged
 * `throttled` in the run's summary if the throttle is still on. nvidia-smi missing, hanging
 * or failing: one note, no more readings this run (a hanging one would cost its timeout per
 * batch), and profiling goes on.
 */
import {
  addClockSample,
  emptyClockSummary,
  throttleReasons,
  type GpuClockSample,
  type GpuClockSampler,
  type GpuClockSummary,
} from '../../core/profiler/gpu-clocks.js';

export class ClockWatch {
  private summary: GpuClockSummary = emptyClockSummary();
  private sampler: GpuClockSampler | null;

  /** `sampler` null: batches just run (CPU EPs, WebGPU, no sampler given); no summary. */
  constructor(
    sampler: GpuClockSampler | null,
    private readonly gpuIndex: number,
    private readonly note: (line: string) => void,
  ) {
    this.sampler = sampler;
    this.active = sampler !== null;
  }

  private readonly active: boolean;

  private async read(): Promise<GpuClockSample | null> {
    if (!this.sampler) return null;
    const r = await this.sampler(this.gpuIndex);
    if (r.kind === 'ok') {
      this.summary = addClockSample(this.summary, r.sample);
      return r.sample;
    }
    this.sampler = null;
    this.summary = { ...this.summary, unavailable: r.reason };
    this.note(`GPU clocks, temperature and power not read (${r.reason}); profiling goes on without them`);
    return null;
  }

  /** The batch between two readings, and the throttles either reading saw. */
  private async once<T>(batch: () => Promise<T>): Promise<{ result: T; reasons: string[] }> {
    const before = await this.read();
    const result = await batch();
    const after = await this.read();
    const reasons = [...new Set([before, after].flatMap((s) => throttleReasons(s?.reasonsMask ?? null)))];
    return { result, reasons };
  }

  /** Runs `batch` (one kernel's timing job); once more if it ran throttled, flagged if still throttled. */
  async around<T>(kernel: string, batch: () => Promise<T>): Promise<T> {
    if (!this.sampler) return batch();
    const first = await this.once(batch);
    if (first.reasons.length === 0) return first.result;
    this.summary = { ...this.summary, remeasured: [...this.summary.remeasured, kernel] };
    const second = await this.once(batch);
    if (second.reasons.length > 0) {
      this.summary = { ...this.summary, throttled: [...this.summary.throttled, { kernel, reasons: second.reasons }] };
      this.note(
        `${kernel}: timed under a GPU throttle (${second.reasons.join(', ')}) twice; stored, flagged throttled`,
      );
    }
    return second.result;
  }

  /** What the run keeps; null when no readings were meant to be taken. */
  result(): GpuClockSummary | null {
    return this.active ? this.summary : null;
  }
}
