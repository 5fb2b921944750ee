/**
 * The NVIDIA part of the hardware probe: runs nvidia-smi directly (query, topo -m,
 * nvlink -s, --version), each call under its own timeout. Never throws: whatever it
 * cannot read becomes null plus a warning, and the status says how far it got.
 */
import type { NvidiaInfo, Nvlink, Topology } from '../../core/domain/hardware.js';
import { locateSmi, type LocateOptions } from './locate-smi.js';
import { parseNvlinkStatus } from './parse-nvlink.js';
import { parseTopology } from './parse-topo.js';
import { parseSummaryHeader, parseVersionOutput, type Versions } from './parse-version.js';
import { queryGpus, secondsText } from './query-gpus.js';
import { DEFAULT_TIMEOUT_MS, runCommand, type CommandResult, type RunOptions } from './run-command.js';
import { firstLine } from './text.js';

export interface ProbeNvidiaOptions extends LocateOptions {
  /** Per nvidia-smi call. Default 5000 ms. */
  timeoutMs?: number;
}

export interface NvidiaProbe {
  nvidia: NvidiaInfo;
  warnings: string[];
}

const empty = (status: NvidiaInfo['status'], smiPath: string | null): NvidiaInfo => ({
  status,
  smiPath,
  driverVersion: null,
  cudaVersion: null,
  gpus: [],
  topology: null,
});

/** The output of a secondary command, or a warning saying why there is none. */
function outputOf(what: string, r: CommandResult, timeoutMs: number): { text: string } | { warning: string } {
  switch (r.kind) {
    case 'ok':
    case 'exit':
      return { text: `${r.stdout}\n${r.stderr}` };
    case 'timeout':
      return { warning: `nvidia-smi ${what} did not answer within ${secondsText(timeoutMs)}` };
    case 'not-found':
      return { warning: `nvidia-smi ${what} could not be run` };
    case 'error':
      return { warning: `nvidia-smi ${what} failed: ${r.message}` };
  }
}

interface Part<T> {
  value: T;
  warnings: string[];
}

async function readTopology(smi: string, run: RunOptions, timeoutMs: number): Promise<Part<Topology | null>> {
  const out = outputOf('topo -m', await runCommand(smi, ['topo', '-m'], run), timeoutMs);
  if ('warning' in out) return { value: null, warnings: [out.warning] };
  const parsed = parseTopology(out.text);
  return { value: parsed.topology, warnings: parsed.warnings };
}

async function readNvlinks(smi: string, run: RunOptions, timeoutMs: number): Promise<Part<Map<number, Nvlink[]>>> {
  const out = outputOf('nvlink -s', await runCommand(smi, ['nvlink', '-s'], run), timeoutMs);
  if ('warning' in out) return { value: new Map(), warnings: [out.warning] };
  const parsed = parseNvlinkStatus(out.text);
  return { value: parsed.links, warnings: parsed.warnings };
}

async function readVersions(smi: string, run: RunOptions, csvDriver: string | null): Promise<Versions> {
  const r = await runCommand(smi, ['--version'], run);
  const fromFlag = r.kind === 'ok' ? parseVersionOutput(r.stdout) : { driverVersion: null, cudaVersion: null };
  let v: Versions = { driverVersion: fromFlag.driverVersion ?? csvDriver, cudaVersion: fromFlag.cudaVersion };
  if (v.driverVersion === null || v.cudaVersion === null) {
    // Drivers older than --version: the header of plain `nvidia-smi` has both.
    const plain = await runCommand(smi, [], run);
    const header = plain.kind === 'ok' ? parseSummaryHeader(plain.stdout) : { driverVersion: null, cudaVersion: null };
    v = { driverVersion: v.driverVersion ?? header.driverVersion, cudaVersion: v.cudaVersion ?? header.cudaVersion };
  }
  return v;
}

export async function probeNvidia(opts: ProbeNvidiaOptions = {}): Promise<NvidiaProbe> {
  const warnings: string[] = [];
  try {
    const location = await locateSmi(opts);
    if (location.kind === 'none') return { nvidia: empty('not-installed', null), warnings };
    if (location.kind === 'missing-explicit') {
      warnings.push(`no nvidia-smi at ${location.path} (from ${location.source}); NVIDIA GPUs not probed`);
      return { nvidia: empty('not-installed', location.path), warnings };
    }
    const smi = location.path;
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const run: RunOptions = { timeoutMs, env: opts.env ?? process.env };

    const query = await queryGpus(smi, run);
    warnings.push(...query.warnings);
    if (query.kind === 'failed') return { nvidia: empty('failed', smi), warnings };
    if (query.kind === 'no-gpu') {
      const v = await readVersions(smi, run, null);
      return { nvidia: { ...empty('no-gpu', smi), ...v }, warnings };
    }

    const [versions, topology, nvlinks] = await Promise.all([
      readVersions(smi, run, query.driverVersion),
      readTopology(smi, run, timeoutMs),
      readNvlinks(smi, run, timeoutMs),
    ]);
    warnings.push(...topology.warnings, ...nvlinks.warnings);
    if (versions.cudaVersion === null) warnings.push('could not read the CUDA version from nvidia-smi');
    const gpus = query.gpus
      .map((g) => ({ ...g, nvlinks: nvlinks.value.get(g.index) ?? [] }))
      .sort((a, b) => a.index - b.index);
    return {
      nvidia: { status: 'ok', smiPath: smi, ...versions, gpus, topology: topology.value },
      warnings,
    };
  } catch (e) {
    // Unreachable by design (every step catches its own errors); kept so the probe never throws.
    warnings.push(`NVIDIA probe failed unexpectedly: ${firstLine(String(e))}`);
    return { nvidia: empty('failed', opts.smiPath ?? null), warnings };
  }
}
