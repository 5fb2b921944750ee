/** The probe as a person reads it: machine, CPU, devices, topology, links, warnings. */
import type { Device, Link } from '../../core/domain/devices.js';
import type { ProbeResult } from '../../core/domain/hardware.js';
import type { CpuPeak } from '../../core/profiler/cpu-peak.js';
import { formatOrDash, tableRows, textLines } from '../output.js';
import { formatBytes } from '../../core/text/bytes.js';
import { count } from '../../core/text/plural.js';

function isaLine(p: ProbeResult): string {
  const isa = p.cpu.isa;
  const names: [boolean, string][] = [
    [isa.sse42, 'SSE4.2'],
    [isa.avx, 'AVX'],
    [isa.avx2, 'AVX2'],
    [isa.fma, 'FMA'],
    [isa.avx512f, 'AVX-512F'],
    [isa.avx512bf16, 'AVX-512 BF16'],
    [isa.avx512vnni, 'AVX-512 VNNI'],
    [isa.amx, 'AMX'],
    [isa.neon, 'NEON'],
  ];
  return (
    names
      .filter(([on]) => on)
      .map(([, n]) => n)
      .join(' ') || 'none detected'
  );
}

/** "2.40 GHz base, 3.70 GHz max boost", or what of it the OS reports. */
function clockText(cpu: ProbeResult['cpu'], boost: number | null): string {
  const g = (v: number): string => `${v.toFixed(2)} GHz`;
  if (cpu.baseClockGHz === null) return boost === null ? 'clock unknown' : `${g(boost)} max boost`;
  return boost === null
    ? `${g(cpu.baseClockGHz)}, boost clock not reported`
    : `${g(cpu.baseClockGHz)} base, ${g(boost)} max boost`;
}

function nvidiaLine(p: ProbeResult): string {
  const nv = p.nvidia;
  switch (nv.status) {
    case 'ok':
      return `${nv.gpus.length} GPU${nv.gpus.length === 1 ? '' : 's'}, driver ${formatOrDash(nv.driverVersion)}, CUDA ${formatOrDash(nv.cudaVersion)} (${nv.smiPath})`;
    case 'no-gpu':
      return `nvidia-smi found no GPU (${nv.smiPath})`;
    case 'not-installed':
      return 'no nvidia-smi found: a CPU-only machine (use --nvidia-smi PATH if it is installed elsewhere)';
    case 'failed':
      return `nvidia-smi failed (${nv.smiPath}); see warnings. GPUs are left out of this probe`;
  }
}

function topologyTable(p: ProbeResult): string[] | null {
  const t = p.nvidia.topology;
  if (!t || t.labels.length < 2) return null;
  const rows = t.labels.map((label, i) => [
    label,
    ...t.labels.map((_, j) => t.matrix[i]?.[j]?.raw ?? ''),
    t.cpuAffinity[i] ?? '',
    t.numaAffinity[i] ?? '',
  ]);
  return tableRows(['', ...t.labels, 'CPU AFFINITY', 'NUMA'], rows);
}

/** The probe; `peak` is the CPU's theoretical peak as every view states it (core/profiler/cpu-peak.ts). */
export function renderProbe(
  machineId: string,
  p: ProbeResult,
  devices: Device[],
  links: Link[],
  peak: Pick<CpuPeak, 'note' | 'boostClockGHz'>,
): string {
  const cpu = p.cpu;
  const caches = (['l1d', 'l2', 'l3'] as const)
    .map((k) => `${k.toUpperCase()} ${formatBytes(cpu.cacheBytes[k])}`)
    .join(', ');
  const out: string[] = [
    `Machine  ${p.hostname} (id ${machineId}), ${[p.os.distro, p.os.release].filter(Boolean).join(' ') || p.os.platform}, kernel ${p.os.kernel}, ${p.os.arch}`,
    `CPU      ${cpu.brand}: ${count(cpu.physicalCores, 'physical core')}, ${count(cpu.logicalCores, 'thread')}, ${clockText(cpu, peak.boostClockGHz)}; ${caches}`,
    `         ISA ${isaLine(p)}: ${cpu.fp32FlopsPerCycle} fp32 FLOP/cycle per core`,
    `         ${peak.note}`,
    `Memory   ${formatBytes(p.memory.totalBytes)}`,
    `NVIDIA   ${nvidiaLine(p)}`,
    '',
    'Devices',
    ...tableRows(
      ['KEY', 'NAME', 'MEMORY', 'CC', 'SM CLOCK', 'MEM CLOCK', 'PCIE', 'POWER', 'MIG', 'NVLINKS'],
      devices.map((d) => {
        const g = d.kind === 'gpu' ? p.nvidia.gpus.find((x) => `cuda:${x.index}` === d.key) : undefined;
        const active = g ? g.nvlinks.filter((l) => l.active) : [];
        return [
          d.key,
          d.name,
          formatBytes(d.memoryBytes),
          g ? formatOrDash(g.computeCapability) : '-',
          g ? formatOrDash(g.maxSmClockMHz, ' MHz') : '-',
          g ? formatOrDash(g.maxMemoryClockMHz, ' MHz') : '-',
          g && g.pcieGenMax !== null ? `gen${g.pcieGenMax} x${formatOrDash(g.pcieWidthMax)}` : '-',
          g ? formatOrDash(g.powerLimitW, ' W') : '-',
          g ? formatOrDash(g.migMode) : '-',
          g ? (active.length ? `${active.length} x ${active[0]?.speedGBps ?? '?'} GB/s` : 'none') : '-',
        ];
      }),
    ),
  ];
  const topo = topologyTable(p);
  if (topo) out.push('', 'Topology (nvidia-smi topo -m)', ...topo);
  if (links.length) {
    out.push(
      '',
      'Links',
      ...tableRows(
        ['A', 'B', 'KIND', 'NVLINKS', 'GB/s (spec)'],
        links.map((l) => [l.a, l.b, l.kind, l.nvlinkCount, l.bandwidthGBps]),
      ),
    );
  }
  if (p.warnings.length) out.push('', 'Warnings', ...p.warnings.map((w) => `- ${w}`));
  return textLines(out);
}
