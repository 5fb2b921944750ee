import { describe, expect, it } from 'vitest';
import { providerBlockers, runDoctor, type DoctorDeps } from '../../../../src-main/services/machine/doctor-service.js';
import { sampleProbe } from '../../../helpers/sample-probe.js';

function deps(over: Partial<DoctorDeps> = {}): DoctorDeps {
  return {
    nvidia: () =>
      Promise.resolve({
        nvidia: {
          status: 'not-installed',
          smiPath: null,
          driverVersion: null,
          cudaVersion: null,
          gpus: [],
          topology: null,
        },
        warnings: [],
      }),
    torch: () => Promise.resolve({ version: 'torch 2.5.1 (CUDA 12.4)', blas: null }),
    filesystem: () => ({ type: 'ext4', network: false, freeBytes: 100 * 1024 ** 3 }),
    database: () => ({ exists: true, version: 9, latest: 9 }),
    cuda: () => null,
    vulkanLoader: () => true,
    versions: () => ({ node: 'v20.20.2', 'onnxruntime-node': '1.30.0' }),
    ...over,
  };
}

/** nvidia-smi answering for the sample workstation's GPUs: the CUDA provider is then needed. */
const withGpus: DoctorDeps['nvidia'] = () => Promise.resolve({ nvidia: sampleProbe().nvidia, warnings: [] });

const byName = async (d: DoctorDeps) =>
  Object.fromEntries((await runDoctor(d, { dbPath: '/data/pipedejavu.db' })).map((c) => [c.name, c]));

describe('doctor', () => {
  it('is all ok on a machine with everything', async () => {
    const checks = await runDoctor(deps(), { dbPath: '/data/pipedejavu.db' });
    expect(checks.filter((c) => c.status !== 'ok')).toEqual([]);
    expect(checks.find((c) => c.name === 'pytorch')?.detail).toBe('torch 2.5.1 (CUDA 12.4)');
  });

  it('fails a database on a network filesystem, saying what to do', async () => {
    const c = await byName(deps({ filesystem: () => ({ type: 'lustre', network: true, freeBytes: 1e15 }) }));
    expect(c.database?.status).toBe('fail');
    expect(c.database?.detail).toMatch(/on lustre, a network filesystem .* use --db on a node-local disk$/);
  });

  it("fails the database with the store's own reason, in one line; says when a migration is due", async () => {
    const unusable = await byName(
      deps({
        database: (p) => {
          throw new Error(`"${p}" is not a pipeDejavu database (file is not a database)\nstack`);
        },
      }),
    );
    expect(unusable.database).toEqual({
      name: 'database',
      status: 'fail',
      detail: '"/data/pipedejavu.db" is not a pipeDejavu database (file is not a database)',
    });
    const old = await byName(deps({ database: () => ({ exists: true, version: 7, latest: 9 }) }));
    expect(old.database?.detail).toBe(
      '/data/pipedejavu.db (exists, schema version 7; the next command migrates it to 9) on ext4',
    );
    const none = await byName(deps({ database: () => ({ exists: false, version: 0, latest: 9 }) }));
    expect(none.database?.detail).toBe('/data/pipedejavu.db (not created yet) on ext4');
  });

  it('warns for what is optional: no torch, no CUDA provider, no Vulkan, little disk; fails an old Node', async () => {
    const c = await byName(
      deps({
        torch: () =>
          Promise.reject(new Error('PyTorch backend: no Python with torch (python3: No module named torch)\nmore')),
        cuda: () => 'ONNX Runtime CUDA execution provider is not installed',
        vulkanLoader: () => false,
        filesystem: () => ({ type: 'ext4', network: false, freeBytes: 200 * 1024 ** 2 }),
        versions: () => ({ node: 'v18.19.0', 'onnxruntime-node': '1.30.0' }),
      }),
    );
    expect(c.pytorch).toEqual({
      name: 'pytorch',
      status: 'warn',
      detail:
        'PyTorch backend: no Python with torch (python3: No module named torch) (the PyTorch backend is optional)',
    });
    // No NVIDIA GPU here: the CUDA provider is not needed, and install-cuda is no advice.
    expect(c['ep cuda']).toEqual({
      name: 'ep cuda',
      status: 'ok',
      detail: 'not needed: no NVIDIA GPU answers on this machine',
    });
    expect(c['ep webgpu']?.detail).toMatch(/no Vulkan loader/);
    expect(c.disk?.status).toBe('warn');
    expect(c.node?.status).toBe('fail');
  });

  it("names the BLAS PyTorch's products run on, and warns when it has a pool of its own beside PyTorch's", async () => {
    const pool = (threads: number) => ({
      torch: () =>
        Promise.resolve({
          version: 'torch 1.13.0a0',
          blas: { library: 'OpenBLAS 0.3.21', threading: 'pthreads' as const, threads },
        }),
    });
    const two = await byName(deps(pool(2)));
    expect(two.pytorch?.status).toBe('warn');
    expect(two.pytorch?.detail).toMatch(
      /^torch 1\.13\.0a0; matrix products on OpenBLAS 0\.3\.21's own pthreads pool of 2 threads, beside PyTorch's OpenMP pool: .*OMP_WAIT_POLICY=PASSIVE/,
    );
    const one = await byName(deps(pool(1)));
    expect(one.pytorch).toEqual({
      name: 'pytorch',
      status: 'ok',
      detail: 'torch 1.13.0a0; matrix products on OpenBLAS 0.3.21 (pthreads)',
    });
    const unsaid = await byName(deps({ torch: () => Promise.resolve({ version: 'torch 2.5.1', blas: null }) }));
    expect(unsaid.pytorch).toEqual({ name: 'pytorch', status: 'ok', detail: 'torch 2.5.1' });
  });

  it('says why a provider cannot load, from the checks its ep lines use', async () => {
    const none = deps({ cuda: () => 'libcudnn.so.9: not found', vulkanLoader: () => false, nvidia: withGpus });
    expect(providerBlockers(none)).toEqual({
      cuda: 'libcudnn.so.9: not found',
      webgpu: 'no Vulkan loader (libvulkan.so.1)',
    });
    const c = await byName(none);
    expect(c['ep webgpu']?.detail).toContain('no Vulkan loader (libvulkan.so.1)');
    expect(c['ep cuda']?.detail).toBe('libcudnn.so.9: not found');
    expect(providerBlockers(deps())).toEqual({ cuda: null, webgpu: null });
  });

  it("explains npm ci's EBADENGINE warnings on a Node the CLI accepts but Electron does not", async () => {
    const on20 = await byName(deps({ versions: () => ({ node: 'v20.20.2', 'onnxruntime-node': '1.30.0' }) }));
    expect(on20.node?.status).toBe('ok');
    expect(on20.node?.detail).toMatch(
      /^v20\.20\.2; the desktop shell \(npm start\) needs 22\.12 or newer, hence npm ci's EBADENGINE/,
    );
    const on22 = await byName(deps({ versions: () => ({ node: 'v22.12.0', 'onnxruntime-node': '1.30.0' }) }));
    expect(on22.node?.detail).toBe('v22.12.0');
  });
});
