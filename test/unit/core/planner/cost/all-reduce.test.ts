/**
 * All-reduce algorithms against values worked out by hand (S/beta µs = bytes / (GB/s x 1e3)):
 * 2 nodes x 8 GPUs, NVLink 240 GB/s at 4 µs inside, NICs of 45 GB/s at 5 µs between.
 */
import { describe, expect, it } from 'vitest';
import {
  allReduceOver,
  allReduceRoute,
  crossMachineAllReduceNote,
  hierarchicalPhases,
  pipelinedUs,
  type AllReduceRoute,
} from '../../../../../src-main/core/planner/cost/all-reduce.js';
import { createCostModel } from '../../../../../src-main/core/planner/cost/cost-model.js';
import type { PlanLink } from '../../../../../src-main/core/planner/types.js';

const GPUS = [0, 1, 2, 3, 4, 5, 6, 7];

/** Every pair of 2 x 8 GPUs: NVLink inside a node, `rails` NICs of 45 GB/s a node between. */
function cluster(rails: number, nvlsGbps?: number): { devices: string[]; links: PlanLink[] } {
  const devices = [0, 1].flatMap((n) => GPUS.map((g) => `n${n}/cuda:${g}`));
  const links: PlanLink[] = [];
  devices.forEach((a, i) =>
    devices.slice(i + 1).forEach((b) => {
      if (a.slice(0, 2) === b.slice(0, 2))
        links.push({ a, b, kind: 'NVLINK', alphaUs: 4, gbps: 240, ...(nvlsGbps ? { nvlsGbps } : {}) });
      else
        links.push({
          a,
          b,
          kind: 'NETWORK',
          alphaUs: 5,
          gbps: 45,
          rails: { count: rails, gbps: 45, perGpu: rails / 8 },
        });
    }),
  );
  return { devices, links };
}

const S = 1e9;

function nodesOf(route: AllReduceRoute | null): NonNullable<AllReduceRoute['nodes']> {
  if (!route?.nodes) throw new Error('expected a route across nodes');
  return route.nodes;
}

