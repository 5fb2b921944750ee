import { UsageError } from '../../core/errors.js';
import { positiveInt } from '../workload-options.js';
import { REQUEST_LIMITS } from '../../core/workload/limits.js';
import { shown } from '../../core/text/shown.js';
import { formatReport, formatSummary } from '../../core/predictor/evaluation/index.js';
import { evaluatePredictors } from '../../services/predict/evaluation-service.js';
import type { Command } from '../command.js';

export const evaluateCommand: Command = {
  name: 'evaluate',
  summary: "report every predictor's accuracy on held-out measurements, under every protocol",
  usage: '[--folds K] [--seed N] [--no-sklearn] [--verbose] [--json]',
  details:
    'Protocols: grouped k-fold (near-duplicate shapes never straddle train and test), unseen shapes\n' +
    '(interpolation; extrapolation beyond the largest trained size), leave-one-op-family-out, and\n' +
    'leave-one-device-out (thread counts of one CPU count as devices). Baselines side by side: pure\n' +
    "roofline, analytical, linear, our forest, and scikit-learn's forest on the same features and folds.\n" +
    'Ops under 10 µs are reported separately: timer noise dominates them. Without --verbose: a summary of\n' +
    'grouped k-fold (per predictor, and the best one per device).',
  options: {
    folds: { type: 'string', valueName: 'K', description: 'folds of the grouped k-fold protocol (default 5)' },
    seed: { type: 'string', valueName: 'N', description: 'seed of the splits and predictors (default 42)' },
    'no-sklearn': { type: 'boolean', description: "skip scikit-learn's reference forest" },
    verbose: { type: 'boolean', description: 'every protocol, per op family and per size, after the summary' },
  },
  async run(ctx, opts) {
    const k = typeof opts.folds === 'string' ? positiveInt('--folds', opts.folds, REQUEST_LIMITS.folds) : 5;
    const seed = typeof opts.seed === 'string' ? Number(opts.seed) : 42;
    if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer`);
    const r = await evaluatePredictors(ctx.database(), { k, seed, sklearn: opts['no-sklearn'] !== true });
    if (ctx.json) {
      ctx.printJson({ ...r.report, notes: r.notes, sklearnFitSeconds: r.sklearnFitSeconds });
      return;
    }
    // Device names are machine labels: each shown on one line.
    const deviceName = (id: string): string => shown(r.deviceNames[id] ?? id);
    ctx.print(formatSummary(r.summary, deviceName));
    if (opts.verbose === true) ctx.print(`\n${formatReport(r.report, deviceName)}`);
    for (const n of r.notes) ctx.printLine(`note: ${n}`);
  },
};
