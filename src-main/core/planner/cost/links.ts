/**
 * Alpha-beta links between plan devices, from each machine's probed links (nvidia-smi topology,
 * PCIe spec bandwidths), measured host-device copies, GPU datasheets for virtual devices, and the
 * network the user states between machines. Pure.
 *
 * Probed spec bandwidths are scaled by what transfers reach over each path (LINK_FACTORS):
 * - NVLINK 0.8: copies and NCCL rings reach about 80% of the NVLink rate nvidia-smi reports
 *   (e.g. ~380 of 478 GB/s on NV18 H100s).
 * - PIX/PXB 0.8: peer-to-peer DMA through PCIe switches; switches forward at line rate, and DMA
 *   reaches ~80% of the PCIe spec (TLP headers, flow control), as pinned host copies do.
 * - PHB 0.4, NODE 0.35, SYS 0.3: the path crosses the CPU's host bridge. NCCL's default P2P
 *   level stops before these paths on many platforms and GeForce cards have no PCIe P2P, so data
 *   is staged through host memory: two DMA copies, pipelined in chunks; about half of the DMA
 *   rate, less again across host bridges (NODE) and the socket interconnect (SYS).
 * - PCIE_HOST 0.8: pinned cudaMemcpy between host and GPU; a measured copy fit replaces it.
 * Alphas: 4 µs NVLink, 8-9 µs PCIe P2P, 12-15 µs host-staged, 10 µs host copies (launch and
 * DMA setup, the order NCCL and cudaMemcpy latencies take). Between machines: NETWORK_KINDS.
 */
import { quoted } from '../../text/shown.js';
import type { Link, LinkKind } from '../../domain/devices.js';
import { pcieBandwidthGBps } from '../../domain/devices.js';
import { UserError } from '../../errors.js';
import type { CopyFit } from '../../profiler/device-summary.js';
import { datasheetFor, datasheetPcieGBps, nvlinkGBps } from './datasheets.js';
import { globMatches } from '../../text/glob.js';
import type { LinkRule } from './network-statement.js';
import {
  NETWORK_KINDS,
  NODE_NAMES_TEXT,
  nicText,
  nodeNetworkFor,
  type LinkFactor,
  type NetworkKind,
} from './node-networks.js';
import type { PlanDevice, PlanLink } from '../types.js';

const LINK_FACTORS: Readonly<Record<LinkKind, LinkFactor>> = Object.freeze({
  NVLINK: { efficiency: 0.8, alphaUs: 4 },
  PIX: { efficiency: 0.8, alphaUs: 8 },
  PXB: { efficiency: 0.8, alphaUs: 9 },
  PHB: { efficiency: 0.4, alphaUs: 12 },
  NODE: { efficiency: 0.35, alphaUs: 13 },
  SYS: { efficiency: 0.3, alphaUs: 15 },
  PCIE_HOST: { efficiency: 0.8, alphaUs: 10 },
  // Unknown paths are taken as the worst PCIe path.
  UNKNOWN: { efficiency: 0.3, alphaUs: 15 },
});

/**
 * Share of the NVLink rate (per GPU and direction) an NVLS all-reduce reaches, where each GPU's
 * data crosses NVLink once each way: 0.57, fitted on the aws-nccl-tests 2 x p5 all-reduce of
 * 8 GiB (a calibration cell: 255.6 GB/s algbw, where NVLink, not the 32 EFA rails, is the
 * slower resource). The held-out single-node NVLS cells of H200 and B200 check it.
 */
const NVLS_EFFICIENCY = 0.57;

/** When nothing says how fast a GPU's host link is: PCIe 3.0 x16. */
const FALLBACK_PCIE_GBPS = pcieBandwidthGBps(3, 16) as number;

const IB_NAMES: Record<string, number> = { edr: 100, hdr100: 100, hdr: 200, ndr200: 200, ndr: 400, xdr: 800 };
const KIND_WORDS: Record<string, NetworkKind> = {
  '': 'ethernet',
  e: 'ethernet',
  eth: 'ethernet',
  ethernet: 'ethernet',
  tcp: 'ethernet',
  roce: 'roce',
  efa: 'efa',
  ib: 'infiniband',
  infiniband: 'infiniband',
};

