/**
 * A serving trace's rows, checked one at a time and stored as columns (a million requests in
 * 16 MB): JSONL rows of arrival time and token counts, or ShareGPT conversations, whose lengths
 * are counted without a tokenizer (CHARS_PER_TOKEN characters a token). Also the splitter that
 * finds a top-level JSON array's elements in text fed piece by piece, so a large ShareGPT file is
 * never held whole. A bad row is refused in one line naming its number. Pure.
 */
import { UserError } from '../errors.js';
import { floatColumn, intColumn } from './columns.js';
import { MAX_LENGTH } from './lengths.js';

export type TraceFormat = 'jsonl' | 'sharegpt';

export interface ServingTrace {
  format: TraceFormat;
  rows: number;
  /** Arrival times (s) in order; null when the trace has none (ShareGPT): arrivals then come from a rate. */
  atSeconds: Float64Array | null;
  prompt: Int32Array;
  output: Int32Array;
  /** How the token counts were had, for the output. */
  lengthRule: string;
  /** Conversations left out (fewer than a prompt and an answer). */
  skipped: number;
}

/** A tokenizer-free token count: a token per 4 characters, rounded up (about right for English and BPE vocabularies). */
const CHARS_PER_TOKEN = 4;
export const approxTokens = (text: string): number => Math.max(1, Math.ceil(text.length / CHARS_PER_TOKEN));

const LENGTH_RULES = {
  jsonl: 'token counts as the trace gives them',
  sharegpt: `first human turn as the prompt, first answer after it as the output; tokens counted as ceil(characters / ${CHARS_PER_TOKEN}), no tokenizer`,
} as const satisfies Record<TraceFormat, string>;

/** The spellings a JSONL row's fields come in (ours first, then vLLM's and other tools' dumps). */
const FIELDS = {
  t: ['t', 'arrival_time', 'timestamp'],
  prompt: ['prompt', 'input_tokens', 'prompt_tokens', 'input_len'],
  output: ['output', 'output_tokens', 'completion_tokens', 'output_len'],
} as const;

const refuse = (row: number, why: string): UserError => new UserError(`row ${row}: ${why}`);

function field(o: Record<string, unknown>, names: readonly string[]): unknown {
  for (const n of names) if (n in o) return o[n];
  return undefined;
}

function tokens(v: unknown, row: number, name: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1 || v > MAX_LENGTH) {
    throw refuse(row, `${name} must be a whole number of tokens from 1 to ${MAX_LENGTH}, not ${JSON.stringify(v)}`);
  }
  return v;
}

/** The rows read so far, as columns; every row has a time or none has. */
export class TraceColumns {
  private readonly at = floatColumn();
  private readonly prompts = intColumn();
  private readonly outputs = intColumn();
  private timed: boolean | null = null;
  skipped = 0;

  constructor(
    private readonly maxRows: number,
    private format: TraceFormat | null = null,
  ) {}

  get rows(): number {
    return this.prompts.length;
  }

  private push(row: number, t: number | null, prompt: number, output: number, format: TraceFormat): void {
    if (this.format !== null && this.format !== format) {
      throw refuse(row, `a ${format} row in a ${this.format} trace: keep to one format`);
    }
    this.format = format;
    if (this.rows >= this.maxRows) throw refuse(row, `the trace holds more than ${this.maxRows} requests; cut it`);
    if (this.timed !== null && this.timed !== (t !== null)) {
      throw refuse(
        row,
        this.timed
          ? 'has no arrival time ("t") but the rows before do'
          : 'has an arrival time but the rows before do not',
      );
    }
    this.timed = t !== null;
    if (t !== null) {
      const before = this.rows > 0 ? (this.at.values()[this.rows - 1] as number) : 0;
      if (t < before)
        throw refuse(row, `arrival time ${t} s is before the row above's ${before} s: sort the trace by time`);
      this.at.push(t);
    }
    this.prompts.push(prompt);
    this.outputs.push(output);
  }

