/** A test decoder's end-to-end time on ONNX Runtime's CPU EP, as bench:decode takes it. */
import type { KernelRunner } from '../../src-main/adapters/ort/kernel-runner.js';
import { median, type StoppingRule } from '../../src-main/core/profiler/timing-stats.js';

/**
 * The median wall time (µs) of the unprofiled runs of `file` at `threads`, said on stderr under
 * `label`; null, also said, when the runner gave up (a loaded host can run past its limit).
 */
export async function medianRunUs(
  runner: KernelRunner,
  job: {
    file: string;
    inputs: { name: string; dims: number[]; dtype: 'int64' }[];
    threads: number;
    rule: StoppingRule;
  },
  label: string,
): Promise<number | null> {
  const outcome = await runner.runModel({
    modelPath: job.file,
    inputs: job.inputs,
    ep: { name: 'cpu', threads: job.threads },
    rule: job.rule,
    attributionRuns: 1,
  });
  if (!outcome.ok) {
    process.stderr.write(`${label}, ${job.threads} thread(s): ${outcome.error}\n`);
    return null;
  }
  const us = median(outcome.wallUs);
  process.stderr.write(`${label}, ${job.threads}t: measured ${(us / 1000).toFixed(3)} ms\n`);
  return us;
}