describe('all-reduce across 2 nodes x 8 GPUs', () => {
  it('uses all 8 rails: hierarchical phases, pipelined, hand-computed', () => {
    const { devices, links } = cluster(8);
    const nodes = nodesOf(allReduceRoute(devices, links));
    expect(nodes).toMatchObject({ count: 2, perNode: 8, network: { gbps: 360, alphaUs: 5 } });
    const phases = hierarchicalPhases(nodes, S);
    // reduce-scatter (and all-gather) inside: 7/8 x 1e9 / 240e3 = 3645.833 µs, 7 x 4 µs
    expect(phases.inside?.transferUs).toBeCloseTo(3645.833, 3);
    expect(phases.inside?.latencyUs).toBe(28);
    // across: each GPU's 1/8 over its rail, ring of 2 nodes: 2(1)/2 x 1e9 / (8 x 45e3) = 2777.778 µs, 2 x 5 µs
    expect(phases.across.transferUs).toBeCloseTo(2777.778, 3);
    expect(phases.across.latencyUs).toBe(10);
    // NVLink carries both inside phases while the NICs carry theirs: max(7291.667, 2777.778) + 28 + 28 + 10
    expect(pipelinedUs(phases)).toBeCloseTo(7357.667, 3);
    // summed end to end it would be 3645.833 + 2777.778 + 3645.833 + 66 = 10135.444 µs
    expect(allReduceOver(allReduceRoute(devices, links) as AllReduceRoute, S)).toEqual({
      us: pipelinedUs(phases),
      algorithm: 'hierarchical',
    });
    // a ring per rail instead: 2 x 15/16 x 1e9 / min(360, 240)e3 + 2 x 15 x 5 = 7962.5 µs, slower
    expect(createCostModel(links).allReduceUs(devices, S)).toBeCloseTo(7357.667, 3);
  });

  it('is network-bound with one rail: 1e9 / 45e3 + 66 = 22288.222 µs, not the old single ring (41816.667)', () => {
    const { devices, links } = cluster(1);
    const nodes = nodesOf(allReduceRoute(devices, links));
    expect(nodes.network).toEqual({ gbps: 45, alphaUs: 5 });
    expect(hierarchicalPhases(nodes, S).across.transferUs).toBeCloseTo(22222.222, 3);
    expect(createCostModel(links).allReduceUs(devices, S)).toBeCloseTo(22288.222, 3);
    // 8 rails are 3.03x faster here
    const eight = cluster(8);
    const ratio =
      createCostModel(links).allReduceUs(devices, S) / createCostModel(eight.links).allReduceUs(eight.devices, S);
    expect(ratio).toBeCloseTo(22288.222 / 7357.667, 6);
  });

  it('reduces in the NVLink Switch where the links say so: 1e9 / 256.5e3 inside', () => {
    const { devices, links } = cluster(8, 256.5);
    const phases = hierarchicalPhases(nodesOf(allReduceRoute(devices, links)), S);
    // each GPU's data into the switch and back once: 3898.635 µs for both phases, 4 µs each
    expect(2 * (phases.inside?.transferUs ?? 0)).toBeCloseTo(3898.635, 3);
    expect(pipelinedUs(phases)).toBeCloseTo(3898.635 + 8 + 10, 3);
    // one node alone: NVLS 3898.635 + 2 x 4 beats the ring's 2 x 7/8 x 1e9 / 240e3 + 56 = 7347.667
    const one = devices.slice(0, 8);
    expect(allReduceOver(allReduceRoute(one, links) as AllReduceRoute, S)).toEqual({
      us: 1e9 / 256.5e3 + 8,
      algorithm: 'nvls',
    });
  });

  it('takes a node’s share of rails with fewer GPUs on it, and one GPU per node crosses only the network', () => {
    const { links } = cluster(8);
    const pair = ['n0/cuda:0', 'n1/cuda:0'];
    const route = allReduceRoute(pair, links);
    // one GPU a node: its own rail, 45 GB/s; 1e9 / 45e3 + 10
    expect(nodesOf(route)).toMatchObject({ perNode: 1, intra: null, network: { gbps: 45 } });
    expect(allReduceOver(route as AllReduceRoute, S).us).toBeCloseTo(22232.222, 3);
  });

  it('falls back to one ring through the slowest link when the nodes hold unequal shares', () => {
    const { devices, links } = cluster(8);
    const uneven = [...devices.slice(0, 3), ...devices.slice(8, 13)];
    const route = allReduceRoute(uneven, links) as AllReduceRoute;
    expect(route.nodes).toBeNull();
    // 2 x 7/8 x 1e9 / 45e3 + 2 x 7 x 5
    expect(allReduceOver(route, S)).toEqual({ us: (2 * 7 * 1e9) / 8 / 45e3 + 70, algorithm: 'ring' });
  });

  it('is Infinity without a link between two of the devices', () => {
    const { devices, links } = cluster(8);
    expect(createCostModel(links.slice(1)).allReduceUs(devices, S)).toBe(Infinity);
  });

  it('says which algorithm a plan over several machines assumes', () => {
    expect(crossMachineAllReduceNote(cluster(8, 256.5).links)).toBe(
      'all-reduces across machines over all 8 NIC(s) of each: hierarchical: reduce-scatter inside each node, ' +
        'all-reduce across nodes over every rail, all-gather inside; pipelined, or one ring per rail across the nodes, ' +
        "in parallel where cheaper; inside nodes whose switch reduces, NVLS: the NVLink Switch reduces (each GPU's " +
        'data crosses NVLink once each way)',
    );
    expect(crossMachineAllReduceNote(cluster(1).links.filter((l) => !l.rails))).toBeNull();
  });
});
