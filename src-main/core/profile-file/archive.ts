/**
 * Profile archives: several machines' hardware profiles in one file. Each entry is encoded and
 * validated exactly as a profile file is, so a machine imported from an archive gets the content
 * hash its own file would give (importing both counts the second as already there).
 * Pure: takes and returns strings.
 */
import { canonicalProfile, describeIssues, parseProfileJson, profileFromJson, ProfileFileError } from './codec.js';
import {
  PROFILE_ARCHIVE_FORMAT,
  PROFILE_ARCHIVE_FORMAT_VERSION,
  ProfileArchiveEnvelopeSchema,
  ProfileArchiveSchema,
  repeatedMachine,
  type ProfileFile,
} from './schema.js';

/** What an import file holds: one machine's profile, or an archive of several. */
export type ProfileDocument = { kind: 'profile'; file: ProfileFile } | { kind: 'archive'; profiles: ProfileFile[] };

/**
 * The canonical text of an archive of these profiles, in this order: each profile as
 * encodeProfile canonicalises it, 2-space indent, trailing newline.
 */
export function encodeArchive(profiles: readonly ProfileFile[]): string {
  const archive = ProfileArchiveSchema.parse({
    format: PROFILE_ARCHIVE_FORMAT,
    formatVersion: PROFILE_ARCHIVE_FORMAT_VERSION,
    profiles,
  });
  return `${JSON.stringify({ ...archive, profiles: archive.profiles.map(canonicalProfile) }, null, 2)}\n`;
}

/**
 * Parses and fully validates an import file's text, a profile or an archive (told apart by
 * "format"). An archive is valid only when every profile in it is. Throws ProfileFileError
 * with one line.
 */
export function decodeProfileDocument(text: string, sourceName = 'file'): ProfileDocument {
  const raw = parseProfileJson(text, sourceName);
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const obj = raw as Record<string, unknown>;
    if (obj.format === PROFILE_ARCHIVE_FORMAT) return { kind: 'archive', profiles: archiveFromJson(obj, sourceName) };
  }
  return { kind: 'profile', file: profileFromJson(raw, sourceName) };
}

/** The name an archive's profile goes by in messages: "lab.json profile 2". */
export function archiveEntryName(sourceName: string, index: number): string {
  return `${sourceName} profile ${index + 1}`;
}

function archiveFromJson(raw: Record<string, unknown>, sourceName: string): ProfileFile[] {
  const version = raw.formatVersion;
  if (typeof version !== 'number') throw new ProfileFileError(`${sourceName} has no numeric formatVersion`);
  if (version > PROFILE_ARCHIVE_FORMAT_VERSION) {
    throw new ProfileFileError(
      `${sourceName} uses profile-archive format version ${version}, newer than this pipeDejavu reads (${PROFILE_ARCHIVE_FORMAT_VERSION}); update pipeDejavu`,
    );
  }
  const envelope = ProfileArchiveEnvelopeSchema.safeParse(raw);
  if (!envelope.success) {
    throw new ProfileFileError(`${sourceName}: ${describeIssues(envelope.error.issues, 'profile archive')}`);
  }
  const profiles = envelope.data.profiles.map((p, i) => profileFromJson(p, archiveEntryName(sourceName, i)));
  const twice = repeatedMachine(profiles);
  if (twice) {
    const [a, b] = twice;
    throw new ProfileFileError(
      `${sourceName} holds machine ${profiles[b]?.machine.id ?? ''} twice (profiles ${a + 1} and ${b + 1})`,
    );
  }
  return profiles;
}
