/**
 * What a GPU costs to rent: the shipped on-demand prices (models/gpu-prices.json, each with the
 * provider's page and the date it was read), and the prices a user gives over them (`--price
 * "H100 SXM5=2.5/h,4090=0.4/h"`). A price names its source, so the output can say which prices are
 * defaults. Pure.
 */
import { z } from 'zod';
import priceFile from '../../../../models/gpu-prices.json' with { type: 'json' };
import { UserError } from '../../errors.js';
import { GPU_DATASHEETS, resolveGpuName, type GpuDatasheet } from '../cost/datasheets.js';

const PriceSchema = z.strictObject({
  /** The datasheet GPU's id (models/gpus.json). */
  gpu: z.string().refine((id) => GPU_DATASHEETS.some((g) => g.id === id), 'gpu: an id of models/gpus.json'),
  /** Dollars per GPU-hour, on demand. */
  perHour: z.number().positive(),
  /** The offer as the page names it. */
  offer: z.string().min(1),
  source: z.strictObject({
    name: z.string().min(1),
    url: z.string().regex(/^https:\/\//),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  }),
  /** Where the page's figure was read when the page itself was not (a transcription of it). */
  via: z
    .string()
    .regex(/^https:\/\//)
    .optional(),
});

const PriceFileSchema = z
  .strictObject({ about: z.string(), prices: z.array(PriceSchema).min(1) })
  .refine((f) => new Set(f.prices.map((p) => p.gpu)).size === f.prices.length, 'one price per GPU');

export type GpuPrice = z.infer<typeof PriceSchema>;

/** The shipped prices, checked when the module loads. */
export const DEFAULT_GPU_PRICES: readonly GpuPrice[] = PriceFileSchema.parse(priceFile).prices;

/** A GPU's price as a deployment uses it: given by the user, or a shipped default with its source. */
export interface UsedPrice {
  perHour: number;
  given: boolean;
  source: GpuPrice['source'] | null;
}

/** The price of each GPU: a given one over the default; none when neither names the GPU. */
export function priceOf(gpu: GpuDatasheet, given: ReadonlyMap<string, number>): UsedPrice | null {
  const mine = given.get(gpu.id);
  if (mine !== undefined) return { perHour: mine, given: true, source: null };
  const d = DEFAULT_GPU_PRICES.find((p) => p.gpu === gpu.id);
  return d ? { perHour: d.perHour, given: false, source: d.source } : null;
}

/** Given prices by datasheet id, each GPU name resolved as --virtual resolves it. */
export function givenPrices(prices: readonly { gpu: string; perHour: number }[]): Map<string, number> {
  return new Map(prices.map((p) => [resolveGpuName(p.gpu).id, p.perHour]));
}

/**
 * `--price "H100 SXM5=2.5/h,4090=0.4/h"`: GPU=dollars per GPU-hour (the `/h` optional). A bad
 * entry is refused in one line naming it.
 */
export function parsePrices(text: string): { gpu: string; perHour: number }[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((entry) => {
      const m = /^(.+?)\s*=\s*\$?\s*([0-9]+(?:\.[0-9]+)?)\s*(?:\/\s*h(?:our|r)?)?$/i.exec(entry);
      const perHour = m ? Number(m[2]) : NaN;
      if (!m || !(perHour > 0) || perHour > 10_000)
        throw new UserError(`--price ${entry}: give GPU=DOLLARS/h, e.g. "H100 SXM5=2.5/h" (above 0, at most 10000)`);
      return { gpu: (m[1] as string).trim(), perHour };
    });
}
