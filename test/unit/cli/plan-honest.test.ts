/**
 * `plan` as a person reads it (issue #44): exit 1 with verified changes when nothing fits, GPU
 * names as typed with counts, repeated warnings grouped, each rejection printed once.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { seededDb } from '../../helpers/seeded-store.js';

async function trainedStore(): Promise<string> {
  const db = path.join(tempDir(), 'plan.db');
  seededDb(db).close();
  expect((await cli(['train', '--db', db, '--predictor', 'analytical'])).code).toBe(0);
  return db;
}

interface PlanJson {
  plans: { feasible: boolean }[];
  devices: { id: string; name: string; estimate: string }[];
  suggestions: { change: string; option: string; plan: { stepUs?: number; serving?: { ttftUs: number } } }[];
}

const llamaOnCpu = ['plan', '--workload', 'llama-13b', '--seq', '512', '--batch', '1', '--devices', 'cpu'];

describe('pipedejavu plan, honest and readable', () => {
  it('exits 1 when nothing fits, with the changes that would fit, each verified', async () => {
    const db = await trainedStore();
    const r = await cli([...llamaOnCpu, '--db', db]);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^pipedejavu: error: no plan fits these devices/);
    expect(r.stdout).toMatch(/No plan fits these devices\./);
    expect(r.stdout).toMatch(/What would fit \(each checked by the same search/);
    // One more of the datasheet GPU with the most memory (models/gpus.json decides which).
    expect(r.stdout).toMatch(/^- one more NVIDIA .*: --virtual "\dxNVIDIA [^"]+" \(best plan /m);
    const j = await cli([...llamaOnCpu, '--db', db, '--json']);
    expect(j.code).toBe(1);
    const body = JSON.parse(j.stdout) as PlanJson;
    expect(body.plans.some((p) => p.feasible)).toBe(false);
    expect(body.suggestions.length).toBeGreaterThan(0);
    expect(body.suggestions.every((s) => (s.plan.stepUs ?? 0) > 0)).toBe(true);
  });

  it("writes a served decoder's changes in first-token time and tokens/s, in text and JSON alike", async () => {
    const db = await trainedStore();
    const serving = ['plan', '--workload', 'llama-13b', '--mode', 'inference', '--batch', '4', '--seq', '512'];
    const args = [...serving, '--devices', 'none', '--virtual', 'RTX 4090', '--db', db];
    const text = (await cli(args)).stdout.split('\n').filter((l) => l.startsWith('- ') && l.includes('(best plan '));
    const json = (JSON.parse((await cli([...args, '--json'])).stdout) as PlanJson).suggestions;
    expect(text.length).toBeGreaterThan(0);
    expect(text).toHaveLength(json.length);
    for (const line of text) {
      expect(line).toMatch(
        /\(best plan [\w-]+: first token [\d.]+ m?s, decode step [\d.]+ m?s, [\d.]+ tokens\/s a sequence/,
      );
      expect(line).not.toMatch(/samples\/s/);
    }
    for (const s of json) {
      expect(s.plan.serving?.ttftUs).toBeGreaterThan(0);
      expect(s.plan).not.toHaveProperty('throughputSamplesPerS');
    }
  });

  it('takes GPU names as typed, with counts, a family name as its SXM part, and refuses an ambiguous one with the closest names', async () => {
    const db = await trainedStore();
    const base = ['plan', '--workload', 'bert-base', '--seq', '64', '--batch', '8', '--devices', 'none', '--db', db];
    const fuzzy = await cli([...base, '--virtual', '4090', '--json']);
    expect(fuzzy.code).toBe(0);
    expect((JSON.parse(fuzzy.stdout) as PlanJson).devices.map((d) => d.name)).toEqual(['NVIDIA GeForce RTX 4090']);
    const counted = await cli([...base, '--virtual', '8x h100 sxm5,2 x 4090', '--top', '1', '--json']);
    expect(counted.code).toBe(0);
    const names = (JSON.parse(counted.stdout) as PlanJson).devices.map((d) => d.name);
    expect(names.filter((n) => n === 'NVIDIA H100 SXM5 80GB')).toHaveLength(8);
    expect(names.filter((n) => n === 'NVIDIA GeForce RTX 4090')).toHaveLength(2);
    // A family name stands for its SXM part with the most memory.
    const family = await cli([...base, '--virtual', '4xH100', '--top', '1', '--json']);
    expect(family.code).toBe(0);
    const picked = (JSON.parse(family.stdout) as PlanJson).devices.map((d) => d.name);
    expect(picked).toEqual(Array<string>(4).fill('NVIDIA H100 SXM5 80GB'));
    const ambiguous = await cli([...base, '--virtual', '6000']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(ambiguous.stderr).toMatch(/did you mean "NVIDIA RTX (A6000|6000 Ada Generation|PRO 6000 [^"]+)", /);
    const tooMany = await cli([...base, '--virtual', '300xH100 SXM5']);
    expect(tooMany.stderr).toMatch(/300 datasheet GPUs; a plan takes at most 256/);
  });

  it('groups identical warnings with a count, prints each rejection once, and says what was measured', async () => {
    const db = await trainedStore();
    const r = await cli([
      'plan',
      '--workload',
      'llama-13b',
      '--seq',
      '256',
      '--batch',
      '1',
      '--virtual',
      '8xH100 SXM5',
      '--top',
      '3',
      '--db',
      db,
    ]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const datasheet = lines.filter((l) => /from its datasheet, not measured/.test(l));
    expect(datasheet).toHaveLength(1);
    expect(datasheet[0]).toMatch(/^warning: 8x: NVIDIA H100 SXM5 80GB is from its datasheet, not measured/);
    expect(r.stdout).not.toMatch(/measured within/);
    expect(r.stdout).toMatch(
      /8 x NVIDIA H100 SXM5 80GB on lab-ws-01 \(datasheet estimate\) \(1 measured, 8 from datasheets\)/,
    );
    const rejected = lines.filter((l) => l.startsWith('- '));
    expect(rejected.length).toBeGreaterThan(0);
    expect(new Set(rejected).size).toBe(rejected.length);
    // The offload's host (64 GiB here) cannot hold llama-13b's 145 GiB of fp32 master weights and Adam moments.
    // (The offload is searched at ZeRO-1, from which DeepSpeed offloads, since ZeRO stages are searched.)
    expect(r.stdout).toMatch(
      /^- with optimizer offload, ZeRO-1: \d+ of \d+ plans need more memory than the host has; .*need 145 GiB; the host has 64\.0 GiB \(probed\)$/m,
    );
    expect(r.stdout).not.toMatch(/Best plan: .*optimizer offloaded/);
    // A plan that does not fit is a rejection, never a row of the ranking.
    expect(r.stdout).not.toMatch(/does not fit\)/);
  });
});
