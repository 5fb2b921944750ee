/**
 * Reading and writing hardware-profile files: one canonical text per content (so
 * export -> import -> export is byte-identical), and one clear message per bad file.
 * Pure: takes and returns strings.
 */
import type { z } from 'zod';
import { UserError } from '../errors.js';
import { controlCharRefusal } from '../text/shown.js';
import { structureRefusal } from './structure.js';
import {
  LIMITS,
  PROFILE_ARCHIVE_FORMAT,
  PROFILE_FORMAT,
  PROFILE_FORMAT_VERSION,
  ProfileFileSchema,
  type ProfileFile,
} from './schema.js';

export class ProfileFileError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'ProfileFileError';
  }
}

/** Sorts object keys recursively: free-form maps get one order whatever order they came in. */
function sortDeep<T>(v: T): T {
  if (Array.isArray(v)) return v.map(sortDeep) as T;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, sortDeep(o[k])]),
    ) as T;
  }
  return v;
}

/**
 * The canonical text of a profile: schema key order for schema objects, sorted keys
 * for free-form maps, 2-space indent, trailing newline.
 */
export function encodeProfile(file: ProfileFile): string {
  return canonicalText(ProfileFileSchema.parse(file));
}

/** The canonical text of a file decodeProfile returned (validated already: not parsed again). */
export function canonicalText(f: ProfileFile): string {
  return `${JSON.stringify(canonicalProfile(f), null, 2)}\n`;
}

/** A validated profile with its free-form maps in canonical key order (what canonicalText writes). */
export function canonicalProfile(f: ProfileFile): ProfileFile {
  const topology = f.machine.probe.nvidia.topology;
  return {
    ...f,
    provenance: { ...f.provenance, runtimes: sortDeep(f.provenance.runtimes) },
    machine: {
      ...f.machine,
      probe: {
        ...f.machine.probe,
        nvidia: {
          ...f.machine.probe.nvidia,
          topology: topology ? { ...topology, nicNames: sortDeep(topology.nicNames) } : null,
        },
      },
    },
    profileRuns: f.profileRuns.map((r) => ({ ...r, summary: sortDeep(r.summary) })),
    measurements: f.measurements.map((m) => ({ ...m, shape: sortDeep(m.shape) })),
    predictors: f.predictors.map((p) => ({
      ...p,
      trainingSet: sortDeep(p.trainingSet),
      report: sortDeep(p.report),
      model: sortDeep(p.model),
    })),
  };
}

function describePath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>(
    (acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)),
    '',
  );
}

/** The first of zod's issues as one line: `invalid <what>: <path>: <message> (and N more problems)`. */
export function describeIssues(issues: z.core.$ZodIssue[], what = 'hardware profile'): string {
  const first = issues[0];
  if (!first) return `invalid ${what}`;
  const where = describePath(first.path) || '(top level)';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  return `invalid ${what}: ${where}: ${first.message}${more}`;
}

/** How deep objects and arrays may nest in a profile (a forest's trees are stored flat). */
const MAX_NESTING = 64;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True when `v` nests deeper than `limit`; iterative, so no input can overflow the stack. */
function nestsDeeper(v: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[v, 0]];
  while (stack.length) {
    const [x, depth] = stack.pop() as [unknown, number];
    if (x === null || typeof x !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(x) ? x : Object.values(x)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Parses and fully validates a profile file's text. Throws ProfileFileError with one line. */
export function decodeProfile(text: string, sourceName = 'file'): ProfileFile {
  return profileFromJson(parseProfileJson(text, sourceName), sourceName);
}

/**
 * The JSON value of a profile file's (or a profile archive's) text, a leading BOM ignored.
 * Throws ProfileFileError with one line when it is too large or not JSON.
 */
export function parseProfileJson(text: string, sourceName = 'file'): unknown {
  if (text.length > LIMITS.maxFileBytes)
    throw new ProfileFileError(
      `${sourceName} is too large to be a hardware profile (at most ${LIMITS.maxFileBytes / 2 ** 20} MiB, LIMITS.maxFileBytes)`,
    );
  const tooBig = structureRefusal(text);
  if (tooBig) throw new ProfileFileError(`${sourceName}: ${tooBig}; not imported`);
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    const reason = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').slice(0, 160);
    throw new ProfileFileError(`${sourceName} is not JSON (${reason}); expected a pipeDejavu hardware profile`);
  }
}

/** Validates one parsed profile (a file's JSON, or one entry of an archive's). */
export function profileFromJson(raw: unknown, sourceName = 'file'): ProfileFile {
  // Measurements have a flat, strict schema (checked below); the free-form parts can nest.
  const freeForm = isObject(raw) ? { ...raw, measurements: [] } : raw;
  if (nestsDeeper(freeForm, MAX_NESTING)) {
    throw new ProfileFileError(
      `${sourceName} nests objects deeper than ${MAX_NESTING} levels; not a pipeDejavu hardware profile`,
    );
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ProfileFileError(`${sourceName} is not a pipeDejavu hardware profile (expected a JSON object)`);
  }
  const obj = raw as Record<string, unknown>;
  if (obj.format === PROFILE_ARCHIVE_FORMAT) {
    throw new ProfileFileError(
      `${sourceName} is an archive of several hardware profiles, not one; import it with \`pipedejavu import\``,
    );
  }
  if (obj.format !== PROFILE_FORMAT) {
    throw new ProfileFileError(`${sourceName} is not a pipeDejavu hardware profile (no "format": "${PROFILE_FORMAT}")`);
  }
  if (typeof obj.formatVersion !== 'number') {
    throw new ProfileFileError(`${sourceName} has no numeric formatVersion`);
  }
  if (obj.formatVersion > PROFILE_FORMAT_VERSION) {
    throw new ProfileFileError(
      `${sourceName} uses format version ${obj.formatVersion}, newer than this pipeDejavu reads (${PROFILE_FORMAT_VERSION}); update pipeDejavu`,
    );
  }
  if (obj.formatVersion !== PROFILE_FORMAT_VERSION) {
    throw new ProfileFileError(`${sourceName} uses unknown format version ${obj.formatVersion}`);
  }
  const parsed = ProfileFileSchema.safeParse(raw);
  if (!parsed.success) throw new ProfileFileError(`${sourceName}: ${describeIssues(parsed.error.issues)}`);
  const problem = namesRefusal(parsed.data);
  if (problem) {
    throw new ProfileFileError(
      `${sourceName}: ${problem}; names in a profile must be plain text, so the file was not imported`,
    );
  }
  return parsed.data;
}

/**
 * The first name of a profile that holds a control character (they go into tables, scripts and
 * comments), as `what "name" has a control character (U+000A)`; null when every name is plain.
 */
function namesRefusal(f: ProfileFile): string | null {
  const probe = f.machine.probe;
  const names: [string, string][] = [
    ['machine label', f.machine.label],
    ['hostname', probe.hostname],
    ['CPU name', probe.cpu.brand],
    ['CPU manufacturer', probe.cpu.manufacturer],
    ...probe.nvidia.gpus.map((g): [string, string] => ['GPU name', g.name]),
    ...f.devices.map((d): [string, string] => ['device name', d.name]),
    ...(probe.nvidia.topology?.labels ?? []).map((l): [string, string] => ['topology label', l]),
  ];
  for (const [what, name] of names) {
    const problem = controlCharRefusal(what, name);
    if (problem) return problem;
  }
  return null;
}
