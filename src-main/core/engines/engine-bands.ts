/**
 * Each engine's band: how far its datasheet serving figures were from independent measurements.
 * The 5th to 95th percentile of measured / predicted time over the engine's held-out (third-party)
 * cells of bench/engines, written by `npm run bench:engines -- --write-bands` into
 * models/engine-bands.json, with the cells it came from and how many held-out cells a band taken
 * from the other sources alone held. An engine with too few held-out cells has no band. Pure.
 */
import { z } from 'zod';
import bandFile from '../../../models/engine-bands.json' with { type: 'json' };
import { ENGINE_NAMES, type EngineName } from './engine-names.js';

const EngineBandSchema = z.strictObject({
  /** Measured over predicted time, 5th and 95th percentiles. */
  low: z.number().positive(),
  high: z.number().positive(),
  /** Held-out cells priced, and the sources they came from. */
  cells: z.number().int().nonnegative(),
  sources: z.array(z.string()),
  /** Held-out cells inside a band taken from the engine's other sources only (leave one source out). */
  coverage: z.strictObject({ inside: z.number().int().nonnegative(), of: z.number().int().nonnegative() }),
  /** Median |error| of those cells. */
  medianAbsError: z.number().nonnegative(),
});

const BandFileSchema = z.strictObject({
  about: z.string(),
  date: z.string(),
  command: z.string(),
  engines: z.partialRecord(z.enum(ENGINE_NAMES as [EngineName, ...EngineName[]]), EngineBandSchema),
});

export type EngineBand = z.infer<typeof EngineBandSchema>;

const BANDS = BandFileSchema.parse(bandFile);

/** The engine's band, or null when its held-out cells were too few to give one. */
export function engineBand(engine: EngineName): EngineBand | null {
  return BANDS.engines[engine] ?? null;
}