  /** A JSONL row: {"t": seconds, "prompt": tokens, "output": tokens}, or {"conversations": [...]} as ShareGPT. */
  addJsonl(value: unknown, row: number): void {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw refuse(row, 'is not a JSON object like {"t": 0.5, "prompt": 2000, "output": 300}');
    }
    const o = value as Record<string, unknown>;
    if ('conversations' in o) {
      this.addShareGpt(o, row);
      return;
    }
    const t = field(o, FIELDS.t);
    if (t !== undefined && (typeof t !== 'number' || !Number.isFinite(t) || t < 0)) {
      throw refuse(row, `arrival time "t" must be seconds from 0, not ${JSON.stringify(t)}`);
    }
    const p = field(o, FIELDS.prompt);
    const out = field(o, FIELDS.output);
    if (p === undefined || out === undefined) {
      throw refuse(
        row,
        `needs "prompt" and "output" token counts (has ${Object.keys(o).slice(0, 6).join(', ') || 'no keys'})`,
      );
    }
    this.push(row, t === undefined ? null : t, tokens(p, row, 'prompt'), tokens(out, row, 'output'), 'jsonl');
  }

  /** A ShareGPT conversation: the first human turn is the prompt and the turn after it the answer. */
  addShareGpt(value: unknown, row: number): void {
    const turns = (value as { conversations?: unknown } | null)?.conversations;
    if (!Array.isArray(turns)) throw refuse(row, 'has no "conversations" list of {"from", "value"} turns');
    for (const [i, turn] of turns.entries()) {
      const v = (turn as { value?: unknown } | null)?.value;
      if (typeof v !== 'string') throw refuse(row, `turn ${i + 1} has no "value" text`);
    }
    const texts = turns as { from?: unknown; value: string }[];
    const first = texts.findIndex((x) => x.from === 'human' || x.from === 'user');
    const answer = first >= 0 ? texts[first + 1] : undefined;
    if (!answer || answer.value.length === 0) {
      this.skipped++;
      return;
    }
    this.push(
      row,
      null,
      approxTokens((texts[first] as { value: string }).value),
      approxTokens(answer.value),
      'sharegpt',
    );
  }

  done(): ServingTrace {
    if (this.rows === 0) {
      throw new UserError(
        this.skipped > 0
          ? `holds no conversation with a prompt and an answer (${this.skipped} left out)`
          : 'holds no requests',
      );
    }
    const format = this.format ?? 'jsonl';
    return {
      format,
      rows: this.rows,
      atSeconds: this.timed ? this.at.values() : null,
      prompt: this.prompts.values(),
      output: this.outputs.values(),
      lengthRule: LENGTH_RULES[format],
      skipped: this.skipped,
    };
  }
}

/**
 * The elements of a top-level JSON array, from its text fed in pieces: each element's text is
 * handed over whole (to JSON.parse) as soon as it closes, and an element longer than `maxChars`
 * is refused before it is held.
 */
export class JsonArraySplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private started = false;
  private closed = false;
  private parts: string[] = [];
  private partChars = 0;
  /** Elements handed over so far. */
  count = 0;

  constructor(
    private readonly onElement: (text: string, index: number) => void,
    private readonly maxChars: number,
  ) {}

  feed(text: string): void {
    let from = -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
        continue;
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (this.closed) throw new UserError(`has text after the array closes (element ${this.count})`);
      if (!this.started) {
        if (c !== 0x5b) throw new UserError('is not a JSON array of conversations (it does not start with "[")');
        this.started = true;
        continue;
      }
      if (this.depth === 0) {
        if (c === 0x2c) continue;
        if (c === 0x5d) {
          this.closed = true;
          continue;
        }
        if (c !== 0x7b && c !== 0x5b) throw new UserError(`row ${this.count + 1}: is not a conversation object`);
        from = i;
      }
      if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      else if (c === 0x7d || c === 0x5d) {
        this.depth--;
        if (this.depth === 0) {
          this.take(text.slice(Math.max(0, from), i + 1));
          from = -1;
          this.emit();
        }
      }
    }
    if (this.depth > 0 || this.inString) this.take(text.slice(Math.max(0, from)));
  }

  private take(piece: string): void {
    this.partChars += piece.length;
    if (this.partChars > this.maxChars) {
      throw new UserError(`row ${this.count + 1}: longer than ${this.maxChars} characters; refused before reading on`);
    }
    this.parts.push(piece);
  }

  private emit(): void {
    const text = this.parts.join('');
    this.parts = [];
    this.partChars = 0;
    this.count++;
    this.onElement(text, this.count);
  }

  end(): void {
    if (!this.started) throw new UserError('is empty');
    if (!this.closed)
      throw new UserError(`ends inside the array, after ${this.count} conversations: the file is cut short`);
  }
}
