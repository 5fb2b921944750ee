/**
 * `nvidia-smi --query-gpu=<fields> --format=csv,noheader,nounits`, one GpuInfo per row.
 * Older drivers reject fields they do not know (`Field "compute_cap" is not a valid
 * field to query.`, exit 2): such a field is dropped, with a warning, and the query retried.
 */
import type { GpuInfo } from '../../core/domain/hardware.js';
import { cellNumber, cellValue, parseCsv, toRecords } from './parse-csv.js';
import { DEFAULT_TIMEOUT_MS, runCommand, type RunOptions } from './run-command.js';
import { firstLine } from './text.js';

/** `name` is last: a name containing ", " then still parses (extra cells join the last field). */
export const GPU_QUERY_FIELDS: readonly string[] = [
  'index',
  'uuid',
  'pci.bus_id',
  'driver_version',
  'memory.total',
  'memory.free',
  'compute_cap',
  'clocks.max.sm',
  'clocks.max.memory',
  'clocks.max.graphics',
  'pcie.link.gen.max',
  'pcie.link.gen.gpumax',
  'pcie.link.width.max',
  'power.limit',
  'enforced.power.limit',
  'mig.mode.current',
  'name',
];

export type GpuQuery =
  | { kind: 'ok'; gpus: GpuInfo[]; driverVersion: string | null; warnings: string[] }
  | { kind: 'no-gpu'; warnings: string[] }
  | { kind: 'failed'; warnings: string[] };

export const secondsText = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`;

const NO_DEVICES = /No devices were found/i;
const INVALID_FIELD = /Field "([^"]+)" is not a valid field to query/g;

function toGpu(record: Map<string, string>, position: number): GpuInfo | null {
  const index = record.has('index') ? cellNumber(record.get('index')) : position;
  if (index === null || !Number.isInteger(index) || index < 0) return null;
  const mig = cellValue(record.get('mig.mode.current'));
  return {
    index,
    name: cellValue(record.get('name')) ?? 'NVIDIA GPU',
    uuid: cellValue(record.get('uuid')),
    pciBusId: cellValue(record.get('pci.bus_id')),
    memoryTotalMiB: cellNumber(record.get('memory.total')),
    memoryFreeMiB: cellNumber(record.get('memory.free')),
    computeCapability: cellValue(record.get('compute_cap')),
    maxSmClockMHz: cellNumber(record.get('clocks.max.sm')),
    maxMemoryClockMHz: cellNumber(record.get('clocks.max.memory')),
    maxGraphicsClockMHz: cellNumber(record.get('clocks.max.graphics')),
    pcieGenMax: cellNumber(record.get('pcie.link.gen.max')),
    pcieGenGpuMax: cellNumber(record.get('pcie.link.gen.gpumax')),
    pcieWidthMax: cellNumber(record.get('pcie.link.width.max')),
    powerLimitW: cellNumber(record.get('power.limit')) ?? cellNumber(record.get('enforced.power.limit')),
    migMode: mig === 'Enabled' || mig === 'Disabled' ? mig : null,
    nvlinks: [],
  };
}

/** Parses the CSV answer of a successful query; null when no row makes sense. */
export function parseGpuRows(
  fields: readonly string[],
  stdout: string,
): { gpus: GpuInfo[]; driverVersion: string | null; badRows: string[] } | null {
  const { records, invalid } = toRecords(fields, parseCsv(stdout, { header: false }).rows);
  const gpus: GpuInfo[] = [];
  const badRows = invalid.map((row) => row.join(', '));
  let driverVersion: string | null = null;
  records.forEach((r, i) => {
    const gpu = toGpu(r, i);
    if (gpu === null) badRows.push([...r.values()].join(', '));
    else {
      gpus.push(gpu);
      driverVersion ??= cellValue(r.get('driver_version'));
    }
  });
  return gpus.length === 0 && badRows.length > 0 ? null : { gpus, driverVersion, badRows };
}

export async function queryGpus(smiPath: string, run: RunOptions): Promise<GpuQuery> {
  const warnings: string[] = [];
  let fields = [...GPU_QUERY_FIELDS];
  while (fields.length > 0) {
    const r = await runCommand(smiPath, [`--query-gpu=${fields.join(',')}`, '--format=csv,noheader,nounits'], run);
    if (r.kind === 'timeout') {
      warnings.push(
        `nvidia-smi did not answer within ${secondsText(run.timeoutMs ?? DEFAULT_TIMEOUT_MS)} (${smiPath})`,
      );
      return { kind: 'failed', warnings };
    }
    if (r.kind === 'not-found') {
      warnings.push(`could not run ${smiPath}: not found or not executable`);
      return { kind: 'failed', warnings };
    }
    if (r.kind === 'error') {
      warnings.push(`could not run ${smiPath}: ${r.message}`);
      return { kind: 'failed', warnings };
    }
    const text = `${r.stdout}\n${r.stderr}`;
    const rejected = [...text.matchAll(INVALID_FIELD)].map((m) => m[1] ?? '').filter((f) => fields.includes(f));
    if (r.kind === 'exit' && rejected.length > 0) {
      for (const f of rejected) warnings.push(`this nvidia-smi does not know the query field "${f}"; left unknown`);
      fields = fields.filter((f) => !rejected.includes(f));
      continue;
    }
    if (NO_DEVICES.test(text)) return { kind: 'no-gpu', warnings };
    const parsed = parseGpuRows(fields, r.stdout);
    if (r.kind === 'exit') {
      // A GPU fallen off the bus makes nvidia-smi exit non-zero while the others still answer.
      const why = parsed?.badRows[0] ?? firstLine(r.stderr.trim() ? r.stderr : r.stdout);
      warnings.push(`nvidia-smi failed (exit ${r.code ?? 'by signal'}): ${firstLine(why)}`);
      if (!parsed?.gpus.length) return { kind: 'failed', warnings };
    }
    if (parsed === null) {
      warnings.push(`nvidia-smi printed output that could not be parsed: ${firstLine(text)}`);
      return { kind: 'failed', warnings };
    }
    const bad = parsed.badRows.length;
    if (bad > 0 && r.kind === 'ok') warnings.push(`ignored ${bad} unreadable line(s) of nvidia-smi output`);
    if (parsed.gpus.length === 0) return { kind: 'no-gpu', warnings };
    return { kind: 'ok', gpus: parsed.gpus, driverVersion: parsed.driverVersion, warnings };
  }
  warnings.push('nvidia-smi rejected every query field');
  return { kind: 'failed', warnings };
}
