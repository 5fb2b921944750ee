/**
 * A simulated step as Chrome's trace-event JSON (what Perfetto and chrome://tracing open): one
 * process per stage, a thread per kind of work, complete ("X") events in microseconds. Pure.
 */
import type { SimEvent } from './pipeline-simulator.js';

export interface ChromeTrace {
  traceEvents: Record<string, unknown>[];
  displayTimeUnit: 'ms';
  otherData: { title: string };
}

const THREADS: Record<string, number> = { compute: 1, send: 2, allreduce: 3 };

export function chromeTrace(events: readonly SimEvent[], title: string): ChromeTrace {
  const stages = [...new Map(events.map((e) => [e.stage, e.device])).entries()].sort(([a], [b]) => a - b);
  const meta = stages.flatMap(([stage, device]) => [
    { name: 'process_name', ph: 'M', pid: stage, args: { name: `stage ${stage}: ${device}` } },
    { name: 'process_sort_index', ph: 'M', pid: stage, args: { sort_index: stage } },
  ]);
  const thread = (e: SimEvent): number =>
    (e.phase === 'send' ? THREADS.send : e.phase === 'allreduce' ? THREADS.allreduce : THREADS.compute) ?? 1;
  const work = events.map((e) => ({
    name: e.microbatch >= 0 ? `${e.phase} mb${e.microbatch}${e.direction ? ` ${e.direction}` : ''}` : e.phase,
    cat: e.phase,
    ph: 'X',
    ts: e.startUs,
    dur: Math.max(0, e.endUs - e.startUs),
    pid: e.stage,
    tid: thread(e),
    args: { device: e.device, microbatch: e.microbatch },
  }));
  return { traceEvents: [...meta, ...work], displayTimeUnit: 'ms', otherData: { title } };
}
