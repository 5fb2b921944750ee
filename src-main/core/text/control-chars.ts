/**
 * Names that come from outside (machine labels, hostnames, device names) are data that ends up in
 * tables, scripts and comments: one with a control character (C0/C1 controls incl. CR, LF, NUL and
 * ESC; format characters such as bidi overrides; the Unicode line and paragraph separators; lone
 * surrogates) is
 * refused where it enters. Pure.
 */
const CLASS = '[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Cs}]';
const CONTROL = new RegExp(CLASS, 'u');
/** Every control character of a text (global: use with replace, never with test). */
export const CONTROL_CHARS = new RegExp(CLASS, 'gu');

/** Whether one character is a control character (C0/C1, format, line or paragraph separator, lone surrogate). */
export const isControlChar = (c: string): boolean => CONTROL.test(c);

/** How much of a refused name a message shows. */
const SHOWN_CHARS = 80;

/** "U+000A" for a character. */
export function codePointName(c: string): string {
  return `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The first control character of `text`, or null. */
function firstControlChar(text: string): string | null {
  return CONTROL.exec(text)?.[0] ?? null;
}

/** `text` with each control character as a visible `\uXXXX`, cut to a length a line can show. */
export function visibleName(text: string): string {
  const chars = [...text];
  const cut = chars.length > SHOWN_CHARS ? `${chars.slice(0, SHOWN_CHARS).join('')}...` : text;
  return cut.replace(CONTROL_CHARS, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}

/** `what "name" has a control character (U+000A)`, or null when the name is plain text. */
export function controlCharProblem(what: string, name: string): string | null {
  const c = firstControlChar(name);
  return c === null ? null : `${what} "${visibleName(name)}" has a control character (${codePointName(c)})`;
}
