/**
 * `pipedejavu doctor`: what this machine can run, one line each: Node, ONNX Runtime and each of
 * its execution providers (and why one cannot load), PyTorch, nvidia-smi and the driver, the
 * database's path and filesystem, and the free disk beside it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { cudaLoadFailure, cudaUnavailableReason, ortBinDir } from '../../adapters/ort/ep-options.js';
import { filesystemOf, type FilesystemInfo } from '../../adapters/files/filesystem.js';
import { checkDatabase, type DatabaseCheck } from '../../adapters/store/open-database.js';
import { probeNvidia, type NvidiaProbe } from '../../adapters/nvidia-smi/probe-nvidia.js';
import { TorchRunner } from '../../adapters/torch/torch-runner.js';
import { formatBytes } from '../../core/text/bytes.js';
import { runtimeVersions } from './runtime-versions.js';
import { count } from '../../core/text/plural.js';
import { blasPoolDoctorText, ownBlasPool, type BlasPool } from '../../core/profiler/blas-pool.js';

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface DoctorCheck {
  name: string;
  status: CheckStatus;
  detail: string;
}

export interface DoctorDeps {
  nvidia: () => Promise<NvidiaProbe>;
  /** "torch 2.5.1 (CUDA 12.4)" and the BLAS its products run on (none: not said), or throws one line why there is none. */
  torch: () => Promise<{ version: string; blas: BlasPool | null }>;
  filesystem: (p: string) => FilesystemInfo;
  /**
   * What opening the database would find (the CLI's own checks: not SQLite, a folder or a device,
   * another application's, newer, read-only), without creating or writing it; throws one line why not.
   */
  database: (p: string) => DatabaseCheck;
  /** Why ORT's CUDA provider cannot run here, or null. */
  cuda: () => string | null;
  /** Whether a Vulkan loader (libvulkan.so.1) is where the dynamic loader looks. */
  vulkanLoader: () => boolean;
  versions: () => Record<string, string>;
}

export interface DoctorOptions {
  dbPath: string;
}

const LOW_DISK_BYTES = 1024 ** 3;

/** Why npm ci warns EBADENGINE on Node 20, said where a user looks first. */
const ELECTRON_NODE_NOTE =
  "; the desktop shell (npm start) needs 22.12 or newer, hence npm ci's EBADENGINE warnings for electron: harmless for the CLI, the server and the tests";

/** Why the installed CUDA provider would not load (ldd finds a library missing), or null. */
function cudaReason(): string | null {
  const missing = cudaUnavailableReason();
  if (missing) return missing;
  if (process.platform !== 'linux') return null;
  const failure = cudaLoadFailure();
  return /not found/.test(failure) ? failure : null;
}

