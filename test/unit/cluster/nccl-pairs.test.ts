/**
 * cluster/nccl-pairs.sbatch with Slurm's and nccl-tests' commands stood in for (no GPUs or second
 * node here): which pairs it measures, where the outputs go, and that `plan --nccl DIR` reads them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import { clusterNodeProfile } from '../../helpers/cluster-node.js';
import { ncclTwoRanks } from '../../helpers/gpu-profile.js';
import { seededDb } from '../../helpers/seeded-store.js';

const SCRIPT = path.resolve('cluster/nccl-pairs.sbatch');

/** A bin folder with scontrol (the node list) and srun (runs the command with the pair's hosts). */
function fakeSlurm(dir: string, nodes: string[]): { bin: string; tests: string } {
  const bin = path.join(dir, 'bin');
  const tests = path.join(dir, 'nccl-tests');
  mkdirSync(bin);
  mkdirSync(tests);
  const write = (file: string, text: string): void => {
    writeFileSync(file, text);
    chmodSync(file, 0o755);
  };
  write(path.join(bin, 'scontrol'), `#!/bin/bash\nprintf '%s\\n' ${nodes.join(' ')}\n`);
  // srun: pass the node list to the "test" through the environment, run it once.
  write(
    path.join(bin, 'srun'),
    '#!/bin/bash\nfor a in "$@"; do case "$a" in --nodelist=*) export PAIR="${a#--nodelist=}";; esac; done\n' +
      'while [[ "$1" == --* ]]; do shift; done\nexec "$@"\n',
  );
  const sample = ncclTwoRanks('HOSTA', 10).replace(/on HOSTA device {2}1/, 'on HOSTB device  0');
  writeFileSync(path.join(dir, 'sample.txt'), sample);
  write(
    path.join(tests, 'all_reduce_perf'),
    `#!/bin/bash\na=\${PAIR%,*}; b=\${PAIR#*,}\nsed -e "s/HOSTA/$a/; s/HOSTB/$b/" ${JSON.stringify(path.join(dir, 'sample.txt'))}\n`,
  );
  return { bin, tests };
}

function run(dir: string, nodes: string[], env: Record<string, string> = {}): ReturnType<typeof spawnSync> {
  const { bin, tests } = fakeSlurm(dir, nodes);
  return spawnSync('bash', [SCRIPT], {
    encoding: 'utf8',
    env: {
      ...process.env,
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      SLURM_JOB_NODELIST: nodes.join(','),
      PIPEDEJAVU_NCCL: path.join(dir, 'out'),
      NCCL_TESTS: tests,
      ...env,
    },
  });
}

describe('cluster/nccl-pairs.sbatch', () => {
  it('is valid bash', () => {
    execFileSync('bash', ['-n', SCRIPT]);
  });

  it('measures each node with the next (ring), or every pair', () => {
    const ring = tempDir();
    expect(run(ring, ['n1', 'n2', 'n3']).status).toBe(0);
    expect(readdirSync(path.join(ring, 'out')).sort()).toEqual(['n1-n2.txt', 'n2-n3.txt', 'n3-n1.txt']);
    expect(readFileSync(path.join(ring, 'out', 'n1-n2.txt'), 'utf8')).toMatch(/on n2 device {2}0/);
    const all = tempDir();
    expect(run(all, ['n1', 'n2', 'n3', 'n4'], { PAIRS: 'all' }).status).toBe(0);
    expect(readdirSync(path.join(all, 'out'))).toHaveLength(6);
    const two = tempDir();
    expect(run(two, ['n1', 'n2']).status).toBe(0);
    expect(readdirSync(path.join(two, 'out'))).toEqual(['n1-n2.txt']);
  });

  it('refuses one node and an unknown PAIRS in one line', () => {
    const one = run(tempDir(), ['n1']);
    expect(one.status).toBe(2);
    expect(String(one.stderr).trim()).toBe('nccl-pairs: the allocation has 1 node; ask for two or more (--nodes=2)');
    const bad = run(tempDir(), ['n1', 'n2'], { PAIRS: 'some' });
    expect(String(bad.stderr).trim()).toBe('nccl-pairs: PAIRS is ring or all, not some');
  });

  it('writes what plan --nccl DIR reads as measured links', async () => {
    const dir = tempDir();
    expect(run(dir, ['n1', 'n2']).status).toBe(0);
    const db = path.join(dir, 'store.db');
    seededDb(db).close();
    for (const host of ['n1', 'n2']) {
      const file = path.join(dir, `${host}.json`);
      writeFileSync(file, encodeProfile(clusterNodeProfile(host, { gpus: 1 })));
      expect((await cli(['import', file, '--db', db])).code).toBe(0);
    }
    expect((await cli(['train', '--db', db, '--predictor', 'analytical'])).code).toBe(0);
    const r = await cli([
      'plan',
      '--workload',
      'gpt2-small',
      '--devices',
      'none',
      '--machine',
      'n1,n2',
      '--network',
      '25GbE',
      '--nccl',
      path.join(dir, 'out'),
      '--json',
      '--db',
      db,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { warnings: string[]; networks: { kind: string }[] };
    expect(json.warnings.join('\n')).toMatch(/n1-n2.txt: measured link n1 <-> n2: 10 GB\/s/);
    expect(json.networks.map((n) => n.kind)).toEqual(['NETWORK(10GB/s measured)']);
  });
});
