/**
 * One reading of a GPU's SM clock, temperature, power draw and clock event (throttle)
 * reasons through nvidia-smi, with runCommand's timeout: taken around every timed batch on
 * a GPU. Newer drivers call the reasons clocks_event_reasons (the older name
 * clocks_throttle_reasons is deprecated), older ones only know clocks_throttle_reasons:
 * both are asked for, and a field the driver rejects is dropped and the query retried.
 * Never throws.
 */
import type { GpuClockReading, GpuClockSampler } from '../../core/profiler/gpu-clocks.js';
import { cellNumber, cellValue, parseCsv, toRecords } from './parse-csv.js';
import { locateSmi, type SmiLocation } from './locate-smi.js';
import { secondsText } from './query-gpus.js';
import { DEFAULT_TIMEOUT_MS, runCommand, type RunOptions } from './run-command.js';
import { firstLine } from './text.js';

const CLOCK_FIELDS: readonly string[] = [
  'index',
  'clocks.current.sm',
  'temperature.gpu',
  'power.draw',
  'clocks_event_reasons.active',
  'clocks_throttle_reasons.active',
];

const INVALID_FIELD = /Field "([^"]+)" is not a valid field to query/g;

function why(smiPath: string, r: Awaited<ReturnType<typeof runCommand>>, timeoutMs: number): string | null {
  if (r.kind === 'timeout') return `nvidia-smi did not answer within ${secondsText(timeoutMs)} (${smiPath})`;
  if (r.kind === 'not-found') return `could not run ${smiPath}: not found or not executable`;
  if (r.kind === 'error') return `could not run ${smiPath}: ${r.message}`;
  if (r.kind === 'exit') return `nvidia-smi failed (exit ${r.code ?? 'by signal'}): ${firstLine(r.stderr || r.stdout)}`;
  return null;
}

/** Reads GPU `gpuIndex` (nvidia-smi's index) once. */
export async function sampleGpuClocks(
  smiPath: string,
  gpuIndex: number,
  run: RunOptions = {},
): Promise<GpuClockReading> {
  const timeoutMs = run.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let fields = [...CLOCK_FIELDS];
  for (let attempt = 0; attempt < CLOCK_FIELDS.length; attempt++) {
    const args = [`--query-gpu=${fields.join(',')}`, '--format=csv,noheader,nounits', `--id=${gpuIndex}`];
    const r = await runCommand(smiPath, args, { ...run, timeoutMs });
    const text = r.kind === 'ok' || r.kind === 'exit' ? `${r.stdout}\n${r.stderr}` : '';
    const rejected = [...text.matchAll(INVALID_FIELD)].map((m) => m[1] ?? '').filter((f) => fields.includes(f));
    if (r.kind === 'exit' && rejected.length > 0 && !rejected.includes('index')) {
      fields = fields.filter((f) => !rejected.includes(f));
      continue;
    }
    const failed = why(smiPath, r, timeoutMs);
    if (failed || r.kind !== 'ok') return { kind: 'unavailable', reason: failed ?? 'nvidia-smi failed' };
    const { records } = toRecords(fields, parseCsv(r.stdout, { header: false }).rows);
    const rec = records.find((x) => cellNumber(x.get('index')) === gpuIndex) ?? records[0];
    if (!rec) return { kind: 'unavailable', reason: `nvidia-smi printed no reading: ${firstLine(r.stdout)}` };
    return {
      kind: 'ok',
      sample: {
        smClockMHz: cellNumber(rec.get('clocks.current.sm')),
        temperatureC: cellNumber(rec.get('temperature.gpu')),
        powerW: cellNumber(rec.get('power.draw')),
        reasonsMask:
          cellValue(rec.get('clocks_event_reasons.active')) ?? cellValue(rec.get('clocks_throttle_reasons.active')),
      },
    };
  }
  return { kind: 'unavailable', reason: 'nvidia-smi rejected every clock field' };
}

/** A sampler that finds nvidia-smi as the probe does ($PIPEDEJAVU_NVIDIA_SMI, PATH, the driver's places). */
export function localClockSampler(env: NodeJS.ProcessEnv = process.env, run: RunOptions = {}): GpuClockSampler {
  let located: Promise<SmiLocation> | null = null;
  return async (gpuIndex) => {
    located ??= locateSmi({ env });
    const loc = await located;
    if (loc.kind === 'found') return sampleGpuClocks(loc.path, gpuIndex, { ...run, env });
    if (loc.kind === 'missing-explicit')
      return { kind: 'unavailable', reason: `no nvidia-smi at ${loc.path} (${loc.source})` };
    return { kind: 'unavailable', reason: 'nvidia-smi not found' };
  };
}
