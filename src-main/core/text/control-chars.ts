/**
 * Names that come from outside (machine labels, hostnames, device names) are data that ends up in
 * tables, scripts and comments: one with a control character (C0/C1 controls incl. CR, LF, NUL and
 * ESC; format characters such as bidi overrides; the Unicode line and paragraph separators; lone
 * surrogates) is refused where it enters, and shown as a visible escape where it is printed
 * (shown.ts). Pure.
 */
const CLASS = '[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Cs}]';
const CONTROL = new RegExp(CLASS, 'u');
/** Every control character of a text (global: use with replace, never with test). */
export const CONTROL_CHARS = new RegExp(CLASS, 'gu');

/** Whether one character is a control character (C0/C1, format, line or paragraph separator, lone surrogate). */
export const isControlChar = (c: string): boolean => CONTROL.test(c);

/** "U+000A" for a character. */
export function codePointName(c: string): string {
  return `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The first control character of `text`, or null. */
export function firstControlChar(text: string): string | null {
  return CONTROL.exec(text)?.[0] ?? null;
}

/** The visible escape of one control character: `\n`, `\r`, `\t`, else `\uXXXX` (two past the BMP, as JSON writes it). */
export function escapeControlChar(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return '\\t';
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}
