import { describe, expect, it } from 'vitest';
import { linksFromProbe } from '../../../../../src-main/core/domain/devices.js';
import type { ProbeResult } from '../../../../../src-main/core/domain/hardware.js';
import { UserError } from '../../../../../src-main/core/errors.js';
import { virtualDevice } from '../../../../../src-main/core/planner/cost/datasheets.js';
import { buildPlanLinks, parseNetwork, type MachineLinks } from '../../../../../src-main/core/planner/cost/links.js';
import {
  linkBetween,
  linksAmongDevices,
  nodeLinkAcross,
} from '../../../../../src-main/core/planner/cost/collectives.js';
import type { PlanDevice, PlanLink } from '../../../../../src-main/core/planner/types.js';
import { sampleProbe } from '../../../../helpers/sample-probe.js';

const dev = (machine: string, key: string, name: string): PlanDevice => ({
  id: `${machine}/${key}`,
  name,
  kind: key === 'cpu' ? 'cpu' : 'gpu',
  machine,
  memoryBytes: 8 * 2 ** 30,
  estimate: 'profiled',
});

/** The sample workstation: RTX 4080 SUPER (PCIe 4.0 x16) and RTX 2080 SUPER (PCIe 3.0 x8), PHB between them. */
const ws = (machine = 'lab-ws-01'): PlanDevice[] => [
  dev(machine, 'cpu', 'AMD Ryzen 9 7950X'),
  dev(machine, 'cuda:0', 'NVIDIA GeForce RTX 4080 SUPER'),
  dev(machine, 'cuda:1', 'NVIDIA GeForce RTX 2080 SUPER'),
];
const wsLinks = (machine = 'lab-ws-01'): MachineLinks => ({ machine, links: linksFromProbe(sampleProbe()) });

/** Two H100s joined by NV18 (18 links of 26.562 GB/s per nvidia-smi). */
function nv18Probe(): ProbeResult {
  const base = sampleProbe();
  const nvlinks = Array.from({ length: 18 }, (_, link) => ({ link, speedGBps: 26.562, active: true }));
  return sampleProbe({
    hostname: 'dgx',
    nvidia: {
      ...base.nvidia,
      gpus: base.nvidia.gpus.map((g) => ({
        ...g,
        name: 'NVIDIA H100 80GB HBM3',
        pcieGenMax: 5,
        pcieWidthMax: 16,
        nvlinks,
      })),
      topology: {
        ...base.nvidia.topology!,
        matrix: [
          [
            { kind: 'X', nvlinks: null, raw: 'X' },
            { kind: 'NV', nvlinks: 18, raw: 'NV18' },
          ],
          [
            { kind: 'NV', nvlinks: 18, raw: 'NV18' },
            { kind: 'X', nvlinks: null, raw: 'X' },
          ],
        ],
      },
    },
  });
}

const between = (links: PlanLink[], a: string, b: string): PlanLink | undefined =>
  links.find((l) => (l.a === a && l.b === b) || (l.a === b && l.b === a));

