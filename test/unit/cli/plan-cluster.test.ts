/** `pipedejavu plan` over imported cluster nodes: machine patterns, a links statement, a measured pair. */
import path from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import { cli, tempDir } from '../../helpers/cli.js';
import { clusterNodeProfile } from '../../helpers/cluster-node.js';
import { ncclTwoRanks } from '../../helpers/gpu-profile.js';
import { seededDb } from '../../helpers/seeded-store.js';

interface PlanJson {
  plans: { kind: string; feasible: boolean; stages: { devices: string[]; tp?: number }[] }[];
  devices: { id: string }[];
  networks: { a: string; b: string; kind: string }[];
  warnings: string[];
}

/** Three 8-GPU nodes (two racks) imported from one folder, a predictor trained. */
async function clusterStore(): Promise<{ db: string; dir: string }> {
  const dir = tempDir();
  const db = path.join(dir, 'cluster.db');
  seededDb(db).close();
  const folder = path.join(dir, 'nodes');
  mkdirSync(folder);
  for (const host of ['r1n01', 'r1n02', 'r2n03'])
    writeFileSync(path.join(folder, `${host}.json`), encodeProfile(clusterNodeProfile(host)));
  expect((await cli(['import', folder, '--db', db])).code).toBe(0);
  expect((await cli(['train', '--db', db, '--predictor', 'analytical'])).code).toBe(0);
  return { db, dir };
}

const linkKind = (p: PlanJson, a: string, b: string): string | undefined =>
  p.networks.find((l) => (l.a === a && l.b === b) || (l.a === b && l.b === a))?.kind;

describe('pipedejavu plan on a cluster', () => {
  // Two CLI runs planning 24 GPUs: well over the default 30 s on two CPUs under load.
  it(
    'plans over machines named by a pattern, on the links a statement and nccl-tests give',
    { timeout: 120_000 },
    async () => {
      const { db, dir } = await clusterStore();
      const links = path.join(dir, 'links.txt');
      writeFileSync(links, 'r1n* r1n* 200Gb-IB\n* * 25GbE\n');
      const nccl = path.join(dir, 'nccl');
      mkdirSync(nccl);
      // nccl-tests between r1n01 and r2n03, one GPU each (the pair recipe's output).
      const pair = ncclTwoRanks('r1n01', 3).replace(/on r1n01 device {2}1/, 'on r2n03 device  0');
      writeFileSync(path.join(nccl, 'r1n01-r2n03.txt'), pair);
      const args = ['plan', '--workload', 'gpt2-small', '--devices', 'none', '--batch', '16', '--db', db];
      const r = await cli([...args, '--machine', 'r*', '--links', links, '--nccl', nccl, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const p = JSON.parse(r.stdout) as PlanJson;
      expect(p.devices).toHaveLength(24);
      expect(linkKind(p, 'r1n01', 'r1n02')).toBe('NETWORK(200Gb-IB)');
      expect(linkKind(p, 'r1n02', 'r2n03')).toBe('NETWORK(25GbE)');
      expect(linkKind(p, 'r1n01', 'r2n03')).toMatch(/^NETWORK\(.*GB\/s measured\)$/);
      expect(p.warnings.join('\n')).toMatch(/r1n01-r2n03.txt: measured link r1n01 <-> r2n03/);
      expect(p.plans.some((x) => x.feasible)).toBe(true);

      const text = await cli([...args, '--machine', 'r*', '--links', links]);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(
        /devices 8 x NVIDIA H100 80GB HBM3 on r1n01, 8 x NVIDIA H100 80GB HBM3 on r1n02, 8 x NVIDIA H100 80GB HBM3 on r2n03 \(24 measured\)/,
      );
    },
  );

  it('says in one line what is wrong with --machine, --links and a missing network', async () => {
    const { db, dir } = await clusterStore();
    const args = ['plan', '--workload', 'gpt2-small', '--devices', 'none', '--db', db];
    const none = await cli([...args, '--machine', 'gpu*']);
    expect(none.code).toBe(1);
    expect(none.stderr.trim()).toBe(
      'pipedejavu: error: no machine in the store matches "gpu*" (see pipedejavu machines)',
    );
    const missing = await cli([...args, '--machine', 'r*', '--links', path.join(dir, 'nope.txt')]);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/--links: cannot read/);
    const bad = path.join(dir, 'bad.txt');
    writeFileSync(bad, 'r1n* r1n* 200Gb-IB\nr2n03 fast\n');
    const badLine = await cli([...args, '--machine', 'r*', '--links', bad]);
    expect(badLine.stderr.trim()).toMatch(/^pipedejavu: error: bad.txt:2: write "MACHINE MACHINE NETWORK"/);
    const partial = path.join(dir, 'partial.txt');
    writeFileSync(partial, 'r1n* r1n* 200Gb-IB\n');
    const gap = await cli([...args, '--machine', 'r*', '--links', partial]);
    expect(gap.code).toBe(1);
    expect(gap.stderr).toMatch(/no network is stated for r1n01 <-> r2n03, r1n02 <-> r2n03/);

    // A link no network has (0 GB/s), in a statement or in --network: the value and the line.
    const zero = path.join(dir, 'zero.txt');
    writeFileSync(zero, 'r1n* r1n* 200Gb-IB\n* * 0GB/s@5us\n');
    const zeroLine = await cli([...args, '--machine', 'r*', '--links', zero]);
    expect(zeroLine.code).toBe(1);
    expect(zeroLine.stderr).toBe(
      'pipedejavu: error: zero.txt:2: network "0GB/s@5us": a bandwidth of 0 GB/s is not positive (a link carries 0.001 to 10000 GB/s)\n',
    );
    const zeroNet = await cli([...args, '--machine', 'r*', '--network', '0GB/s']);
    expect(zeroNet.stderr).toBe(
      'pipedejavu: error: network "0GB/s": a bandwidth of 0 GB/s is not positive (a link carries 0.001 to 10000 GB/s)\n',
    );
  });

  it('says which line of an nccl-tests output holds a time that is not a number', async () => {
    const { db, dir } = await clusterStore();
    const nan = path.join(dir, 'nccl.txt');
    // The first result row (line 11) with "nan" for its out-of-place time.
    const lines = ncclTwoRanks('r1n01', 3).split('\n');
    lines[10] = (lines[10] as string).replace(/^(\s*(?:\S+\s+){5})\S+/, '$1nan');
    writeFileSync(nan, lines.join('\n'));
    const args = ['plan', '--workload', 'gpt2-small', '--devices', 'none', '--db', db, '--machine', 'r*'];
    const r = await cli([...args, '--network', '100GbE', '--nccl', nan]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('pipedejavu: error: nccl.txt line 11: time "nan" is not a number\n');
  });
});
