/**
 * The ORT trace of measure-model's attribution pass, kept where the user asked (`--trace FILE`):
 * checked to be a Chrome trace, written whole or not at all, and the runner's copy removed.
 */
import { readFileSync, rmSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { writeFileAtomic } from '../../adapters/files/write-file-atomic.js';

/**
 * The ORT trace of the attribution pass, as ORT wrote it: a Chrome trace (an array
 * of events) that Perfetto and chrome://tracing open. Its times are traced times; the
 * measurement's end to end comes from the untraced runs.
 */
export interface KeptTrace {
  /** Absolute path of the file. */
  file: string;
  /** model_run events: the traced runs, a warm-up run first. */
  runs: number;
  /** Events in the file (sessions, runs, and per node its kernel time and fences). */
  events: number;
}

/**
 * Copies the runner's trace file to `dest` (a temporary sibling, then a rename: never half a
 * file) and removes the runner's copy. ORT's file is read as a Chrome trace first: an
 * array of events, or an object with traceEvents.
 */
export function keepTrace(from: string | undefined, dest: string, protect: readonly string[]): KeptTrace {
  if (!from) throw new Error('the kernel runner kept no ONNX Runtime trace');
  try {
    const text = readFileSync(from, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UserError('ONNX Runtime wrote an ORT trace that is not valid JSON');
    }
    const events = Array.isArray(parsed) ? parsed : (parsed as { traceEvents?: unknown } | null)?.traceEvents;
    if (!Array.isArray(events)) throw new UserError('ONNX Runtime wrote an ORT trace without events');
    writeFileAtomic(dest, text, { protect });
    const runs = events.filter((e: { cat?: unknown; name?: unknown } | null) => e?.name === 'model_run').length;
    return { file: dest, runs, events: events.length };
  } finally {
    rmSync(from, { force: true });
  }
}
