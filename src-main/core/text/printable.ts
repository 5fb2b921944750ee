/**
 * Text from files a user did not write (labels of imported profiles, node names of ONNX
 * models) must not drive the terminal: an ESC sequence can recolour a table or set the
 * window title, a carriage return can overwrite a line, a bidi override can make a line
 * read differently from what it is. `printable` shows each such character (CONTROL_CHARS,
 * U+2028 and U+2029 included) as a visible escape (`\r`, `\u001b`, `\u2028`) and leaves
 * everything else (newlines, tabs, ordinary Unicode) alone. Applied to everything the CLI prints;
 * inside JSON the escape is the same character. A newline in a name is for `shown` (shown.ts) to
 * escape where the name is put on a line: the output's own newlines stay.
 */
import { CONTROL_CHARS, escapeControlChar } from './control-chars.js';

export function printable(text: string): string {
  return text.replace(CONTROL_CHARS, (c) => (c === '\n' || c === '\t' ? c : escapeControlChar(c)));
}
