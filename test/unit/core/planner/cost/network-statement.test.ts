import { describe, expect, it } from 'vitest';
import { UserError } from '../../../../../src-main/core/errors.js';
import { buildPlanLinks, parseNetwork } from '../../../../../src-main/core/planner/cost/links.js';
import { parseNetworkStatement } from '../../../../../src-main/core/planner/cost/network-statement.js';
import type { PlanDevice } from '../../../../../src-main/core/planner/types.js';
import { globMatches } from '../../../../../src-main/core/text/glob.js';

const gpu = (machine: string): PlanDevice => ({
  id: `${machine}/cuda:0`,
  name: 'NVIDIA H100 SXM5 80GB',
  kind: 'gpu',
  machine,
  memoryBytes: 80e9,
  estimate: 'profiled',
});

const TWO_LEVEL = `# racks on InfiniBand, Ethernet between
r1n* r1n*  200Gb-IB
r2n* r2n*  200Gb-IB   # leaf switch of rack 2
r1n01 r2n01 21.5GB/s@14us
*    *     100GbE
`;

describe('network statements', () => {
  it('reads a two-level network, a measured pair and comments', () => {
    const rules = parseNetworkStatement(TWO_LEVEL, 'links.txt');
    expect(rules.map((r) => [r.a, r.b, r.network.kind, r.origin])).toEqual([
      ['r1n*', 'r1n*', 'infiniband', 'links.txt:2'],
      ['r2n*', 'r2n*', 'infiniband', 'links.txt:3'],
      ['r1n01', 'r2n01', 'measured', 'links.txt:4'],
      ['*', '*', 'ethernet', 'links.txt:5'],
    ]);
    expect(parseNetwork('21.5GB/s@14us')).toMatchObject({ gbps: 21.5, alphaUs: 14, kind: 'measured' });
    expect(parseNetwork('12GB/s')).toMatchObject({ gbps: 12, alphaUs: 10 });
  });

  it('names the file and line of a bad line, and refuses an empty statement', () => {
    expect(() => parseNetworkStatement('a b 200Gb-IB\nnode1 node2\n', 'links.txt')).toThrow(
      /links.txt:2: write "MACHINE/,
    );
    expect(() => parseNetworkStatement('a b warp-drive\n', 'links.txt')).toThrow(/links.txt:1: cannot read network/);
    expect(() => parseNetworkStatement('# nothing\n\n', 'links.txt')).toThrow(UserError);
  });

  it('matches machine labels with * and ? and nothing else', () => {
    expect(globMatches('r1n*', 'r1n07')).toBe(true);
    expect(globMatches('r1n*', 'r11n07')).toBe(false);
    expect(globMatches('node?', 'node7')).toBe(true);
    expect(globMatches('node?', 'node17')).toBe(false);
    expect(globMatches('a.b', 'axb')).toBe(false);
  });

  it('prices each machine pair by the first matching line, in either order', () => {
    const devices = ['r1n01', 'r1n02', 'r2n01', 'r2n02'].map(gpu);
    const { links } = buildPlanLinks(devices, { rules: parseNetworkStatement(TWO_LEVEL, 'links.txt') });
    const kind = (a: string, b: string): string | undefined =>
      links.find(
        (l) => (l.a === `${a}/cuda:0` && l.b === `${b}/cuda:0`) || (l.a === `${b}/cuda:0` && l.b === `${a}/cuda:0`),
      )?.kind;
    expect(kind('r1n01', 'r1n02')).toBe('NETWORK(200Gb-IB)');
    expect(kind('r2n02', 'r2n01')).toBe('NETWORK(200Gb-IB)');
    expect(kind('r2n01', 'r1n01')).toBe('NETWORK(21.5GB/s measured)');
    expect(kind('r1n02', 'r2n02')).toBe('NETWORK(100GbE)');
  });

  it('names the pairs no line covers, a few of them', () => {
    const devices = Array.from({ length: 12 }, (_, i) => gpu(`n${i}`));
    expect(() => buildPlanLinks(devices, { rules: parseNetworkStatement('n0 n1 100GbE', 'l') })).toThrow(
      /12 machines, but no network is stated for n0 <-> n2, .*more pairs/,
    );
  });
});
