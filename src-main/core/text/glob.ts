/** Shell-style patterns over names (machine labels): * any run of characters, ? one. Pure. */

const patterns = new Map<string, RegExp>();

function patternOf(glob: string): RegExp {
  let re = patterns.get(glob);
  if (!re) {
    const body = glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.');
    re = new RegExp(`^${body}$`);
    patterns.set(glob, re);
  }
  return re;
}

/** Whether a name matches a pattern with * and ? wildcards (whole name, case-sensitive). */
export function globMatches(glob: string, name: string): boolean {
  return patternOf(glob).test(name);
}

/** Whether the text has a wildcard. */
export const isGlob = (text: string): boolean => /[*?]/.test(text);
