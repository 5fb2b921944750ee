import { UsageError } from '../../core/errors.js';
import { localProbeDeps } from '../../services/local-probe.js';
import { probeAndRecord } from '../../services/machine-service.js';
import type { Command } from '../command.js';
import { renderProbe } from '../render/probe.js';

export const probeCommand: Command = {
  name: 'probe',
  summary: 'detect this machine: CPU, memory, OS, NVIDIA GPUs, topology, NVLink; record it in the store',
  usage: '[--json] [--nvidia-smi PATH] [--timeout SECONDS]',
  details:
    'GPUs come from nvidia-smi, found on PATH, in $PIPEDEJAVU_NVIDIA_SMI, or at --nvidia-smi PATH\n' +
    '(WSL keeps it in /usr/lib/wsl/lib). Without nvidia-smi the machine is probed as CPU-only.\n' +
    'Each nvidia-smi call is stopped after --timeout seconds; what could not be read becomes a warning.',
  options: {
    'nvidia-smi': { type: 'string', valueName: 'PATH', description: 'nvidia-smi binary to run' },
    timeout: { type: 'string', valueName: 'SECONDS', description: 'limit for each nvidia-smi call (default 5)' },
  },
  async run(ctx, opts) {
    let timeoutMs: number | undefined;
    if (typeof opts.timeout === 'string') {
      const s = Number(opts.timeout);
      if (!/^[0-9.]+$/.test(opts.timeout) || !Number.isFinite(s) || s <= 0 || s > 600)
        throw new UsageError(`probe: --timeout takes seconds, more than 0 and at most 600; got "${opts.timeout}"`);
      timeoutMs = s * 1000;
    }
    const smiPath = typeof opts['nvidia-smi'] === 'string' ? opts['nvidia-smi'] : undefined;
    const r = await probeAndRecord(ctx.database(), localProbeDeps, {
      env: ctx.io.env,
      ...(smiPath !== undefined ? { smiPath } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
    if (ctx.json) {
      ctx.printJson({ machineId: r.machineId, probe: r.probe, devices: r.devices, links: r.links, db: ctx.dbPath });
      return;
    }
    ctx.print(renderProbe(r.machineId, r.probe, r.devices, r.links));
    ctx.print(`\nRecorded as machine ${r.machineId} in ${ctx.dbPath}`);
  },
};