export interface NetworkSpec {
  label: string;
  kind: NetworkKind;
  /** Line rate of one NIC, Gb/s. */
  lineGbitps: number;
  /** Effective bandwidth of one NIC, GB/s. */
  gbps: number;
  alphaUs: number;
  /** NICs (rails) per node: NCCL's collectives run over all of them at once. */
  rails: number;
  /** GPUs of the named node (models/node-networks.json); absent: the plan's GPUs on each machine. */
  gpusPerNode?: number;
}

/**
 * A network as users write it: '25GbE', '100GbE', '200Gb-IB', '100G RoCE', '100Gb-EFA', 'HDR', a
 * number (Gb/s Ethernet), or a measured figure in bytes: '23.5GB/s' or '23.5GB/s@12us' (what
 * transfers reach); one NIC per node unless written with a count of NICs ('8x400Gb-IB', '32x100Gb-EFA'),
 * or a node of models/node-networks.json ('dgx-h100', 'p5').
 */
export type NetworkInput = string | number;

const MEASURED = /^(\d+(?:\.\d+)?)\s*GB\/s(?:\s*@\s*(\d+(?:\.\d+)?)\s*(?:us|µs))?$/;

/**
 * What a link can be. Outside these a figure is a typo or a broken measurement, and a plan priced
 * on it would be nonsense (a 0 GB/s link makes every transfer infinitely long): 1 MB/s to 10 TB/s
 * (NVLink 5 is 1.8 TB/s per GPU), a latency from 0 to 10 s.
 */
const LINK_LIMITS = Object.freeze({ minGBps: 0.001, maxGBps: 10_000, maxAlphaUs: 10_000_000 });

/** Why a value is outside [min, max] ("is not positive", "is above 10000"), or null. */
function rangeRefusal(v: number, min: number, max: number, unit: string): string | null {
  if (!Number.isFinite(v)) return 'is not a finite number';
  if (min > 0 && v <= 0) return 'is not positive';
  if (v < min) return min === 0 ? 'is negative' : `is below ${min} ${unit}`;
  if (v > max) return `is above ${max} ${unit}`;
  return null;
}

/** Why a bandwidth in GB/s cannot be a link's, or null: "a bandwidth of 0 GB/s is not positive (...)". */
export function bandwidthRefusal(gbps: number): string | null {
  const { minGBps, maxGBps } = LINK_LIMITS;
  const why = rangeRefusal(gbps, minGBps, maxGBps, 'GB/s');
  return why && `a bandwidth of ${gbps} GB/s ${why} (a link carries ${minGBps} to ${maxGBps} GB/s)`;
}

/** Why a latency in µs cannot be a link's, or null. */
export function latencyRefusal(alphaUs: number): string | null {
  const { maxAlphaUs } = LINK_LIMITS;
  const why = rangeRefusal(alphaUs, 0, maxAlphaUs, 'µs');
  return why && `a latency of ${alphaUs} µs ${why} (a link answers within 0 to ${maxAlphaUs} µs)`;
}

/** Why a line rate in Gb/s cannot be a link's, or null. */
function lineRateRefusal(gbitps: number): string | null {
  const [min, max] = [LINK_LIMITS.minGBps * 8, LINK_LIMITS.maxGBps * 8];
  const why = rangeRefusal(gbitps, min, max, 'Gb/s');
  return why && `a line rate of ${gbitps} Gb/s ${why} (a link carries ${min} to ${max} Gb/s)`;
}

/** The network as the user wrote it, for a message: quoted, a long one cut. */
function written(input: NetworkInput): string {
  return quoted(String(input).trim());
}

const RAILS = /^(\d+)\s*[x×*]\s*(\S.*)$/;
/** NICs a node can state: one to 64 (p5 has 32). */
const MAX_RAILS = 64;

