import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';
import { ProfileRepo } from '../../../src-main/adapters/store/profile-repo.js';
import { localProviderBlockers } from '../../../src-main/services/machine/doctor-service.js';
import { cli, tempDir } from '../../helpers/cli.js';
import { envWithoutTorch, SYSTEM_PYTHON } from '../../helpers/torch-python.js';

interface Proc {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a user would, sending SIGINT once `interruptWhen` matches stderr. */
function runCli(args: string[], interruptWhen?: RegExp): Promise<Proc> {
  return new Promise((resolve) => {
    // No waiting for a quiet moment before the run (the conditions have tests of their own).
    const child = spawn(process.execPath, ['bin/pipedejavu.js', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PIPEDEJAVU_RUN_CONDITIONS: 'off' },
    });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (interruptWhen && !sent && interruptWhen.test(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('pipedejavu profile', () => {
  it('refuses devices this machine does not have and unknown suites, in one line', async () => {
    const db = path.join(tempDir(), 'p.db');
    const gpu = await cli(['profile', '--db', db, '--device', 'cuda:3'], { PIPEDEJAVU_NVIDIA_SMI: '/nonexistent' });
    expect(gpu.code).toBe(2);
    expect(gpu.stderr).toMatch(/^pipedejavu: error: no GPU cuda:3 on this machine \(nvidia-smi found none/);
    const suite = await cli(['profile', '--db', db, '--suite', 'huge']);
    expect(suite.stderr).toBe('pipedejavu: error: --suite takes quick, standard, thorough; got "huge"\n');
    const threads = await cli(['profile', '--db', db, '--threads', 'zero']);
    expect(threads.code).toBe(2);
  });

  it('--device all skips WebGPU where doctor finds no Vulkan loader, in one line, and profiles the rest', async () => {
    const db = path.join(tempDir(), 'p.db');
    // Stopped as soon as the CPU's run starts: the skip line comes before it.
    const r = await runCli(['profile', '--db', db, '--device', 'all', '--threads', '1'], /profiling cpu/);
    const { webgpu } = localProviderBlockers();
    if (webgpu) expect(r.stderr).toContain(`skipped webgpu:0: ${webgpu} (see pipedejavu doctor)\n`);
    else expect(r.stderr).not.toContain('skipped webgpu');
    expect(r.stderr).toMatch(/profiling cpu, 1 thread:/);
    expect(r.stderr).not.toMatch(/profiling webgpu/);
  });

  it('stops on Ctrl-C keeping finished measurements; rerunning resumes; export carries them', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'p.db');
    const first = await runCli(['profile', '--db', db, '--threads', '1'], /step \d{2,}\/\d+/);
    expect(first.code).toBe(130);
    expect(first.stderr).toMatch(/stopping: keeping every finished measurement/);
    expect(first.stderr).toMatch(
      /pipedejavu: error: profile interrupted; finished measurements are stored, rerun to resume/,
    );

    const store = openDatabase(db);
    const repo = new ProfileRepo(store);
    const kept = repo.listMeasurements().length;
    const runs = repo.listRuns(repo.listMeasurements()[0]?.machineId ?? '');
    store.close();
    expect(kept).toBeGreaterThan(0);
    expect(runs.map((r) => r.status)).toEqual(['interrupted']);

    const second = await runCli(['profile', '--db', db, '--threads', '1'], /already stored[\s\S]*step \d+\//);
    // The rerun resumes: what was stored is not timed again, except kernels kept noisy (timed
    // again) and the reorders stored beside the kernels (no kernels of the suite).
    const resumed = Number(/(\d+) already stored/.exec(second.stderr)?.[1] ?? 0);
    expect(resumed).toBeGreaterThan(0);
    expect(resumed).toBeLessThanOrEqual(kept);

    const roof = await cli(['roofline', '--db', db, '--json']);
    const { rooflines } = JSON.parse(roof.stdout) as { rooflines: { deviceKey: string; threads: number }[] };
    expect(rooflines).toMatchObject([{ deviceKey: 'cpu', threads: 1 }]);

    const exported = await cli(['export', '--db', db]);
    const file = JSON.parse(exported.stdout) as { measurements: unknown[]; profileRuns: { status: string }[] };
    expect(file.measurements.length).toBeGreaterThanOrEqual(kept);
    expect(file.profileRuns.map((r) => r.status)).toEqual(['interrupted', 'interrupted']);
  });

  it('the PyTorch backend where Python has no torch: one line, nothing stored; a bad --backend is a usage error', async () => {
    const db = path.join(tempDir(), 'p.db');
    const { PYTHONPATH } = envWithoutTorch();
    const args = ['profile', '--db', db, '--device', 'cpu', '--backend', 'torch', '--python', SYSTEM_PYTHON];
    const r = await cli(args, { PYTHONPATH, PIPEDEJAVU_NVIDIA_SMI: '/nonexistent' });
    expect(r.stderr).toBe(
      "pipedejavu: error: nothing profiled on cpu: PyTorch backend: no torch in /usr/bin/python3: ModuleNotFoundError: No module named 'torch'\n",
    );
    expect(r.code).toBe(1);
    const backend = await cli(['profile', '--db', db, '--backend', 'jax']);
    expect(backend).toMatchObject({
      code: 2,
      stderr: 'pipedejavu: error: --backend takes ort, torch or all; got "jax"\n',
    });
  });

  it('prints a hint instead of an empty roofline before any profile', async () => {
    const db = path.join(tempDir(), 'r.db');
    await cli(['probe', '--db', db, '--nvidia-smi', '/nonexistent']);
    const r = await cli(['roofline', '--db', db]);
    expect(r.stdout).toBe('No measurements yet. Run `pipedejavu profile --suite quick` first.\n');
  });
  it('a second profiler on the same machine refuses in one line while the first runs', async () => {
    const db = path.join(tempDir(), 'p.db');
    const first = spawn(process.execPath, ['bin/pipedejavu.js', 'profile', '--db', db, '--threads', '1'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let firstErr = '';
    await new Promise<void>((resolve) =>
      first.stderr.on('data', (d: Buffer) => {
        firstErr += d.toString();
        if (/step \d+\/\d+/.test(firstErr)) resolve();
      }),
    );
    const second = await runCli(['profile', '--db', db, '--threads', '1']);
    first.kill('SIGINT');
    await new Promise((r) => first.once('exit', r));
    expect(second.code).not.toBe(0);
    expect(second.stderr).toMatch(
      new RegExp(`^pipedejavu: error: another pipedejavu process \\(pid ${first.pid} on [^)]+\\) is profiling cpu`),
    );
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    // After the first stopped, its run is closed and a new profile may start.
    const store = openDatabase(db);
    const repo = new ProfileRepo(store);
    const runs = repo.listRuns(repo.listMeasurements()[0]?.machineId ?? '');
    store.close();
    expect(runs.every((r) => r.status !== 'running')).toBe(true);
  }, 120_000);
});
