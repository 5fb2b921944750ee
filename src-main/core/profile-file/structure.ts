/**
 * A profile's (or a profile archive's) structure sizes, checked on its text before JSON.parse
 * materialises it: how many entries each known array has (devices, measurements, the topology's
 * labels and rows, ...), and how many objects, arrays and values it holds in all. One
 * pass over the text that allocates nothing but the keys it reads, so a file under the byte cap
 * with a 3000x3000 topology is refused in one line instead of growing to gigabytes. Pure.
 */
import { ARCHIVE_LIMITS, LIMITS } from './schema.js';

/** The arrays with a size limit, by path (`[]` is "each entry of"), in a profile file. */
const PROFILE_ARRAY_LIMITS: Record<string, keyof typeof LIMITS> = {
  devices: 'maxDevices',
  links: 'maxLinks',
  profileRuns: 'maxRuns',
  'profileRuns[].notes': 'maxNotes',
  measurements: 'maxMeasurements',
  predictors: 'maxPredictors',
  'machine.probe.warnings': 'maxNotes',
  'machine.probe.nvidia.gpus': 'maxDevices',
  'machine.probe.nvidia.gpus[].nvlinks': 'maxNvlinksPerGpu',
  'machine.probe.nvidia.topology.labels': 'maxTopologyLabels',
  'machine.probe.nvidia.topology.matrix': 'maxTopologyLabels',
  'machine.probe.nvidia.topology.matrix[]': 'maxTopologyLabels',
  'machine.probe.nvidia.topology.cpuAffinity': 'maxTopologyLabels',
  'machine.probe.nvidia.topology.numaAffinity': 'maxTopologyLabels',
  'machine.probe.nvidia.topology.gpuNumaId': 'maxTopologyLabels',
};

interface Limit {
  max: number;
  name: string;
}

/** The same paths inside an archive's profiles, and the archive's own list. */
const ARRAY_LIMITS: ReadonlyMap<string, Limit> = new Map([
  ...Object.entries(PROFILE_ARRAY_LIMITS).flatMap(([p, k]): [string, Limit][] => {
    const limit = { max: LIMITS[k], name: `LIMITS.${k}` };
    return [
      [p, limit],
      [`profiles[].${p}`, limit],
    ];
  }),
  ['profiles', { max: ARCHIVE_LIMITS.maxProfiles, name: 'ARCHIVE_LIMITS.maxProfiles' }],
]);

/**
 * How deep the scan follows nesting (the scan's own stack); a profile's real limit, MAX_NESTING,
 * is checked on the parsed value with its own message.
 */
const MAX_SCAN_DEPTH = 100_000;
/** Members an object has before each further one counts against LIMITS.maxMapEntries. */
const SMALL_OBJECT_MEMBERS = 64;
/** Keys are read (for the paths above) only this deep; deeper ones are free-form. */
const KEYED_DEPTH = 8;

interface Frame {
  array: boolean;
  /** The path with `[]` for "an entry of" (what ARRAY_LIMITS names)... */
  path: string;
  /** ...and with the entry's index, for the message. */
  shown: string;
  /** Entries so far (arrays): commas seen, plus one once a value has started. */
  entries: number;
  started: boolean;
  limit: Limit | undefined;
  /** The last key read (objects). */
  key: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index just past the string that opens at `i` (a quote), or -1 when it never closes. */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) return -1;
    let slashes = 0;
    for (let k = q - 1; k > i && text.charCodeAt(k) === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

function keyText(raw: string): string {
  if (!raw.includes('\\')) return raw.slice(1, -1);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return '';
  }
}

function childPath(parent: Frame | undefined): { path: string; shown: string } {
  if (!parent) return { path: '', shown: '' };
  if (parent.array) return { path: `${parent.path}[]`, shown: `${parent.shown}[${parent.entries - 1}]` };
  const join = (p: string): string => (p ? `${p}.${parent.key}` : parent.key);
  return { path: join(parent.path), shown: join(parent.shown) };
}

/**
 * The first structure size of the text past its limit, as one line
 * (`machine.probe.nvidia.topology.labels has 3000 entries, more than 256 (LIMITS.maxTopologyLabels)`),
 * or null. Text that is not JSON is left to JSON.parse to describe.
 */
export function structureRefusal(text: string): string | null {
  const stack: Frame[] = [];
  /** An array past its limit: scanned to its end to say how many entries it has. */
  let over: Frame | null = null;
  let containers = 0;
  let values = 0;
  let mapEntries = 0;
  let textChars = 0;
  let expectKey = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    const top = stack[stack.length - 1];
    if (top?.array && !top.started && c !== 0x5d) {
      top.started = true;
      top.entries = 1;
      values++;
    }
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) return null;
      if (end - i - 2 > LIMITS.maxStringChars) {
        const where = top ? (top.array ? `${top.shown}[${top.entries - 1}]` : childPath(top).shown) : '(top level)';
        return `${where} is a string of ${end - i - 2} characters, more than ${LIMITS.maxStringChars} (LIMITS.maxStringChars)`;
      }
      if (expectKey && top && !top.array) top.key = stack.length <= KEYED_DEPTH ? keyText(text.slice(i, end)) : '*';
      else if ((textChars += end - i - 2) > LIMITS.maxTextChars) {
        return `holds more than ${LIMITS.maxTextChars} characters of text (LIMITS.maxTextChars)`;
      }
      i = end - 1;
    } else if (c === 0x7b || c === 0x5b) {
      // { or [
      containers++;
      if (containers > LIMITS.maxJsonContainers) {
        if (over) return tooMany(over);
        return `holds more than ${LIMITS.maxJsonContainers} objects and arrays (LIMITS.maxJsonContainers)`;
      }
      if (stack.length >= MAX_SCAN_DEPTH) return `nests deeper than ${MAX_SCAN_DEPTH} levels`;
      const { path, shown } = childPath(top);
      const array = c === 0x5b;
      const limit = array ? ARRAY_LIMITS.get(path) : undefined;
      stack.push({ array, path, shown, entries: 0, started: false, limit, key: '' });
      expectKey = !array;
    } else if (c === 0x7d || c === 0x5d) {
      // } or ]
      const done = stack.pop();
      if (done && done === over) return tooMany(done, true);
      expectKey = false;
    } else if (c === 0x2c) {
      // ,
      if (top?.array) {
        top.entries++;
        values++;
        if (over === null && top.limit && top.entries > top.limit.max) over = top;
      } else expectKey = true;
    } else if (c === 0x3a) {
      expectKey = false;
      values++;
      if (top && !top.array && ++top.entries > SMALL_OBJECT_MEMBERS && ++mapEntries > LIMITS.maxMapEntries) {
        return `${top.shown || '(top level)'} has ${top.entries}+ members; objects of more than ${SMALL_OBJECT_MEMBERS} members hold more than ${LIMITS.maxMapEntries} in all (LIMITS.maxMapEntries)`;
      }
    }
    if (values > LIMITS.maxJsonValues) {
      if (over) return tooMany(over);
      return `holds more than ${LIMITS.maxJsonValues} values (LIMITS.maxJsonValues)`;
    }
  }
  return over ? tooMany(over) : null;
}

/** The line for an array past its limit; `counted` when it was scanned to its end. */
function tooMany(f: Frame, counted = false): string {
  const limit = f.limit as Limit;
  const has = counted ? `${f.entries} entries, more than ${limit.max}` : `more than ${limit.max} entries`;
  return `${f.shown} has ${has} (${limit.name})`;
}
