/**
 * Outside text (a folder or file name, a model or workload name, a machine label, a GPU name from
 * nvidia-smi or an imported profile, a value the user typed) on a line of terminal output. A
 * newline in it would start a line of its own and fake a line of output; a carriage return, an ESC
 * sequence or a bidi override would rewrite what the line shows. `shown` gives one line with each
 * control character (CONTROL_CHARS: C0 and C1 controls, format characters such as bidi overrides,
 * the line and paragraph separators U+2028 and U+2029, lone surrogates) as a visible escape:
 * `\n`, `\r`, `\t`, else `\uXXXX` (JSON's escapes, so the same text inside a JSON string still
 * reads as the same character). `quoted` is a value echoed back in a message: shown, cut and
 * double-quoted. Pure.
 */
import { CONTROL_CHARS, codePointName, escapeControlChar, firstControlChar } from './control-chars.js';

/** `text` on one line: every control character (newlines, tabs, ESC, U+2028, bidi overrides...) as a visible escape. */
export function shown(text: string): string {
  return text.replace(CONTROL_CHARS, escapeControlChar);
}

/** How many characters of a value a message echoes back. */
export const QUOTED_MAX_CHARS = 40;

/** `text` cut to `max` characters (code points), with "..." when it was longer. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : text;
}

/**
 * A value echoed in a message (`--layout: got "pp=2,..."`): double-quoted, cut to 40 characters
 * (with "..." when longer) and on one line, so a 10,000-character or multi-line value gives a short
 * one-line message.
 */
export function quoted(value: unknown, max = QUOTED_MAX_CHARS): string {
  return `"${shown(cut(String(value), max))}"`;
}

/** How much of a refused name a message shows. */
const NAME_MAX_CHARS = 80;

/** `text` with each control character as a visible escape, cut to a length a line can show. */
export function visibleName(text: string): string {
  return shown(cut(text, NAME_MAX_CHARS));
}

/** `what "name" has a control character (U+000A)`, or null when the name is plain text. */
export function controlCharRefusal(what: string, name: string): string | null {
  const c = firstControlChar(name);
  return c === null ? null : `${what} "${visibleName(name)}" has a control character (${codePointName(c)})`;
}
