import { UsageError } from '../../core/errors.js';
import { quoted } from '../../core/text/shown.js';
import { listCatalog } from '../../core/catalog/index.js';
import { addWorkload, listWorkloads } from '../../services/workload/workload-service.js';
import { storedLine } from '../../services/workload/hf-config-service.js';
import { removeWorkload } from '../../services/machine/removal-service.js';
import type { Command } from '../command.js';
import { formatTable } from '../output.js';
import { formatBytes } from '../../core/text/bytes.js';
import { WORKLOAD_OPTIONS, workloadSpecOptions } from '../workload-options.js';
import { count } from '../../core/text/plural.js';

export const workloadCommand: Command = {
  name: 'workload',
  summary:
    'import an ONNX model or a Hugging Face config.json (workload add MODEL.onnx|DIR), list stored workloads and the catalog',
  usage:
    'add MODEL.onnx|config.json|DIR [--name NAME] [--replace] [--dim NAME=N ...] [--input NAME=AxB.. ...] | list | catalog | remove NAME [--json]',
  details:
    'add parses the model, resolves every tensor shape (bind symbolic dims with --dim, or give an\n' +
    "input's whole shape with --input where the exporter left dims unnamed), costs every node and\n" +
    'groups nodes into layers. Nothing is stored when anything fails.',
  options: {
    ...WORKLOAD_OPTIONS,
    name: { type: 'string', valueName: 'NAME', description: 'name to store it under (default: file name)' },
    replace: { type: 'boolean', description: 'add: replace a stored workload of the same name' },
  },
  subcommands: ['add', 'list', 'catalog', 'remove'],
  positionals: { min: 1, max: 2, names: 'a subcommand (add, list, catalog, remove)' },
  async run(ctx, opts, [sub, file]) {
    if (sub === 'list') {
      const rows = listWorkloads(ctx.database());
      if (ctx.json) ctx.printJson({ workloads: rows });
      else if (!rows.length) ctx.print('No workloads yet. Add one: pipedejavu workload add MODEL.onnx');
      else
        ctx.print(
          formatTable(
            ['NAME', 'NODES', 'LAYERS', 'FILE', 'ADDED'],
            rows.map((r) => [r.name, r.nodes, r.layers, r.filePath, r.createdAt]),
          ),
        );
      return;
    }
    if (sub === 'catalog') {
      const rows = listCatalog();
      if (ctx.json) ctx.printJson({ catalog: rows });
      else
        ctx.print(
          formatTable(
            ['NAME', 'MODEL', 'INPUT', 'PARAMETERS'],
            rows.map((r) => [r.name, r.title, r.input, `${(r.params / 1e6).toFixed(1)} M`]),
          ),
        );
      return;
    }
    if (sub === 'remove') {
      if (!file) throw new UsageError('workload remove: missing NAME');
      const r = removeWorkload(ctx.database(), file);
      if (ctx.json) ctx.printJson({ removed: r.name });
      else ctx.printLine(`Removed workload ${r.name}`);
      return;
    }
    if (sub !== 'add')
      throw new UsageError(`workload: unknown subcommand ${quoted(sub)}; use add, list, catalog or remove`);
    if (!file) throw new UsageError('workload add: missing MODEL.onnx, config.json or model folder');
    const spec = workloadSpecOptions(opts);
    if (typeof opts.name === 'string') spec.name = opts.name;
    const r = addWorkload(ctx.database(), file, spec, opts.replace === true);
    const w = r.workload;
    const totals = w.nodes.reduce((a, n) => ({ flops: a.flops + n.flops, params: a.params + n.params }), {
      flops: 0,
      params: 0,
    });
    const flagged = w.nodes.filter((n) => n.family === null && (n.flops > 0 || n.bytes > 0));
    if (ctx.json) {
      ctx.printJson({
        name: w.name,
        nodes: w.nodes.length,
        layers: w.layers.length,
        flops: totals.flops,
        params: totals.params,
        paramBytes: w.paramBytes,
        unsupported: flagged.map((n) => n.opType),
        ...(r.stored ? { stored: r.stored } : {}),
        warnings: w.warnings,
      });
      return;
    }
    ctx.printLine(
      `Added ${w.name}: ${count(w.nodes.length, 'node')} in ${count(w.layers.length, 'layer')}, ${(totals.flops / 1e9).toFixed(2)} GFLOP per run, ${(totals.params / 1e6).toFixed(2)} M parameters (${formatBytes(w.paramBytes)})`,
    );
    if (r.stored) ctx.printLine(storedLine(w.name, r.stored));
    if (flagged.length)
      ctx.printLine(
        `Estimated without a profile (no predictor family): ${[...new Set(flagged.map((n) => n.opType))].join(', ')}`,
      );
    for (const warning of w.warnings) ctx.printLine(`warning: ${warning}`);
  },
};
