/**
 * The hardware-profile file: one machine's probe, devices, links, profile runs,
 * measurements and trained predictors, with provenance. Versioned; the JSON Schema
 * in schemas/ is generated from this (npm run build:schema) and checked by a test.
 * Pure.
 */
import { z } from 'zod';
import { DeviceSchema, LinkSchema } from '../domain/devices.js';
import { ProbeResultSchema } from '../domain/hardware.js';
import { MeasurementSchema, ProfileRunSchema, shapeKey } from '../domain/measurement.js';

export const PROFILE_FORMAT = 'pipedejavu-hardware-profile';
export const PROFILE_FORMAT_VERSION = 1;

/** Sanity bounds: values past these are corrupt or hand-edited, never real hardware. */
export const LIMITS = {
  maxDeviceMemoryBytes: 2 ** 50, // 1 PiB
  maxFlops: 1e21,
  maxBytes: 2 ** 50,
  maxKernelMicroseconds: 3.6e9, // one hour for one kernel
  maxDimension: 2 ** 40,
  // Memory of an import grows with what is parsed (about 3.3 MB per 1000 measurements at the
  // peak): with the structure caps below, `pipedejavu import` stays under 1 GB for any input.
  maxMeasurements: 150_000,
  maxDevices: 1024,
  // A machine links each pair of its devices at most a few ways.
  maxLinks: 65_536,
  maxRuns: 100_000,
  maxPredictors: 1_000,
  maxFileBytes: 128 * 1024 * 1024,
  // Checked on the text before it is parsed (structure.ts):
  /** Rows and columns of `nvidia-smi topo -m` (GPUs and NICs; a DGX has 18). */
  maxTopologyLabels: 256,
  maxNvlinksPerGpu: 64,
  /** A run's notes, the probe's warnings. */
  maxNotes: 1_000,
  /** Objects and arrays in all, in a profile or an archive: each measurement has three. */
  maxJsonContainers: 750_000,
  /** Array entries and object members in all (a flat forest predictor holds millions of numbers). */
  maxJsonValues: 4_000_000,
  /**
   * Members of objects past their 64th, in all: free-form maps (a predictor's fits by op) are
   * small; a map with millions of keys costs gigabytes to parse and copy.
   */
  maxMapEntries: 100_000,
  /** One string (a label, a warning, a note); predictors store numbers, not text. */
  maxStringChars: 1024 * 1024,
  /** All strings but keys, in all (a measurement has about 60 characters of them). */
  maxTextChars: 32 * 1024 * 1024,
  /** Links per ordered pair of devices from one source (the store keeps one). */
  maxLinksPerPair: 1,
} as const;

/**
 * How an import refused because the store holds a newer (or a different) copy of the machine ends:
 * the CLI's `--replace` and the app's "Replace" button repeat it with `replace`.
 */
export const REPLACE_HINT = 'pass --replace to replace the stored profile with it';

