/**
 * The `nvidia-smi topo -m` matrix as a grid: cell classes and a legend, strongest link first.
 * Pure.
 */
import type { ProbeResult } from '../../../src-main/api/view-models.js';

type Topology = NonNullable<ProbeResult['nvidia']['topology']>;
export type TopoKind = Topology['matrix'][number][number]['kind'];

export const TOPO_LEGEND: { kind: TopoKind; text: string }[] = [
  { kind: 'X', text: 'self' },
  { kind: 'NV', text: 'NVLink (NV# = bonded links)' },
  { kind: 'PIX', text: 'at most one PCIe bridge' },
  { kind: 'PXB', text: 'several PCIe bridges, no host bridge' },
  { kind: 'PHB', text: 'through a PCIe host bridge (CPU)' },
  { kind: 'NODE', text: 'across host bridges within a NUMA node' },
  { kind: 'SYS', text: 'across NUMA nodes (SMP interconnect)' },
  { kind: 'UNKNOWN', text: 'not reported' },
];

/** 0 (fastest) .. 6 (slowest); UNKNOWN is 7. */
export function topoRank(kind: TopoKind): number {
  const i = TOPO_LEGEND.findIndex((l) => l.kind === kind);
  return i < 0 ? TOPO_LEGEND.length - 1 : i;
}

export interface TopoGrid {
  labels: string[];
  /** Rows of cells: raw text, kind, and a title for hovering. */
  cells: { raw: string; kind: TopoKind; title: string }[][];
  /** Kinds present (legend entries worth showing). */
  kinds: TopoKind[];
}

export function topoGrid(topology: Topology, nicNames: Record<string, string> = topology.nicNames): TopoGrid {
  const name = (l: string): string => (nicNames[l] ? `${l} (${nicNames[l]})` : l);
  const kinds = new Set<TopoKind>();
  const cells = topology.labels.map((a, i) =>
    topology.labels.map((b, j) => {
      const cell = topology.matrix[i]?.[j] ?? { kind: 'UNKNOWN' as const, raw: '?', nvlinks: null };
      kinds.add(cell.kind);
      const legend = TOPO_LEGEND.find((l) => l.kind === cell.kind)?.text ?? '';
      return { raw: cell.raw, kind: cell.kind, title: `${name(a)} ↔ ${name(b)}: ${cell.raw} (${legend})` };
    }),
  );
  return {
    labels: topology.labels,
    cells,
    kinds: TOPO_LEGEND.map((l) => l.kind).filter((k) => kinds.has(k)),
  };
}