export function parseNetwork(input: NetworkInput): NetworkSpec {
  if (typeof input === 'string') {
    const node = nodeNetworkFor(input);
    if (node) {
      const one = oneNic(nicText(node));
      return { ...one, label: `${node.id} (${node.nics}x${one.label})`, rails: node.nics, gpusPerNode: node.gpus };
    }
    const rails = RAILS.exec(input.trim());
    if (rails) {
      const count = Number(rails[1]);
      if (!Number.isInteger(count) || count < 1 || count > MAX_RAILS)
        throw new UserError(`network ${written(input)}: ${count} NICs per node (a node states 1 to ${MAX_RAILS})`);
      const one = oneNic((rails[2] as string).trim());
      return { ...one, label: `${count}x${one.label}`, rails: count };
    }
  }
  return oneNic(input);
}

/** One NIC's network, as written without a count. */
function oneNic(input: NetworkInput): NetworkSpec {
  const measured = typeof input === 'string' ? MEASURED.exec(input.trim()) : null;
  if (measured) {
    const gbps = Number(measured[1]);
    const alphaUs = measured[2] === undefined ? NETWORK_KINDS.measured.alphaUs : Number(measured[2]);
    const problem = bandwidthRefusal(gbps) ?? latencyRefusal(alphaUs);
    if (problem) throw new UserError(`network ${written(input)}: ${problem}`);
    return { label: `${gbps}GB/s measured`, kind: 'measured', lineGbitps: gbps * 8, gbps, alphaUs, rails: 1 };
  }
  let rate: number | null = null;
  let kind: NetworkKind | undefined;
  if (typeof input === 'number') {
    rate = input;
    kind = 'ethernet';
  } else {
    const s = input.trim().toLowerCase();
    const named = IB_NAMES[s.replace(/[^a-z0-9]/g, '')];
    const m = /^(\d+(?:\.\d+)?)\s*(?:g(?:b(?:it)?)?(?:\/s|ps)?)?\s*[-_ ]?\s*([a-z]*)$/.exec(s);
    if (named !== undefined) {
      rate = named;
      kind = 'infiniband';
    } else if (m) {
      rate = Number(m[1]);
      kind = KIND_WORDS[m[2] ?? ''];
    }
  }
  if (rate === null || kind === undefined) {
    throw new UserError(
      `cannot read network ${written(input)}: write e.g. '25GbE', '100GbE', '200Gb-IB', '100Gb-RoCE', '8x400Gb-IB' (8 NICs a node), 'HDR', a number in Gb/s, a measured '23.5GB/s@12us', or a node (${NODE_NAMES_TEXT})`,
    );
  }
  const problem = lineRateRefusal(rate);
  if (problem) throw new UserError(`network ${written(input)}: ${problem}`);
  const f = NETWORK_KINDS[kind];
  const label = typeof input === 'number' ? `${rate}Gb/s` : input.trim();
  return { label, kind, lineGbitps: rate, gbps: (rate / 8) * f.efficiency, alphaUs: f.alphaUs, rails: 1 };
}

export interface MachineLinks {
  machine: string;
  /** linksFromProbe() of the machine: device keys "cpu", "cuda:N". */
  links: readonly Link[];
  /** Measured host-device copies by device key (DeviceSummary h2d/d2h): replace the PCIe spec. */
  copies?: Readonly<Record<string, { h2d: CopyFit | null; d2h: CopyFit | null }>>;
}

export interface PlanLinksOptions {
  machines?: readonly MachineLinks[];
  /** The network between any two machines. */
  network?: NetworkInput;
  /** Networks between particular machines (either order), over `network`. */
  networks?: readonly { a: string; b: string; network: NetworkInput }[];
  /** Stated links (network-statement.ts): the first rule matching a machine pair wins, under `networks`, over `network`. */
  rules?: readonly LinkRule[];
}

export interface PlanLinksResult {
  /** One link per unordered device pair (a before b in the device order). */
  links: PlanLink[];
  /** Assumptions made where the probe had no figure. */
  warnings: string[];
}

