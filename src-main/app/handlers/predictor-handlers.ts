import type { EvaluationView, PredictorView } from '../../api/view-models.js';
import type { EvaluationReport } from '../../core/predictor/evaluation/types.js';
import { predictorRowsInUse } from '../../services/predict/predictor-service.js';
import { deviceLabels } from '../device-labels.js';
import { startJob } from './start-job.js';
import type { HandlerGroup } from './types.js';

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export const predictorHandlers: HandlerGroup<
  'predictor:list' | 'predictor:train' | 'predictor:evaluate' | 'predictor:report'
> = {
  'predictor:list': (_req, { db }) =>
    predictorRowsInUse(db).map((p): PredictorView => {
      const t = (p.trainingSet ?? {}) as Record<string, unknown>;
      return {
        name: p.name,
        trainedAt: p.trainedAt,
        samples: num(t.samples) ?? 0,
        devices: Array.isArray(t.devices) ? t.devices.length : (num(t.devices) ?? 0),
        families: Array.isArray(t.families) ? t.families.map(String) : [],
        trainMs: num(t.trainMs),
        hasReport: p.report !== null,
      };
    }),
  // The deprecated `models` reaches the job as it came, which says so in its log.
  'predictor:train': (req, deps) => startJob(deps, 'train', req, (req.predictors ?? req.models ?? ['all']).join(', ')),
  'predictor:evaluate': (req, deps) => startJob(deps, 'evaluate', req),
  'predictor:report': (_req, deps) => {
    // The newest evaluation of this session has the scatter; the stored one has the aggregates only.
    const job = deps.jobs.latestDone('evaluate', () => true);
    if (job?.result) return job.result as EvaluationView;
    const stored = predictorRowsInUse(deps.db).find((p) => p.report !== null)?.report;
    if (!stored) return null;
    const report = { scatter: [], ...stored } as unknown as EvaluationReport;
    return {
      report,
      deviceLabels: deviceLabels(deps.db),
      notes: ['stored evaluation: evaluate again for the predicted-vs-measured scatter'],
      sklearnFitSeconds: null,
    };
  },
};
