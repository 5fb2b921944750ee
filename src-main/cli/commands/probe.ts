import { localProbeDeps } from '../../services/machine/local-probe.js';
import { probeAndRecord } from '../../services/machine/machine-service.js';
import { machineCpuPeak } from '../../services/profile/roofline-service.js';
import type { Command } from '../command.js';
import { SMI_OPTIONS, smiOptions } from '../smi-options.js';
import { renderProbe } from '../render/probe.js';

export const probeCommand: Command = {
  name: 'probe',
  summary: 'detect this machine: CPU, memory, OS, NVIDIA GPUs, topology, NVLink; record it in the store',
  usage: '[--json] [--nvidia-smi PATH] [--timeout SECONDS]',
  details:
    'GPUs come from nvidia-smi, found on PATH, in $PIPEDEJAVU_NVIDIA_SMI, or at --nvidia-smi PATH\n' +
    '(WSL keeps it in /usr/lib/wsl/lib). Without nvidia-smi the machine is probed as CPU-only.\n' +
    'Each nvidia-smi call is stopped after --timeout seconds; what could not be read becomes a warning.',
  options: SMI_OPTIONS,
  async run(ctx, opts) {
    const r = await probeAndRecord(ctx.database(), localProbeDeps, { env: ctx.io.env, ...smiOptions('probe', opts) });
    if (ctx.json) {
      ctx.printJson({ machineId: r.machineId, probe: r.probe, devices: r.devices, links: r.links, db: ctx.dbPath });
      return;
    }
    ctx.print(renderProbe(r.machineId, r.probe, r.devices, r.links, machineCpuPeak(ctx.database(), r.machineId)));
    ctx.printLines(['', `Recorded as machine ${r.machineId} in ${ctx.dbPath}`]);
  },
};