describe('links from a probe', () => {
  it('scales a PHB pair to host-staged copies over the slower GPU link (7.88 GB/s x 0.4)', () => {
    const { links, warnings } = buildPlanLinks(ws(), { machines: [wsLinks()] });
    expect(links).toHaveLength(3);
    const phb = between(links, 'lab-ws-01/cuda:0', 'lab-ws-01/cuda:1');
    expect(phb).toEqual({ a: 'lab-ws-01/cuda:0', b: 'lab-ws-01/cuda:1', kind: 'PHB', alphaUs: 12, gbps: 3.152 });
    expect(warnings).toEqual([]);
  });

  it('gives CPU <-> GPU the PCIe host link at 0.8 of spec', () => {
    const { links } = buildPlanLinks(ws(), { machines: [wsLinks()] });
    expect(between(links, 'lab-ws-01/cpu', 'lab-ws-01/cuda:0')).toMatchObject({
      kind: 'PCIE_HOST',
      alphaUs: 10,
      gbps: 25.203,
    });
    expect(between(links, 'lab-ws-01/cpu', 'lab-ws-01/cuda:1')).toMatchObject({ kind: 'PCIE_HOST', gbps: 6.304 });
  });

  it('lets measured host-device copies override the spec (slower direction, larger latency)', () => {
    const machine: MachineLinks = {
      ...wsLinks(),
      copies: {
        'cuda:0': {
          h2d: { latencyUs: 9, bandwidthGBps: 24.1, points: 6 },
          d2h: { latencyUs: 12, bandwidthGBps: 22.5, points: 6 },
        },
      },
    };
    const { links } = buildPlanLinks(ws(), { machines: [machine] });
    expect(between(links, 'lab-ws-01/cpu', 'lab-ws-01/cuda:0')).toEqual({
      a: 'lab-ws-01/cpu',
      b: 'lab-ws-01/cuda:0',
      kind: 'PCIE_HOST(measured)',
      alphaUs: 12,
      gbps: 22.5,
    });
  });

  it('sums an NV18 bond (18 x 26.562 GB/s) and takes 0.8 of it', () => {
    const devices = [dev('dgx', 'cuda:0', 'NVIDIA H100 80GB HBM3'), dev('dgx', 'cuda:1', 'NVIDIA H100 80GB HBM3')];
    const { links } = buildPlanLinks(devices, { machines: [{ machine: 'dgx', links: linksFromProbe(nv18Probe()) }] });
    expect(links[0]).toMatchObject({ kind: 'NVLINK', alphaUs: 4 });
    expect(links[0]?.gbps).toBeCloseTo(478.116 * 0.8, 3);
  });

  it('falls back to datasheets for unprobed (virtual) GPUs', () => {
    const h = [0, 1].map((index) => virtualDevice('H100 SXM', { index }).device);
    const r = buildPlanLinks(h);
    expect(r.links[0]).toMatchObject({ kind: 'NVLINK(datasheet)', gbps: 360 });
    const l = [0, 1].map((index) => virtualDevice('L40S', { index }).device);
    const r2 = buildPlanLinks(l);
    expect(r2.links[0]).toMatchObject({ kind: 'PHB(assumed)', gbps: 12.602 });
    expect(r2.warnings[0]).toMatch(/assumed PCIe through the host/);
  });
});

