import { writeFileAtomic } from '../../adapters/files/write-file-atomic.js';
import { quoted } from '../../core/text/shown.js';
import { UsageError } from '../../core/errors.js';
import { FEATURE_NAMES } from '../../core/predictor/features.js';
import { exportPredictorOnnx, ONNX_EXPORTABLE, type OnnxExportable } from '../../services/predict/predictor-export.js';
import type { Command } from '../command.js';
import { DEPRECATED_MODEL_OPTION, predictorOption } from '../predictor-option.js';

export const predictorCommand: Command = {
  name: 'predictor',
  summary: 'export a trained predictor as an ONNX model other tools can run (predictor export ...)',
  usage: 'export --format onnx --out FILE [--predictor forest|linear] [--json]',
  details:
    'The model takes `features` [N, F] float32 and `floor_us` [N, 1] float32 and returns `time_us`.\n' +
    `Feature order (also in the model's metadata): ${FEATURE_NAMES.join(', ')}.`,
  options: {
    format: { type: 'string', valueName: 'FORMAT', description: 'onnx (the only format)' },
    out: { type: 'string', short: 'o', valueName: 'FILE', description: 'file to write' },
    predictor: { type: 'string', valueName: 'NAME', description: 'forest (default) or linear' },
    model: DEPRECATED_MODEL_OPTION,
  },
  subcommands: ['export'],
  positionals: { min: 1, max: 1, names: 'a subcommand (export)' },
  async run(ctx, opts, [sub]) {
    if (sub !== 'export') throw new UsageError(`predictor: unknown subcommand ${quoted(sub)}; use: predictor export`);
    if (opts.format !== undefined && opts.format !== 'onnx')
      throw new UsageError(`--format takes onnx; got ${quoted(opts.format)}`);
    if (typeof opts.out !== 'string') throw new UsageError('predictor export: --out FILE is required');
    const { name, flag } = predictorOption(ctx, opts) ?? { name: 'forest', flag: '--predictor' };
    const predictor = name as OnnxExportable;
    if (!ONNX_EXPORTABLE.includes(predictor))
      throw new UsageError(`${flag} takes ${ONNX_EXPORTABLE.join(' or ')}; got ${quoted(predictor)}`);
    const { bytes, trainedAt } = exportPredictorOnnx(ctx.database(), predictor);
    writeFileAtomic(opts.out, bytes, { protect: [ctx.dbPath] });
    const summary = {
      file: opts.out,
      predictor,
      /** @deprecated the old name of `predictor` ("model" is the network), kept for scripts that read it. */
      model: predictor,
      bytes: bytes.length,
      trainedAt,
      inputs: ['features', 'floor_us'],
      output: 'time_us',
    };
    if (ctx.json) ctx.printJson(summary);
    else
      ctx.printLine(
        `Wrote the ${predictor} predictor (trained ${trainedAt}) as ONNX: ${opts.out} (${(bytes.length / 1024).toFixed(0)} KiB)`,
      );
  },
};
