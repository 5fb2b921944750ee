/**
 * GPU names as people type them, without the catalog: the normal form every name is compared in,
 * the loose match `--virtual`, `pipedejavu gpus` and the app's search share, and the rule that
 * picks one part of a family a short name ("H100", "A100") stands for. Pure (the renderer's
 * search runs it too, through src-main/api).
 */

const VENDOR_WORDS = new Set(['nvidia', 'geforce', 'tesla']);

/** Lower case, words split on anything not a letter or digit, vendor words dropped: "NVIDIA A100-SXM4-80GB" -> "a100 sxm4 80gb". */
export function normalizeGpuName(name: string): string {
  return name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '' && !VENDOR_WORDS.has(w))
    .join(' ');
}

/** A name without case, spaces, punctuation or vendor words: "NVIDIA H100-SXM5" -> "h100sxm5". */
export const compactGpuName = (name: string): string => normalizeGpuName(name).replace(/ /g, '');

/** The typed text as the words a match must hold: "RTX-4090" -> ["rtx", "4090"]. */
export const typedWords = (typed: string): string[] => normalizeGpuName(typed).split(' ').filter(Boolean);

/**
 * Whether one of a GPU's names holds every typed word, each anywhere in the compacted name
 * ("4090" in "rtx4090", "h100" and "sxm" in "h100sxm580gb"): the loose match. No words match
 * nothing.
 */
export function namesHoldWords(names: readonly string[], words: readonly string[]): boolean {
  return words.length > 0 && names.some((n) => words.every((w) => compactGpuName(n).includes(w)));
}

/** Whether a name's last words are the typed words: "RTX 3090" ends with "3090", "RTX 3090 Ti" does not. */
export function endsWithWords(name: string, words: readonly string[]): boolean {
  const own = normalizeGpuName(name).split(' ');
  return own.length >= words.length && words.every((w, i) => own[own.length - words.length + i] === w);
}

/** Words that tell the parts of one GPU family apart: a form factor or a memory size ("sxm5", "pcie", "80gb"). */
const PART_WORD = /^(sxm\d*|pcie|\d+gb)$/;

/**
 * Whether a name is the typed words plus part words only, so the typed words are its family:
 * "A100 SXM4 80GB" and "A100 PCIe 40GB" are parts of "a100"; "RTX PRO 6000 Blackwell" is no part of "6000".
 */
export function isFamilyPart(name: string, words: readonly string[]): boolean {
  const own = normalizeGpuName(name).split(' ');
  return words.every((w) => own.includes(w)) && own.every((w) => words.includes(w) || PART_WORD.test(w));
}

/** What the family rule reads of a GPU. */
interface FamilyPart {
  formFactor: 'sxm' | 'pcie';
  memory: { sizeGiB: number };
}

/**
 * The part a family name stands for: the board module (SXM, what servers and published
 * measurements use) before the card, then the most memory; the earlier in the list on a tie.
 */
export function familyPick<T extends FamilyPart>(parts: readonly T[]): T | undefined {
  const form = (g: T): number => (g.formFactor === 'sxm' ? 0 : 1);
  return [...parts].sort((a, b) => form(a) - form(b) || b.memory.sizeGiB - a.memory.sizeGiB)[0];
}

/** The rule familyPick applies, as a note says it. */
export const FAMILY_RULE_TEXT = 'SXM before PCIe, then the most memory';
