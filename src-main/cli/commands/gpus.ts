import { UsageError } from '../../core/errors.js';
import { count } from '../../core/text/plural.js';
import { quoted } from '../../core/text/shown.js';
import type { GpuDatasheet } from '../../core/planner/cost/datasheets.js';
import { listDatasheetGpus, type GpuSearch } from '../../services/gpus/gpu-list-service.js';
import { valueOption, type Command } from '../command.js';
import { tableRows } from '../output.js';

const HEADERS = ['GPU', 'ID', 'ARCHITECTURE', 'FORM', 'MEMORY', 'GB/S', 'BF16', 'FP16', 'FP8', 'NVLINK GB/S'];

/** A peak in TFLOP/s as the datasheet gives it; null (no such unit) or absent: "-". */
const tflops = (t: number | null | undefined): string | null => (t === null || t === undefined ? null : String(t));

function row(g: GpuDatasheet): (string | number | null)[] {
  return [
    g.name,
    g.id,
    g.architecture,
    g.formFactor === 'sxm' ? 'SXM' : 'PCIe',
    `${g.memory.sizeGiB} GiB ${g.memory.type}`,
    g.memory.bandwidthGBps,
    tflops(g.tflops.bf16),
    tflops(g.tflops.fp16),
    tflops(g.tflops.fp8),
    g.nvlink === null ? null : g.nvlink.links * g.nvlink.gbpsPerLink,
  ];
}

/** What `--virtual TEXT` takes the searched name as. */
function searchLine(s: GpuSearch): string {
  if (s.picks === null) return s.note ?? '';
  return s.note === null ? `--virtual ${quoted(s.text)} takes ${s.picks}` : `--virtual: ${s.note}`;
}

export const gpusCommand: Command = {
  name: 'gpus',
  summary: 'list the datasheet GPUs --virtual and fit --gpus take, or those a name matches',
  usage: '[NAME | --search NAME] [--json]',
  details:
    'Each GPU with its architecture, form factor, memory and bandwidth, dense bf16, fp16 and fp8 TFLOP/s\n' +
    '(no sparsity; "-" where it has no such unit) and NVLink GB/s per direction, newest architecture first.\n' +
    'A NAME is matched as --virtual matches it (case, spaces and vendor words ignored, part of a name\n' +
    'enough: "4090", "h100 sxm5"); the last line says which GPU --virtual takes it as. A family name\n' +
    '("H100", "A100") stands for its SXM part with the most memory.',
  options: {
    search: valueOption('NAME', 'list the GPUs this name matches (the same as a NAME argument)'),
  },
  positionals: { min: 0, max: 1, names: 'a GPU name to search for' },
  async run(ctx, opts, [name]) {
    const search = typeof opts.search === 'string' ? opts.search : undefined;
    if (name !== undefined && search !== undefined) throw new UsageError('give a NAME or --search NAME, not both');
    const listing = listDatasheetGpus(name ?? search);
    if (ctx.json) {
      ctx.printJson(listing);
      return;
    }
    ctx.printLines([
      ...tableRows(HEADERS, listing.gpus.map(row)),
      '',
      listing.search
        ? searchLine(listing.search)
        : `${count(listing.gpus.length, 'datasheet GPU')}: dense peaks from NVIDIA's datasheets. Plan on them with --virtual "NAME" (counts: "8xH100 SXM5").`,
    ]);
  },
};
