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

  it('refuses a bandwidth or a latency no link has, naming the value and the line', () => {
    const why = (text: string): string => {
      try {
        parseNetworkStatement(text, 'links.txt');
      } catch (e) {
        return e instanceof UserError ? e.message : `not a UserError: ${String(e)}`;
      }
      return 'accepted';
    };
    expect(why('a b 100GbE\nc d 0GB/s@5us\n')).toBe(
      'links.txt:2: network "0GB/s@5us": a bandwidth of 0 GB/s is not positive (a link carries 0.001 to 10000 GB/s)',
    );
    expect(why('a b 0.0000001GB/s\n')).toBe(
      'links.txt:1: network "0.0000001GB/s": a bandwidth of 1e-7 GB/s is below 0.001 GB/s (a link carries 0.001 to 10000 GB/s)',
    );
    expect(why(`a b 1${'0'.repeat(400)}GB/s\n`)).toMatch(
      /^links.txt:1: network "10{39}\.\.\.": a bandwidth of Infinity GB\/s is not a finite number \(a link carries 0\.001 to 10000 GB\/s\)$/,
    );
    expect(why('a b 99999GB/s\n')).toBe(
      'links.txt:1: network "99999GB/s": a bandwidth of 99999 GB/s is above 10000 GB/s (a link carries 0.001 to 10000 GB/s)',
    );
    expect(why('a b 20GB/s@99999999us\n')).toBe(
      'links.txt:1: network "20GB/s@99999999us": a latency of 99999999 µs is above 10000000 µs (a link answers within 0 to 10000000 µs)',
    );
    expect(why('a b 0GbE\n')).toBe(
      'links.txt:1: network "0GbE": a line rate of 0 Gb/s is not positive (a link carries 0.008 to 80000 Gb/s)',
    );
    expect(why('a b 1000000Gb-IB\n')).toBe(
      'links.txt:1: network "1000000Gb-IB": a line rate of 1000000 Gb/s is above 80000 Gb/s (a link carries 0.008 to 80000 Gb/s)',
    );
    expect(why('a b 20GB/s@0us\nc d 400Gb-IB\n')).toBe('accepted');
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
