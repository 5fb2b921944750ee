import { KernelRunner } from '../../adapters/ort/kernel-runner.js';
import { quoted } from '../../core/text/shown.js';
import { writeFileAtomic } from '../../adapters/files/write-file-atomic.js';
import { UsageError } from '../../core/errors.js';
import { compareMachines } from '../../services/measure/compare-service.js';
import type { Command } from '../command.js';
import { renderComparison } from '../render/compare.js';
import { renderComparisonHtml } from '../render/compare-html.js';
import { WORKLOAD_OPTIONS, workloadSpecOptions } from '../workload-options.js';

export const compareCommand: Command = {
  name: 'compare',
  summary: 'machines side by side: rooflines, efficiency per op family, a workload’s predicted time',
  usage: 'A B [C ...] [--workload W] [--mode inference|training] [--batch N] [--html FILE] [--json]',
  details:
    'A, B, ... are machines of the store (ids or labels, see pipedejavu machines): this one after a\n' +
    'profile, and imported ones. Each profiled device gets its measured peaks, bandwidth, ridge point and\n' +
    'dispatch cost, and per op family the median kernel’s share of the roofline bound it could reach.\n' +
    'With --workload, the workload’s predicted time on every device. --html FILE writes one\n' +
    'self-contained page (charts and table, no script) that a browser opens anywhere.',
  options: {
    ...WORKLOAD_OPTIONS,
    workload: { type: 'string', valueName: 'W', description: 'catalog name, stored workload or .onnx file to predict' },
    mode: { type: 'string', valueName: 'MODE', description: 'inference (default) or training' },
    html: { type: 'string', valueName: 'FILE', description: 'also write a self-contained HTML report' },
  },
  positionals: { min: 2, max: 64, names: 'A B' },
  async run(ctx, opts, machines) {
    const mode = typeof opts.mode === 'string' ? opts.mode : 'inference';
    if (mode !== 'inference' && mode !== 'training')
      throw new UsageError(`--mode takes inference or training; got ${quoted(mode)}`);
    if (
      typeof opts.workload !== 'string' &&
      (opts.batch !== undefined || opts.seq !== undefined || opts.image !== undefined)
    )
      throw new UsageError('--batch, --seq and --image go with --workload');
    const spec = workloadSpecOptions(opts);
    const c = await compareMachines(ctx.database(), () => new KernelRunner({ env: ctx.io.env }), {
      machines,
      mode,
      ...(typeof opts.workload === 'string' ? { workload: opts.workload } : {}),
      ...(spec.batch !== undefined ? { batch: spec.batch } : {}),
      ...(spec.seq !== undefined ? { seq: spec.seq } : {}),
      ...(spec.image !== undefined ? { image: spec.image } : {}),
    });
    const html = typeof opts.html === 'string' ? opts.html : null;
    if (html) writeFileAtomic(html, renderComparisonHtml(c, new Date().toISOString()), { protect: [ctx.dbPath] });
    if (ctx.json) ctx.printJson({ ...c, ...(html ? { html } : {}) });
    else {
      ctx.print(renderComparison(c));
      if (html) ctx.printLine(`Report: ${html}`);
    }
  },
};
