/** Text helpers shared by the nvidia-smi parsers. */

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

/** Removes ANSI escape sequences and carriage returns. */
export function cleanText(text: string): string {
  return text.replace(ANSI, '').replace(/\r/g, '');
}

/** The first non-empty line of some output, shortened, for a warning. */
export function firstLine(text: string): string {
  const line = cleanText(text)
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  return line === undefined ? '(no output)' : line.length > 200 ? `${line.slice(0, 200)}...` : line;
}