/** The device key inside its machine: "lab/cuda:1" on machine "lab" -> "cuda:1". */
export function localKey(d: PlanDevice): string {
  return d.id.startsWith(`${d.machine}/`) ? d.id.slice(d.machine.length + 1) : d.id;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

function scaled(a: string, b: string, kind: string, specGBps: number, f: LinkFactor): PlanLink {
  return { a, b, kind, alphaUs: f.alphaUs, gbps: round(specGBps * f.efficiency) };
}

class LinkBuilder {
  private readonly machines = new Map<string, MachineLinks>();
  readonly warnings: string[] = [];

  constructor(opts: PlanLinksOptions) {
    for (const m of opts.machines ?? []) this.machines.set(m.machine, m);
  }

  private probed(machine: string, x: string, y: string): Link | undefined {
    return this.machines.get(machine)?.links.find((l) => (l.a === x && l.b === y) || (l.a === y && l.b === x));
  }

  /** Spec PCIe GB/s of a GPU's host link: probe, else datasheet, else PCIe 3.0 x16. */
  private hostSpec(d: PlanDevice): number {
    const probed = this.probed(d.machine, 'cpu', localKey(d));
    if (probed?.bandwidthGBps) return probed.bandwidthGBps;
    const ds = datasheetFor(d.name);
    if (ds) return datasheetPcieGBps(ds);
    this.warnings.push(`${d.id}: host link unknown; assumed PCIe 3.0 x16`);
    return FALLBACK_PCIE_GBPS;
  }

  /** CPU <-> GPU on one machine: measured copies (slower direction), else the PCIe spec. */
  host(cpu: PlanDevice, gpu: PlanDevice): PlanLink {
    const c = this.machines.get(gpu.machine)?.copies?.[localKey(gpu)];
    const fits = [c?.h2d, c?.d2h].filter((f): f is CopyFit => !!f && f.bandwidthGBps > 0);
    if (fits.length > 0) {
      const gbps = Math.min(...fits.map((f) => f.bandwidthGBps));
      const alphaUs = Math.max(...fits.map((f) => f.latencyUs));
      return { a: cpu.id, b: gpu.id, kind: 'PCIE_HOST(measured)', alphaUs, gbps: round(gbps) };
    }
    return scaled(cpu.id, gpu.id, 'PCIE_HOST', this.hostSpec(gpu), LINK_FACTORS.PCIE_HOST);
  }

  /** GPU <-> GPU on one machine; NVLink links say where the switch reduces (NVLS). */
  peer(x: PlanDevice, y: PlanDevice): PlanLink {
    const l = this.peerLink(x, y);
    const nvls = l.kind.startsWith('NVLINK') ? nvlsGBps(x, y) : null;
    return nvls === null ? l : { ...l, nvlsGbps: round(nvls * NVLS_EFFICIENCY) };
  }

  private peerLink(x: PlanDevice, y: PlanDevice): PlanLink {
    const l = this.probed(x.machine, localKey(x), localKey(y));
    if (l) {
      const f = LINK_FACTORS[l.kind];
      if (l.bandwidthGBps) return scaled(x.id, y.id, l.kind, l.bandwidthGBps, f);
      const pcie = Math.min(this.hostSpec(x), this.hostSpec(y));
      if (l.kind === 'NVLINK') {
        const dx = datasheetFor(x.name);
        const dy = datasheetFor(y.name);
        const nv = dx && dy ? Math.min(nvlinkGBps(dx) ?? 0, nvlinkGBps(dy) ?? 0) : 0;
        if (nv > 0) return scaled(x.id, y.id, 'NVLINK', nv, f);
      }
      this.warnings.push(`${x.id} <-> ${y.id}: ${l.kind} link without a bandwidth; assumed the slower PCIe host link`);
      return scaled(x.id, y.id, l.kind, pcie, f);
    }
    // No probe (virtual devices): NVLink between SXM boards, else PCIe through the host.
    const dx = datasheetFor(x.name);
    const dy = datasheetFor(y.name);
    if (dx?.formFactor === 'sxm' && dy?.formFactor === 'sxm') {
      const nv = Math.min(nvlinkGBps(dx) ?? 0, nvlinkGBps(dy) ?? 0);
      if (nv > 0) return scaled(x.id, y.id, 'NVLINK(datasheet)', nv, LINK_FACTORS.NVLINK);
    }
    this.warnings.push(`${x.id} <-> ${y.id}: not probed; assumed PCIe through the host (PHB)`);
    return scaled(x.id, y.id, 'PHB(assumed)', Math.min(this.hostSpec(x), this.hostSpec(y)), LINK_FACTORS.PHB);
  }

  /**
   * Devices on two machines: what one transfer reaches over the GPU's own rails (its share of the
   * node's NICs, at least one), capped by each GPU's host link (the NIC hangs off PCIe); the rails
   * ride along for collectives.
   */
  network(x: PlanDevice, y: PlanDevice, net: NetworkSpec, perGpu: number): PlanLink {
    const caps = [x, y]
      .filter((d) => d.kind === 'gpu')
      .map((d) => this.hostSpec(d) * LINK_FACTORS.PCIE_HOST.efficiency);
    const gbps = Math.min(net.gbps * Math.max(1, perGpu), ...caps);
    const rails = { count: net.rails, gbps: net.gbps, perGpu };
    return { a: x.id, b: y.id, kind: `NETWORK(${net.label})`, alphaUs: net.alphaUs, gbps: round(gbps), rails };
  }
}

/** NVLink GB/s of two GPUs whose datasheets say their NVLink Switch reduces (NVLS); null otherwise. */
function nvlsGBps(x: PlanDevice, y: PlanDevice): number | null {
  const [dx, dy] = [datasheetFor(x.name), datasheetFor(y.name)];
  if (!dx?.nvlink?.nvls || !dy?.nvlink?.nvls) return null;
  return Math.min(nvlinkGBps(dx) ?? 0, nvlinkGBps(dy) ?? 0) || null;
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

/** Whether a stated rule covers the machine pair, in either order. */
function ruleMatches(rule: Pick<LinkRule, 'a' | 'b'>, x: string, y: string): boolean {
  return (globMatches(rule.a, x) && globMatches(rule.b, y)) || (globMatches(rule.a, y) && globMatches(rule.b, x));
}

/** The network between two machines: stated for the pair, by the first matching rule, else the plan's. */
type NetworkOf = (a: string, b: string) => NetworkSpec;

function networksBetween(devices: readonly PlanDevice[], opts: PlanLinksOptions): NetworkOf {
  const nets = new Map<string, NetworkSpec>();
  const fallback = opts.network === undefined ? null : parseNetwork(opts.network);
  for (const n of opts.networks ?? []) nets.set(pairKey(n.a, n.b), parseNetwork(n.network));
  const stated = (a: string, b: string): NetworkSpec | null =>
    nets.get(pairKey(a, b)) ?? opts.rules?.find((r) => ruleMatches(r, a, b))?.network ?? fallback;
  if (fallback) return stated as NetworkOf;
  const machines = [...new Set(devices.map((d) => d.machine))];
  const missing: string[] = [];
  machines.forEach((a, i) => machines.slice(i + 1).forEach((b) => stated(a, b) ?? missing.push(`${a} <-> ${b}`)));
  if (missing.length > 0) {
    const named = missing.length > 4 ? [...missing.slice(0, 4), `${missing.length - 4} more pairs`] : missing;
    const list = machines.length > 8 ? `${machines.length} machines` : `machines ${machines.join(', ')}`;
    throw new UserError(
      `the devices are on ${list}, but no network is stated for ${named.join(', ')}; ` +
        `state one (e.g. '25GbE', '100GbE', '200Gb-IB', or a number in Gb/s)`,
    );
  }
  return stated as NetworkOf;
}

/**
 * Like nodes: two or more machines, none probed, each the same number of GPUs of one name, all
 * joined by the plan's one network (no per-pair network or rule). Their devices by machine, or null.
 */
function likeNodes(devices: readonly PlanDevice[], opts: PlanLinksOptions): PlanDevice[][] | null {
  if (opts.network === undefined || (opts.networks?.length ?? 0) > 0 || (opts.rules?.length ?? 0) > 0) return null;
  const byMachine = new Map<string, PlanDevice[]>();
  for (const d of devices) {
    const node = byMachine.get(d.machine);
    if (node) node.push(d);
    else byMachine.set(d.machine, [d]);
  }
  const nodes = [...byMachine.values()];
  const first = nodes[0]?.[0];
  if (!first || nodes.length < 2) return null;
  const probed = new Set((opts.machines ?? []).map((m) => m.machine));
  const like = (n: PlanDevice[]): boolean =>
    n.length === (nodes[0] as PlanDevice[]).length &&
    !probed.has((n[0] as PlanDevice).machine) &&
    n.every((d) => d.kind === 'gpu' && d.name === first.name);
  return nodes.every(like) ? nodes : null;
}

/** The links inside one machine: every pair of its devices, in device order. */
function machineLinks(b: LinkBuilder, devices: readonly PlanDevice[], links: PlanLink[]): void {
  devices.forEach((x, i) =>
    devices.slice(i + 1).forEach((y) => {
      if (x.kind === 'cpu' && y.kind === 'cpu') {
        // Two CPU devices of one machine share its memory: a memcpy, far faster than any link here.
        links.push({ a: x.id, b: y.id, kind: 'HOST_MEMORY', alphaUs: 1, gbps: 20 });
      } else if (x.kind === 'cpu' || y.kind === 'cpu') {
        const cpu = x.kind === 'cpu' ? x : y;
        const gpu = x.kind === 'cpu' ? y : x;
        const l = b.host(cpu, gpu);
        links.push({ ...l, a: x.id, b: y.id });
      } else {
        links.push(b.peer(x, y));
      }
    }),
  );
}

/**
 * Links between every pair of plan devices. Same machine: probed topology (GPU <-> GPU), host
 * link (CPU <-> GPU; measured copies first), datasheets for unprobed GPUs. Different machines:
 * the stated network; UserError naming the machines when one is missing. Like nodes (likeNodes)
 * get their pairs inside each node and one node-level link between any two (PlanLink.nodes):
 * O(nodes) links, where a link per device pair across nodes would be O(GPUs²).
 */
export function buildPlanLinks(devices: readonly PlanDevice[], opts: PlanLinksOptions = {}): PlanLinksResult {
  const networkOf = networksBetween(devices, opts);
  const b = new LinkBuilder(opts);
  const gpusOn = new Map<string, number>();
  for (const d of devices) if (d.kind === 'gpu') gpusOn.set(d.machine, (gpusOn.get(d.machine) ?? 0) + 1);
  // NICs per GPU: the named node's GPUs, else the plan's GPUs on the machine (the fewer NICs each, of the two).
  const perGpu = (net: NetworkSpec, m: string): number =>
    net.rails / (net.gpusPerNode ?? Math.max(1, gpusOn.get(m) ?? 1));
  const across = (x: PlanDevice, y: PlanDevice): PlanLink => {
    const net = networkOf(x.machine, y.machine);
    return b.network(x, y, net, Math.min(perGpu(net, x.machine), perGpu(net, y.machine)));
  };
  const links: PlanLink[] = [];
  const nodes = likeNodes(devices, opts);
  if (nodes) {
    for (const node of nodes) machineLinks(b, node, links);
    const link = across(nodes[0]?.[0] as PlanDevice, nodes[1]?.[0] as PlanDevice);
    links.push({ ...link, nodes: nodes.map((n) => n.map((d) => d.id)) });
    return { links, warnings: [...new Set(b.warnings)] };
  }
  devices.forEach((x, i) =>
    devices.slice(i + 1).forEach((y) => {
      if (x.machine !== y.machine) links.push(across(x, y));
      else machineLinks(b, [x, y], links);
    }),
  );
  return { links, warnings: [...new Set(b.warnings)] };
}