function vulkanLoader(): boolean {
  if (process.platform !== 'linux') return true;
  try {
    const out = execFileSync('ldconfig', ['-p'], {
      encoding: 'utf8',
      timeout: 5000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return /libvulkan\.so\.1\b/.test(out);
  } catch {
    return existsSync('/usr/lib/x86_64-linux-gnu/libvulkan.so.1');
  }
}

async function torchVersion(env: NodeJS.ProcessEnv): Promise<{ version: string; blas: BlasPool | null }> {
  const runner = new TorchRunner({ env });
  try {
    const info = await runner.start();
    return { version: info.ortVersion, blas: info.blas ?? null };
  } finally {
    await runner.close();
  }
}

export function localDoctorDeps(opts: { env: NodeJS.ProcessEnv; timeoutMs?: number; smiPath?: string }): DoctorDeps {
  const { env, timeoutMs, smiPath } = opts;
  return {
    nvidia: () =>
      probeNvidia({
        env,
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        ...(smiPath !== undefined ? { smiPath } : {}),
      }),
    torch: () => torchVersion(env),
    filesystem: filesystemOf,
    database: (p) => checkDatabase(p, { allowNetworkFilesystem: true }),
    cuda: cudaReason,
    vulkanLoader,
    versions: runtimeVersions,
  };
}

function ortBindingPresent(): boolean {
  try {
    return existsSync(path.join(ortBinDir(), 'onnxruntime_binding.node'));
  } catch {
    return false;
  }
}

/**
 * Why ONNX Runtime's CUDA and WebGPU providers cannot load here (null: nothing known against
 * them): what `doctor` reports, and what `profile --device all` skips.
 */
export interface ProviderBlockers {
  cuda: string | null;
  webgpu: string | null;
}

export function providerBlockers(deps: Pick<DoctorDeps, 'cuda' | 'vulkanLoader'>): ProviderBlockers {
  return { cuda: deps.cuda(), webgpu: deps.vulkanLoader() ? null : 'no Vulkan loader (libvulkan.so.1)' };
}

/** providerBlockers on this machine. */
export function localProviderBlockers(): ProviderBlockers {
  return providerBlockers({ cuda: cudaReason, vulkanLoader });
}

/** The CUDA provider's line: missing only matters where an NVIDIA GPU answers (else install-cuda is no advice). */
function cudaCheck(cuda: string | null, nvidiaGpu: boolean): DoctorCheck {
  if (cuda === null) return { name: 'ep cuda', status: 'ok', detail: 'installed (runs on the GPUs nvidia-smi lists)' };
  if (!nvidiaGpu) return { name: 'ep cuda', status: 'ok', detail: 'not needed: no NVIDIA GPU answers on this machine' };
  return { name: 'ep cuda', status: 'warn', detail: cuda };
}

function runtimeChecks(deps: DoctorDeps, nvidiaGpu: boolean): DoctorCheck[] {
  const v = deps.versions();
  const [major, minor] = (v.node ?? process.version).replace(/^v/, '').split('.').map(Number);
  const nodeOk = (major ?? 0) > 20 || ((major ?? 0) === 20 && (minor ?? 0) >= 19);
  // Electron 45 and its build tools want 22.12: on older Nodes npm ci warns EBADENGINE for them.
  const electronOk = (major ?? 0) > 22 || ((major ?? 0) === 22 && (minor ?? 0) >= 12);
  const ort = v['onnxruntime-node'];
  const binding = ortBindingPresent();
  const { cuda, webgpu } = providerBlockers(deps);
  return [
    {
      name: 'node',
      status: nodeOk ? 'ok' : 'fail',
      detail: `${v.node ?? process.version}${nodeOk ? '' : ' (needs 20.19 or newer)'}${nodeOk && !electronOk ? ELECTRON_NODE_NOTE : ''}`,
    },
    {
      name: 'onnxruntime',
      status: ort && binding ? 'ok' : 'fail',
      detail: ort
        ? `onnxruntime-node ${ort}${binding ? '' : ', but its native binding is missing (run npm ci)'}`
        : 'onnxruntime-node is not installed (run npm ci)',
    },
    { name: 'ep cpu', status: binding ? 'ok' : 'fail', detail: binding ? 'bundled' : 'no ONNX Runtime binding' },
    cudaCheck(cuda, nvidiaGpu),
    {
      name: 'ep webgpu',
      status: webgpu ? 'warn' : 'ok',
      detail: webgpu
        ? `bundled, but ${webgpu} was found: install libvulkan1 and a GPU driver`
        : 'bundled; a Vulkan loader is present (profile --device webgpu:0 says whether a GPU adapter answers)',
    },
  ];
}

async function torchCheck(deps: DoctorDeps): Promise<DoctorCheck> {
  try {
    const t = await deps.torch();
    if (!t.blas) return { name: 'pytorch', status: 'ok', detail: t.version };
    const status = ownBlasPool(t.blas) ? 'warn' : 'ok';
    return { name: 'pytorch', status, detail: `${t.version}; ${blasPoolDoctorText(t.blas)}` };
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
    return { name: 'pytorch', status: 'warn', detail: `${why} (the PyTorch backend is optional)` };
  }
}

function nvidiaCheck({ nvidia, warnings }: NvidiaProbe): DoctorCheck {
  const extra = warnings.length > 0 ? `; ${warnings[0]}` : '';
  switch (nvidia.status) {
    case 'ok':
      return {
        name: 'nvidia',
        status: 'ok',
        detail: `${nvidia.smiPath}: driver ${nvidia.driverVersion ?? '?'}, CUDA ${nvidia.cudaVersion ?? '?'}, ${count(nvidia.gpus.length, 'GPU')}: ${nvidia.gpus.map((g) => g.name).join(', ')}${extra}`,
      };
    case 'no-gpu':
      return {
        name: 'nvidia',
        status: 'warn',
        detail: `${nvidia.smiPath}: driver ${nvidia.driverVersion ?? '?'}, but no GPU answers${extra}`,
      };
    case 'not-installed':
      return { name: 'nvidia', status: 'ok', detail: `no nvidia-smi: a CPU-only machine${extra}` };
    case 'failed':
      return { name: 'nvidia', status: 'fail', detail: `nvidia-smi at ${nvidia.smiPath ?? '?'} failed${extra}` };
  }
}

/** The database line: where it is, and whether the CLI could open and write it (the real reason when not). */
function databaseCheck(deps: DoctorDeps, dbPath: string, fs: FilesystemInfo): DoctorCheck {
  if (fs.network) {
    return {
      name: 'database',
      status: 'fail',
      detail: `${dbPath} on ${fs.type}, a network filesystem where SQLite's locking is unsafe: use --db on a node-local disk`,
    };
  }
  let found: DatabaseCheck;
  try {
    found = deps.database(dbPath);
  } catch (e) {
    return {
      name: 'database',
      status: 'fail',
      detail: (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '',
    };
  }
  const state = !found.exists
    ? 'not created yet'
    : found.version < found.latest
      ? `exists, schema version ${found.version}; the next command migrates it to ${found.latest}`
      : `exists, schema version ${found.version}`;
  return { name: 'database', status: 'ok', detail: `${dbPath} (${state}) on ${fs.type}` };
}

function storeChecks(deps: DoctorDeps, dbPath: string): DoctorCheck[] {
  const fs = deps.filesystem(dbPath);
  const database = databaseCheck(deps, dbPath, fs);
  const disk: DoctorCheck =
    fs.freeBytes === null
      ? { name: 'disk', status: 'warn', detail: `free space beside ${path.dirname(dbPath)} unknown` }
      : {
          name: 'disk',
          status: fs.freeBytes < LOW_DISK_BYTES ? 'warn' : 'ok',
          detail: `${formatBytes(fs.freeBytes)} free beside the database${fs.freeBytes < LOW_DISK_BYTES ? ' (under 1 GiB: profiles and the executed-graph cache may not fit)' : ''}`,
        };
  return [database, disk];
}

/** Every check, in a fixed order; never throws (a check that cannot run says why). */
export async function runDoctor(deps: DoctorDeps, opts: DoctorOptions): Promise<DoctorCheck[]> {
  const [torch, probe] = await Promise.all([torchCheck(deps), deps.nvidia()]);
  return [
    ...runtimeChecks(deps, probe.nvidia.status === 'ok'),
    torch,
    nvidiaCheck(probe),
    ...storeChecks(deps, opts.dbPath),
  ];
}