export const ProvenanceSchema = z.object({
  tool: z.literal('pipedejavu'),
  toolVersion: z.string(),
  exportedAt: z.string(),
  runtimes: z.record(z.string(), z.string()),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

export const StoredPredictorSchema = z.object({
  name: z.string().min(1),
  version: z.number().int().nonnegative(),
  kind: z.string().min(1),
  trainedAt: z.string(),
  trainingSet: z.record(z.string(), z.unknown()),
  report: z.record(z.string(), z.unknown()).nullable(),
  /**
   * The predictor's trained state (its toJSON()). Format v1 names it `model`, from before "model" meant
   * the network only; files keep the name so every version reads them (the store's column is predictor_json).
   */
  model: z.record(z.string(), z.unknown()),
});
export type StoredPredictor = z.infer<typeof StoredPredictorSchema>;

const BoundedDeviceSchema = DeviceSchema.extend({
  memoryBytes: z.number().nonnegative().max(LIMITS.maxDeviceMemoryBytes, 'absurd memory size').nullable(),
});

const microseconds = z.number().finite().positive().max(LIMITS.maxKernelMicroseconds, 'absurd time');
const BoundedMeasurementSchema = MeasurementSchema.extend({
  // The cap first: a dimension of 2^53 is named as over it, not as an unsafe integer.
  shape: z.record(
    z.string(),
    z
      .number()
      .max(LIMITS.maxDimension, {
        error: (iss) => `absurd dimension ${String(iss.input)} (over 2^40, LIMITS.maxDimension)`,
      })
      .int()
      .nonnegative(),
  ),
  flops: z.number().finite().nonnegative().max(LIMITS.maxFlops, 'absurd FLOP count'),
  bytes: z.number().finite().nonnegative().max(LIMITS.maxBytes, 'absurd byte count'),
  stats: MeasurementSchema.shape.stats.extend({
    medianUs: microseconds,
    p10Us: microseconds,
    p90Us: microseconds,
    wallMedianUs: microseconds.nullable(),
  }),
});

export const ProfileFileSchema = z
  .object({
    format: z.literal(PROFILE_FORMAT),
    formatVersion: z.literal(PROFILE_FORMAT_VERSION),
    provenance: ProvenanceSchema,
    machine: z.object({
      id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'machine id must be 1-64 letters, digits, _ or -'),
      label: z.string().min(1).max(200),
      probe: ProbeResultSchema,
    }),
    devices: z.array(BoundedDeviceSchema).min(1).max(LIMITS.maxDevices),
    links: z.array(LinkSchema).max(LIMITS.maxLinks),
    profileRuns: z.array(ProfileRunSchema).max(LIMITS.maxRuns),
    measurements: z.array(BoundedMeasurementSchema).max(LIMITS.maxMeasurements),
    predictors: z.array(StoredPredictorSchema).max(LIMITS.maxPredictors),
  })
  .superRefine((file, ctx) => {
    const deviceKeys = new Set(file.devices.map((d) => d.key));
    if (deviceKeys.size !== file.devices.length) {
      ctx.addIssue({ code: 'custom', path: ['devices'], message: 'duplicate device key' });
    }
    const runIds = new Set(file.profileRuns.map((r) => r.id));
    file.profileRuns.forEach((r, i) => {
      if (!deviceKeys.has(r.deviceKey))
        ctx.addIssue({
          code: 'custom',
          path: ['profileRuns', i, 'deviceKey'],
          message: `unknown device "${r.deviceKey}"`,
        });
    });
    const seen = new Set<string>();
    file.measurements.forEach((m, i) => {
      const identity = [m.deviceKey, m.executionProvider, m.threads, m.op, shapeKey(m.shape), m.dtype].join('|');
      if (seen.has(identity))
        ctx.addIssue({ code: 'custom', path: ['measurements', i], message: 'the same measurement appears twice' });
      seen.add(identity);
      if (!runIds.has(m.runId))
        ctx.addIssue({
          code: 'custom',
          path: ['measurements', i, 'runId'],
          message: `unknown profile run "${m.runId}"`,
        });
      if (!deviceKeys.has(m.deviceKey))
        ctx.addIssue({
          code: 'custom',
          path: ['measurements', i, 'deviceKey'],
          message: `unknown device "${m.deviceKey}"`,
        });
      if (m.stats.p10Us > m.stats.medianUs || m.stats.medianUs > m.stats.p90Us)
        ctx.addIssue({
          code: 'custom',
          path: ['measurements', i, 'stats'],
          message: 'p10 <= median <= p90 does not hold',
        });
    });
    const linksPerPair = new Map<string, number>();
    file.links.forEach((l, i) => {
      if (!deviceKeys.has(l.a) || !deviceKeys.has(l.b))
        ctx.addIssue({ code: 'custom', path: ['links', i], message: `link ${l.a}-${l.b} names an unknown device` });
      const pair = JSON.stringify([l.a, l.b, l.source]);
      const n = (linksPerPair.get(pair) ?? 0) + 1;
      linksPerPair.set(pair, n);
      if (n === LIMITS.maxLinksPerPair + 1)
        ctx.addIssue({
          code: 'custom',
          path: ['links', i],
          message: `links between ${l.a} and ${l.b} (${l.source}): more than ${LIMITS.maxLinksPerPair} (LIMITS.maxLinksPerPair)`,
        });
    });
  });
export type ProfileFile = z.infer<typeof ProfileFileSchema>;

/**
 * Several machines' hardware profiles in one file (`pipedejavu export --machine a,b,c` or `--all`):
 * each entry is exactly a hardware-profile file's object. Versioned on its own; read whole by
 * `pipedejavu import` within the same size cap as one profile (LIMITS.maxFileBytes).
 */
export const PROFILE_ARCHIVE_FORMAT = 'pipedejavu-profile-archive';
export const PROFILE_ARCHIVE_FORMAT_VERSION = 1;
export const ARCHIVE_LIMITS = { maxProfiles: 4096 } as const;

/** The archive around its profiles, which are left to be validated one by one as profile files are. */
export const ProfileArchiveEnvelopeSchema = z.object({
  format: z.literal(PROFILE_ARCHIVE_FORMAT),
  formatVersion: z.literal(PROFILE_ARCHIVE_FORMAT_VERSION),
  profiles: z
    .array(z.unknown())
    .min(1, 'an archive holds at least one profile')
    .max(ARCHIVE_LIMITS.maxProfiles, `more than ${ARCHIVE_LIMITS.maxProfiles} profiles`),
});

/** Positions (0-based) of the first two profiles of one machine, or null when every machine appears once. */
export function repeatedMachine(profiles: readonly { machine: { id: string } }[]): [number, number] | null {
  const first = new Map<string, number>();
  for (const [i, p] of profiles.entries()) {
    const seen = first.get(p.machine.id);
    if (seen !== undefined) return [seen, i];
    first.set(p.machine.id, i);
  }
  return null;
}

export const ProfileArchiveSchema = ProfileArchiveEnvelopeSchema.extend({
  profiles: z.array(ProfileFileSchema).min(1).max(ARCHIVE_LIMITS.maxProfiles),
}).superRefine((archive, ctx) => {
  const twice = repeatedMachine(archive.profiles);
  if (twice)
    ctx.addIssue({
      code: 'custom',
      path: ['profiles', twice[1], 'machine', 'id'],
      message: `machine ${archive.profiles[twice[1]]?.machine.id ?? ''} appears twice (profiles ${twice[0] + 1} and ${twice[1] + 1})`,
    });
});
