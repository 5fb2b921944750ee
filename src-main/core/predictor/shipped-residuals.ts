/**
 * The residuals the product ships for the prediction band (models/prediction-residuals.json): the
 * prediction bench's held-out whole-model errors on CPUs of this project's kinds, used until a
 * device has enough measure-model checks of its own. Pure.
 */
import { z } from 'zod';
import shipped from '../../../models/prediction-residuals.json' with { type: 'json' };
import type { Residual } from './model-band.js';

const FileSchema = z.object({
  runs: z.array(
    z.object({
      cpu: z.string(),
      date: z.string(),
      bench: z.string(),
      residuals: z.array(
        z.object({
          model: z.string(),
          threads: z.number().int().positive(),
          logRatio: z.number(),
          predictedMs: z.number().positive(),
        }),
      ),
    }),
  ),
});

const RUNS = FileSchema.parse(shipped).runs;

/** Every shipped run's residuals, with the bench file it came from (left out when that run is the one evaluated). */
export const SHIPPED_RUNS: readonly { bench: string; residuals: readonly Residual[] }[] = RUNS.map((run) => ({
  bench: run.bench,
  residuals: run.residuals.map((r) => ({
    model: r.model,
    threads: r.threads,
    logRatio: r.logRatio,
    predictedUs: r.predictedMs * 1000,
  })),
}));

export const SHIPPED_RESIDUALS: readonly Residual[] = SHIPPED_RUNS.flatMap((r) => r.residuals);

/** Where the shipped residuals come from, for the line that prints a band. */
export const SHIPPED_SOURCE: string = RUNS.map((r) => `${r.cpu} ${r.date}`).join('; ');
