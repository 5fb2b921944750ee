/**
 * The analytical predictor: time = overhead + roofline bound / λ, with one efficiency λ
 * (the BSP model's lambda) and one overhead per op family and device, fitted by
 * least squares on relative error (weights 1/t²). Unseen (family, device) pairs
 * borrow λ from the same family on other devices, then from the device's other
 * families. Pure.
 */
import { z } from 'zod';
import { rooflineParts } from './features.js';
import { groupBy } from '../util/group-by.js';
import { bandedPrediction, BandTableSchema, fitBands, type BandTable } from './residual-band.js';
import { trainingRanges, TrainingRangesSchema, type TrainingRanges } from './training-ranges.js';
import { checkPredictorJson } from './types.js';
import type { DeviceFeatures, OpQuery, Prediction, Predictor, PredictorJson, Sample } from './types.js';

const FitSchema = z.object({
  lambda: z.number().positive(),
  overheadUs: z.number().nonnegative(),
  n: z.number().int(),
});
type Fit = z.infer<typeof FitSchema>;

const StoredSchema = z.object({
  fits: z.record(z.string(), FitSchema),
  ranges: TrainingRangesSchema,
  bands: BandTableSchema,
});

const key = (family: string, deviceId: string): string => `${family}@${deviceId}`;

/** Weighted least squares of t = a + b·x with weights 1/t² (relative error). */
function fitRelative(xs: readonly number[], ts: readonly number[]): { a: number; b: number } | null {
  let sw = 0,
    sx = 0,
    st = 0,
    sxx = 0,
    sxt = 0;
  for (let i = 0; i < xs.length; i++) {
    const t = ts[i] as number;
    const x = xs[i] as number;
    const w = 1 / (t * t);
    sw += w;
    sx += w * x;
    st += w * t;
    sxx += w * x * x;
    sxt += w * x * t;
  }
  const det = sw * sxx - sx * sx;
  if (xs.length < 2 || Math.abs(det) < 1e-300) return null;
  return { a: (st * sxx - sx * sxt) / det, b: (sw * sxt - sx * st) / det };
}

function fitGroup(samples: readonly Sample[]): Fit {
  const xs = samples.map((s) => rooflineParts(s, s.device).boundUs);
  const ts = samples.map((s) => s.timeUs);
  const dispatch = samples[0]?.device.dispatchUs ?? 0;
  const line = fitRelative(xs, ts);
  if (line && line.b > 0 && line.a >= 0)
    return { lambda: Math.min(1, 1 / line.b), overheadUs: line.a, n: samples.length };
  // Degenerate group (one size, or a negative intercept): overhead = dispatch, λ from the median ratio.
  const ratios = samples
    .map((s, i) => (xs[i] as number) / Math.max((ts[i] as number) - dispatch, 1e-9))
    .sort((a, b) => a - b);
  const lambda = Math.min(1, Math.max(1e-4, ratios[Math.floor(ratios.length / 2)] ?? 1));
  return { lambda, overheadUs: dispatch, n: samples.length };
}

const geoMean = (vs: readonly number[]): number => Math.exp(vs.reduce((a, v) => a + Math.log(v), 0) / vs.length);

export class AnalyticalPredictor implements Predictor {
  static readonly NAME = 'analytical';
  static readonly VERSION = 1;
  readonly name = AnalyticalPredictor.NAME;
  readonly version = AnalyticalPredictor.VERSION;
  private fits: Record<string, Fit> = {};
  private ranges: TrainingRanges = { devices: [], families: [], work: {} };
  private bands: BandTable = {};

  train(samples: readonly Sample[]): void {
    this.fits = {};
    for (const [k, g] of groupBy(samples, (s) => key(s.family, s.device.deviceId))) this.fits[k] = fitGroup(g);
    this.ranges = trainingRanges(samples);
    const raw = samples.map((s) => ({
      family: s.family,
      threads: s.device.threads,
      actual: s.timeUs,
      predicted: this.point(s),
    }));
    this.bands = fitBands(raw);
  }

  /** λ and overhead for a pair, borrowing from relatives when the pair was never fitted. */
  private fitFor(family: string, device: DeviceFeatures): { lambda: number; overheadUs: number } {
    const own = this.fits[key(family, device.deviceId)];
    if (own) return own;
    const entries = Object.entries(this.fits);
    const sameFamily = entries.filter(([k]) => k.startsWith(`${family}@`)).map(([, f]) => f);
    const sameDevice = entries.filter(([k]) => k.endsWith(`@${device.deviceId}`)).map(([, f]) => f);
    const pool = sameFamily.length ? sameFamily : sameDevice.length ? sameDevice : entries.map(([, f]) => f);
    if (!pool.length) return { lambda: 1, overheadUs: device.dispatchUs };
    return { lambda: geoMean(pool.map((f) => f.lambda)), overheadUs: device.dispatchUs };
  }

  private point(q: OpQuery): number {
    const f = this.fitFor(q.family, q.device);
    return f.overheadUs + rooflineParts(q, q.device).boundUs / f.lambda;
  }

  predict(queries: readonly OpQuery[]): Prediction[] {
    return queries.map((q) => bandedPrediction(this.bands, this.ranges, q, this.point(q)));
  }

  /** Fitted efficiency per "family@device", for the report. */
  efficiencies(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.fits).map(([k, f]) => [k, f.lambda]));
  }

  toJSON(): PredictorJson {
    return { name: this.name, version: this.version, fits: this.fits, ranges: this.ranges, bands: this.bands };
  }

  static load(json: unknown): AnalyticalPredictor {
    const j = checkPredictorJson(json, AnalyticalPredictor.NAME, AnalyticalPredictor.VERSION);
    const m = StoredSchema.parse(j);
    const p = new AnalyticalPredictor();
    p.fits = m.fits;
    p.ranges = m.ranges;
    p.bands = m.bands;
    return p;
  }
}