describe('networks', () => {
  it('reads the usual ways of naming a network', () => {
    expect(parseNetwork('25GbE')).toEqual({
      label: '25GbE',
      kind: 'ethernet',
      lineGbitps: 25,
      gbps: 2.34375,
      alphaUs: 35,
      rails: 1,
    });
    expect(parseNetwork('100GbE')).toMatchObject({ kind: 'ethernet', gbps: 9.375 });
    expect(parseNetwork('200Gb-IB')).toMatchObject({ kind: 'infiniband', lineGbitps: 200, gbps: 22.5, alphaUs: 5 });
    expect(parseNetwork('100G RoCE')).toMatchObject({ kind: 'roce', lineGbitps: 100 });
    expect(parseNetwork('HDR')).toMatchObject({ kind: 'infiniband', lineGbitps: 200 });
    expect(parseNetwork(40)).toMatchObject({ label: '40Gb/s', kind: 'ethernet', gbps: 3.75 });
    expect(parseNetwork('10 Gbps')).toMatchObject({ kind: 'ethernet', lineGbitps: 10 });
    for (const bad of ['fast', '0', '-5', '100GbX', '']) expect(() => parseNetwork(bad), bad).toThrow(UserError);
  });

  it('reads NICs per node and the named nodes of models/node-networks.json', () => {
    expect(parseNetwork('8x400Gb-IB')).toMatchObject({ label: '8x400Gb-IB', kind: 'infiniband', gbps: 45, rails: 8 });
    expect(parseNetwork('32 x 100Gb-EFA')).toMatchObject({ kind: 'efa', lineGbitps: 100, gbps: 10.5, rails: 32 });
    expect(parseNetwork('8xNDR')).toMatchObject({ kind: 'infiniband', lineGbitps: 400, rails: 8 });
    expect(parseNetwork('p5')).toMatchObject({ label: 'p5 (32x100Gb-EFA)', kind: 'efa', rails: 32, gpusPerNode: 8 });
    expect(parseNetwork('P4DE')).toMatchObject({ label: 'p4d (4x100Gb-EFA)', rails: 4 });
    expect(parseNetwork('dgx-a100')).toMatchObject({ kind: 'infiniband', lineGbitps: 200, rails: 8 });
    expect(parseNetwork('dgx-h100')).toMatchObject({ lineGbitps: 400, rails: 8 });
    expect(() => parseNetwork('0x400Gb-IB')).toThrow(/0 NICs per node/);
    expect(() => parseNetwork('65x400Gb-IB')).toThrow(/1 to 64/);
    expect(() => parseNetwork('dgx-z9')).toThrow(/dgx-h100/);
  });

  it('gives one transfer between nodes its GPU’s own NICs, and the rails to collectives', () => {
    const h100 = (m: string, i: number): PlanDevice => ({ ...dev(m, `cuda:${i}`, 'H100 SXM5'), estimate: 'datasheet' });
    const devices = [0, 1].flatMap((n) => [0, 1, 2, 3, 4, 5, 6, 7].map((i) => h100(`n${n}`, i)));
    const on = (network: string): PlanLink | undefined =>
      between(buildPlanLinks(devices, { network }).links, 'n0/cuda:0', 'n1/cuda:0');
    // p5: 4 EFA NICs per GPU, 4 x 100/8 x 0.84 = 42 GB/s
    expect(on('p5')).toMatchObject({ gbps: 42, rails: { count: 32, gbps: 10.5, perGpu: 4 } });
    // p4d: two GPUs share a NIC; one transfer alone has it all
    expect(on('p4d')).toMatchObject({ gbps: 10.5, rails: { count: 4, perGpu: 0.5 } });
    // no count: one NIC a node, as before
    expect(on('400Gb-IB')).toMatchObject({ gbps: 45, rails: { count: 1, gbps: 45, perGpu: 0.125 } });
    // inside a node, H100 SXM's NVLink Switch reduces: 450 GB/s x 0.57
    const inside = between(buildPlanLinks(devices, { network: 'p5' }).links, 'n0/cuda:0', 'n0/cuda:1');
    expect(inside).toMatchObject({ kind: 'NVLINK(datasheet)', gbps: 360, nvlsGbps: 256.5 });
    expect(inside?.rails).toBeUndefined();
  });

  it('links devices on two machines over the stated network, capped by the GPU host link', () => {
    const devices = [...ws('ws-a'), ...ws('ws-b')];
    const { links } = buildPlanLinks(devices, { machines: [wsLinks('ws-a'), wsLinks('ws-b')], network: '100GbE' });
    expect(links).toHaveLength(15);
    expect(between(links, 'ws-a/cuda:0', 'ws-b/cuda:0')).toMatchObject({
      kind: 'NETWORK(100GbE)',
      alphaUs: 35,
      gbps: 9.375,
    });
    // the RTX 2080 SUPER sits on PCIe 3.0 x8: 7.88 x 0.8 < 9.375
    expect(between(links, 'ws-a/cuda:1', 'ws-b/cuda:0')?.gbps).toBe(6.304);
    expect(between(links, 'ws-a/cpu', 'ws-b/cpu')?.gbps).toBe(9.375);
  });

  it('uses per-pair networks over the default', () => {
    const devices = [dev('a', 'cpu', 'x'), dev('b', 'cpu', 'x'), dev('c', 'cpu', 'x')];
    const { links } = buildPlanLinks(devices, {
      network: '25GbE',
      networks: [{ a: 'c', b: 'a', network: '200Gb-IB' }],
    });
    expect(between(links, 'a/cpu', 'b/cpu')?.kind).toBe('NETWORK(25GbE)');
    expect(between(links, 'a/cpu', 'c/cpu')?.kind).toBe('NETWORK(200Gb-IB)');
  });

  it('links like nodes by node: a link per pair inside each, one node-level link between any two', () => {
    const h100 = (n: number, i: number): PlanDevice =>
      virtualDevice('H100 SXM5', { machine: `n${n}`, index: i }).device;
    const devices = [0, 1, 2, 3].flatMap((n) => [0, 1, 2, 3, 4, 5, 6, 7].map((i) => h100(n, i)));
    const { links } = buildPlanLinks(devices, { network: '8x400Gb-IB' });
    expect(links).toHaveLength(4 * 28 + 1);
    const across = links.filter((l) => l.nodes);
    expect(across).toHaveLength(1);
    expect(across[0]?.nodes?.map((n) => n.length)).toEqual([8, 8, 8, 8]);
    // Every pair's link is the one a link per pair gives (a per-pair network turns the node links off).
    const pairs = buildPlanLinks(devices, {
      network: '8x400Gb-IB',
      networks: [{ a: 'n0', b: 'n1', network: '8x400Gb-IB' }],
    }).links;
    expect(pairs).toHaveLength((32 * 31) / 2);
    const { a: _a, b: _b, ...one } = between(pairs, devices[3]?.id ?? '', devices[29]?.id ?? '') as PlanLink;
    for (const [x, y] of [
      [0, 8],
      [5, 30],
      [17, 26],
    ] as const) {
      expect(linkBetween(links, devices[x]?.id ?? '', devices[y]?.id ?? '')).toMatchObject(one);
      expect(linkBetween(links, devices[x]?.id ?? '', devices[x + 1]?.id ?? '')).toEqual(
        between(pairs, devices[x]?.id ?? '', devices[x + 1]?.id ?? ''),
      );
    }
    expect(linkBetween(links, devices[0]?.id ?? '', 'elsewhere/cuda:0')).toBeUndefined();
  });

  it('builds 16,384 GPUs in 2,048 nodes as O(nodes) links, and cuts them to a subset', () => {
    const devices = Array.from(
      { length: 16_384 },
      (_, i) => virtualDevice('H100 SXM5', { machine: `n${Math.floor(i / 8)}`, index: i % 8 }).device,
    );
    const { links } = buildPlanLinks(devices, { network: '8x400Gb-IB' });
    expect(links).toHaveLength(2048 * 28 + 1);
    expect(linkBetween(links, 'n0/h100-sxm5-80gb:0', 'n2047/h100-sxm5-80gb:7')?.rails?.count).toBe(8);
    const some = linksAmongDevices(links, new Set(devices.slice(4, 20).map((d) => d.id)));
    expect(some.filter((l) => l.nodes)).toMatchObject([{ nodes: [{ length: 4 }, { length: 8 }, { length: 4 }] }]);
    expect(some).toHaveLength(6 + 28 + 6 + 1);
    // Stages on distinct nodes are joined by the node-level link alone; sharing a node, not.
    const ids = (from: number, to: number): string[] => devices.slice(from, to).map((d) => d.id);
    expect(nodeLinkAcross(links, ids(0, 8192), ids(8192, 16_384))?.nodes).toHaveLength(2048);
    expect(nodeLinkAcross(links, ids(0, 12), ids(12, 24))).toBeNull();
    expect(nodeLinkAcross(links, ids(0, 8), ['elsewhere/cuda:0'])).toBeNull();
  });

  it('names the machines when a network is missing', () => {
    const devices = [...ws('ws-a'), dev('ws-b', 'cuda:0', 'NVIDIA GeForce RTX 4090')];
    expect(() => buildPlanLinks(devices, { machines: [wsLinks('ws-a')] })).toThrow(UserError);
    expect(() => buildPlanLinks(devices)).toThrow(/machines ws-a, ws-b.*ws-a <-> ws-b/);
    const three = [dev('a', 'cpu', 'x'), dev('b', 'cpu', 'x'), dev('c', 'cpu', 'x')];
    expect(() => buildPlanLinks(three, { networks: [{ a: 'a', b: 'b', network: 10 }] })).toThrow(/a <-> c, b <-> c/);
  });
});
