import { UsageError } from '../../core/errors.js';
import { quoted } from '../../core/text/shown.js';
import { isPredictorName, PREDICTOR_NAMES, type PredictorName } from '../../core/predictor/registry.js';
import { trainPredictors } from '../../services/predict/predictor-service.js';
import type { Command, ParsedOptions } from '../command.js';
import type { CliContext } from '../context.js';
import { formatTable } from '../output.js';
import { DEPRECATED_MODEL_OPTION, predictorOption } from '../predictor-option.js';
import { count } from '../../core/text/plural.js';

export const trainCommand: Command = {
  name: 'train',
  summary: 'train execution-time predictors on every stored measurement',
  usage: `[--predictor ${PREDICTOR_NAMES.join('|')}|all] [--json]`,
  details:
    'roofline: measured peak at efficiency 1 (a lower bound); analytical: roofline / fitted efficiency\n' +
    'per op family and device, plus overhead; linear: regression on log features; forest: random\n' +
    'forest on the same features, predicting time over the roofline floor. See `pipedejavu evaluate`.',
  options: {
    predictor: { type: 'string', valueName: 'NAME', description: `${PREDICTOR_NAMES.join(', ')} or all (default all)` },
    model: DEPRECATED_MODEL_OPTION,
  },
  async run(ctx, opts) {
    const names = predictorNames(ctx, opts);
    const trained = trainPredictors(ctx.database(), names);
    if (ctx.json) {
      ctx.printJson({ trained });
      return;
    }
    const first = trained[0];
    ctx.printLine(
      `Trained on ${count(first?.samples ?? 0, 'measurement')} from ${count(first?.devices ?? 0, 'device')}; families: ${first?.families.join(', ') ?? '-'}`,
    );
    ctx.print(
      formatTable(
        ['PREDICTOR', 'ID', 'TRAIN TIME'],
        trained.map((t) => [t.name, t.id, `${t.trainMs.toFixed(0)} ms`]),
      ),
    );
    ctx.print('\nNext: `pipedejavu evaluate` for accuracy on held-out data, `pipedejavu predict` for one op.');
  },
};

/** The predictors `--predictor` names (all by default). */
function predictorNames(ctx: CliContext, opts: ParsedOptions): PredictorName[] {
  const { name, flag } = predictorOption(ctx, opts) ?? { name: 'all', flag: '--predictor' };
  if (name === 'all') return [...PREDICTOR_NAMES];
  if (!isPredictorName(name))
    throw new UsageError(`${flag} takes ${PREDICTOR_NAMES.join(', ')} or all; got ${quoted(name)}`);
  return [name];
}
