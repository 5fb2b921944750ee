/**
 * Text from files a user did not write (labels of imported profiles, node names of ONNX
 * models) must not drive the terminal: an ESC sequence can recolour a table or set the
 * window title, a carriage return can overwrite a line, a bidi override can make a line
 * read differently from what it is. `printable` shows each such character as a visible
 * `\uXXXX` escape and leaves everything else (newlines, tabs, ordinary Unicode) alone.
 * Applied to everything the CLI prints; inside JSON the escape is the same character.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** The same, and newlines and tabs too: for one cell or one line of untrusted text. */
const UNSAFE_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const escape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

export function printable(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** `printable`, with newlines and tabs escaped as well: a table cell or a one-line message stays one line. */
export function printableLine(text: string): string {
  return text.replace(UNSAFE_IN_LINE, escape);
}
