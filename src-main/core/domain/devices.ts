/**
 * Devices and the links between them, derived from a probe. Pure.
 * A device key is "cpu" or "cuda:N" (N = nvidia-smi index = CUDA EP deviceId under
 * CUDA_DEVICE_ORDER=PCI_BUS_ID), later "webgpu:N".
 */
import { z } from 'zod';
import type { GpuInfo, ProbeResult, TopoKind } from './hardware.js';

export const DeviceKindSchema = z.enum(['cpu', 'gpu']);

export const DeviceSchema = z.object({
  key: z.string().regex(/^(cpu|cuda:\d+|webgpu:\d+)$/),
  kind: DeviceKindSchema,
  name: z.string(),
  /** Memory the device can use for tensors, in bytes; null when unknown. */
  memoryBytes: z.number().nonnegative().nullable(),
});
export type Device = z.infer<typeof DeviceSchema>;

export const LinkKindSchema = z.enum(['NVLINK', 'PIX', 'PXB', 'PHB', 'NODE', 'SYS', 'PCIE_HOST', 'UNKNOWN']);
export type LinkKind = z.infer<typeof LinkKindSchema>;

export const LinkSchema = z.object({
  a: z.string(),
  b: z.string(),
  kind: LinkKindSchema,
  /** Bonded NVLinks for kind NVLINK. */
  nvlinkCount: z.number().int().nonnegative().nullable(),
  /** Nominal one-direction bandwidth in GB/s from the link's specification, null when unknown. */
  bandwidthGBps: z.number().nonnegative().nullable(),
  /** Where the figure comes from: "spec" (PCIe gen x width, NVLink speeds) or "measured". */
  source: z.enum(['spec', 'measured']),
});
export type Link = z.infer<typeof LinkSchema>;

/** Usable GB/s per lane and direction after line encoding, by PCIe generation. */
const PCIE_GBPS_PER_LANE: Record<number, number> = {
  1: 0.25,
  2: 0.5,
  3: 0.985,
  4: 1.969,
  5: 3.938,
  6: 7.563,
};

export function pcieBandwidthGBps(gen: number | null, width: number | null): number | null {
  if (gen === null || width === null) return null;
  const perLane = PCIE_GBPS_PER_LANE[gen];
  return perLane === undefined ? null : Math.round(perLane * width * 1000) / 1000;
}

function gpuDeviceKey(index: number): string {
  return `cuda:${index}`;
}

export function devicesFromProbe(probe: ProbeResult): Device[] {
  const cpu: Device = {
    key: 'cpu',
    kind: 'cpu',
    name: probe.cpu.brand || 'CPU',
    memoryBytes: probe.memory.totalBytes || null,
  };
  const gpus: Device[] = probe.nvidia.gpus.map((g) => ({
    key: gpuDeviceKey(g.index),
    kind: 'gpu',
    name: g.name,
    memoryBytes: g.memoryTotalMiB === null ? null : g.memoryTotalMiB * 1024 * 1024,
  }));
  return [cpu, ...gpus];
}

function linkKindOf(kind: TopoKind): LinkKind {
  switch (kind) {
    case 'NV':
      return 'NVLINK';
    case 'PIX':
    case 'PXB':
    case 'PHB':
    case 'NODE':
    case 'SYS':
      return kind;
    default:
      return 'UNKNOWN';
  }
}

/** Host link of a GPU: the slower of what the GPU and the slot allow (pcie.link.gen.max is already capped). */
function hostLink(g: GpuInfo): Link {
  return {
    a: 'cpu',
    b: gpuDeviceKey(g.index),
    kind: 'PCIE_HOST',
    nvlinkCount: null,
    bandwidthGBps: pcieBandwidthGBps(g.pcieGenMax, g.pcieWidthMax),
    source: 'spec',
  };
}

/**
 * GPU-GPU links from the topology matrix. An NV# link's bandwidth is the sum of the
 * active NVLink speeds of the first GPU, scaled to the bonded count when known;
 * PCIe paths take the slower of the two GPUs' host links.
 */
export function linksFromProbe(probe: ProbeResult): Link[] {
  const gpus = probe.nvidia.gpus;
  const links: Link[] = gpus.map(hostLink);
  const topo = probe.nvidia.topology;
  const byLabel = new Map<string, GpuInfo>();
  for (const g of gpus) byLabel.set(`GPU${g.index}`, g);
  if (topo) {
    topo.labels.forEach((la, i) => {
      topo.labels.forEach((lb, j) => {
        if (j <= i) return;
        const ga = byLabel.get(la);
        const gb = byLabel.get(lb);
        const cell = topo.matrix[i]?.[j];
        if (!ga || !gb || !cell) return;
        const kind = linkKindOf(cell.kind);
        let bw: number | null = null;
        if (kind === 'NVLINK') {
          const active = ga.nvlinks.filter((l) => l.active && l.speedGBps !== null);
          const per = active.length > 0 ? (active[0]?.speedGBps ?? null) : null;
          bw = per !== null && cell.nvlinks !== null ? Math.round(per * cell.nvlinks * 1000) / 1000 : null;
        } else {
          const x = pcieBandwidthGBps(ga.pcieGenMax, ga.pcieWidthMax);
          const y = pcieBandwidthGBps(gb.pcieGenMax, gb.pcieWidthMax);
          bw = x === null || y === null ? null : Math.min(x, y);
        }
        links.push({
          a: gpuDeviceKey(ga.index),
          b: gpuDeviceKey(gb.index),
          kind,
          nvlinkCount: kind === 'NVLINK' ? cell.nvlinks : null,
          bandwidthGBps: bw,
          source: 'spec',
        });
      });
    });
  }
  return links;
}
