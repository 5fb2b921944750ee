/**
 * Reads a serving trace a user names (`--trace FILE`), streaming: JSONL rows of
 * {"t": seconds, "prompt": tokens, "output": tokens} (also spelled arrival_time / timestamp,
 * input_tokens / prompt_tokens, output_tokens / completion_tokens), or a ShareGPT-style JSON array of
 * {"conversations": [{"from": "human" | "gpt", "value": text}, ...]}, whose lengths are counted as
 * ceil(characters / 4) with no tokenizer (the trace says so in its lengthRule) and which has no
 * arrival times (they then come from a rate). The file is read in pieces, never whole: a line or
 * conversation over the cap, or more rows than the cap, is refused before it is held, and so is a
 * bad row, in one line naming the file and the row. The app's trace comes as text (a file chosen in
 * the browser) and is checked the same way.
 */
import { createReadStream } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { JsonArraySplitter, TraceColumns, type ServingTrace } from '../../core/serving/trace-rows.js';
import { regularFileSize } from './read-regular-file.js';

export interface TraceLimits {
  /** Most requests a trace may hold. */
  maxRows: number;
  /** Longest line (JSONL) or conversation (ShareGPT), in characters. */
  maxLineChars: number;
}

const LIMITS: TraceLimits = { maxRows: 5_000_000, maxLineChars: 16 * 2 ** 20 };

function jsonOf(text: string, row: number): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UserError(`row ${row}: not JSON (${(e as Error).message.split('\n')[0] ?? ''})`);
  }
}

/** Splits text fed in pieces into lines, refusing one longer than the cap before it is held whole. */
class LineSplitter {
  private rest = '';
  row = 0;

  constructor(
    private readonly onLine: (line: string, row: number) => void,
    private readonly maxChars: number,
  ) {}

  feed(text: string): void {
    let from = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      this.line(this.rest + text.slice(from, nl));
      this.rest = '';
      from = nl + 1;
    }
    this.rest += text.slice(from);
    if (this.rest.length > this.maxChars) {
      throw new UserError(`row ${this.row + 1}: longer than ${this.maxChars} characters; refused before reading on`);
    }
  }

  private line(text: string): void {
    this.row++;
    if (text.length > this.maxChars) {
      throw new UserError(`row ${this.row}: longer than ${this.maxChars} characters; refused`);
    }
    if (text.trim() !== '') this.onLine(text, this.row);
  }

  /** The last line, if the file does not end with a newline: a bad one is most likely a file cut short. */
  end(): void {
    if (this.rest === '') return;
    try {
      this.line(this.rest);
    } catch (e) {
      if (e instanceof UserError)
        throw new UserError(`${e.message} (the last line has no newline: is the file cut short?)`);
      throw e;
    }
  }
}

/**
 * Reads a trace fed in pieces: the first non-blank character picks the format ('[' a ShareGPT
 * array, else JSONL rows), then each piece is split and checked row by row.
 */
class TraceReader {
  private readonly columns: TraceColumns;
  private reader: { feed(text: string): void; end(): void } | null = null;

  constructor(private readonly limits: TraceLimits) {
    this.columns = new TraceColumns(limits.maxRows);
  }

  feed(chunk: string): void {
    if (!this.reader) {
      const first = /\S/.exec(chunk)?.[0];
      if (first === undefined) return;
      const columns = this.columns;
      this.reader =
        first === '['
          ? new JsonArraySplitter((text, row) => columns.addShareGpt(jsonOf(text, row), row), this.limits.maxLineChars)
          : new LineSplitter((line, row) => columns.addJsonl(jsonOf(line, row), row), this.limits.maxLineChars);
    }
    this.reader.feed(chunk);
  }

  done(): ServingTrace {
    if (!this.reader) throw new UserError('is empty: write one JSON row a request, or a ShareGPT JSON array');
    this.reader.end();
    return this.columns.done();
  }
}

/** The trace in `file`, checked row by row. */
export async function readServingTrace(file: string, limits: Partial<TraceLimits> = {}): Promise<ServingTrace> {
  regularFileSize(file, 'trace');
  const reader = new TraceReader({ ...LIMITS, ...limits });
  try {
    const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
    for await (const chunk of stream as AsyncIterable<string>) reader.feed(chunk);
    return reader.done();
  } catch (e) {
    if (e instanceof UserError) throw new UserError(`${file} ${e.message}`);
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(`cannot read ${file} (${code ?? (e as Error).message})`);
  }
}

/**
 * A trace the app sent as text (`serving:plan`'s `trace`, a file the user chose in the browser),
 * checked as `readServingTrace` checks a file; a bad row is refused naming `fileName` and the row.
 */
export function servingTraceFromText(fileName: string, text: string): ServingTrace {
  const reader = new TraceReader(LIMITS);
  try {
    reader.feed(text);
    return reader.done();
  } catch (e) {
    if (e instanceof UserError) throw new UserError(`${fileName} ${e.message}`);
    throw e;
  }
}
