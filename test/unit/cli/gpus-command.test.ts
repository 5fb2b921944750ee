/** `pipedejavu gpus`: the datasheet GPUs as a table or JSON, and a name searched as `--virtual` reads it. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { GPU_DATASHEETS } from '../../../src-main/core/planner/cost/datasheets.js';

const dbIn = (dir: string): string => path.join(dir, 'db.sqlite');

describe('pipedejavu gpus', () => {
  it('lists every datasheet GPU with its memory, bandwidth and dense peaks, newest first, without opening the store', async () => {
    const db = dbIn(tempDir());
    const r = await cli(['gpus', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^GPU +ID +ARCHITECTURE +FORM +MEMORY +GB\/S +BF16 +FP16 +FP8 +NVLINK GB\/S$/);
    // A header, its rule, a row per GPU, a blank line and the closing line.
    expect(lines).toHaveLength(GPU_DATASHEETS.length + 4);
    expect(lines.at(-1)).toBe(
      `${GPU_DATASHEETS.length} datasheet GPUs: dense peaks from NVIDIA's datasheets. Plan on them with --virtual "NAME" (counts: "8xH100 SXM5").`,
    );
    const row = (id: string): string[] => (lines.find((l) => l.includes(`  ${id}  `)) ?? '').split(/ {2,}/);
    expect(row('h100-sxm5-80gb')).toEqual([
      'NVIDIA H100 SXM5 80GB',
      'h100-sxm5-80gb',
      'Hopper',
      'SXM',
      '80 GiB HBM3',
      '3350',
      '989.4',
      '989.4',
      '1978.9',
      '450',
    ]);
    // No bf16 or fp8 units on a T4, no NVLink on a 4090: "-".
    expect(row('t4').slice(6)).toEqual(['-', '65', '-', '-']);
    expect(row('rtx-4090').at(-1)).toBe('-');
    // Blackwell before Hopper before Volta; within Hopper the most memory first.
    const order = lines.slice(2, -2).map((l) => l.split(/ {2,}/)[1]);
    expect(order.indexOf('b200')).toBeLessThan(order.indexOf('h200-sxm-141gb'));
    expect(order.indexOf('h200-sxm-141gb')).toBeLessThan(order.indexOf('h100-sxm5-80gb'));
    expect(order.indexOf('h100-sxm5-80gb')).toBeLessThan(order.indexOf('h100-pcie-80gb'));
    expect(order.at(-1)).toMatch(/^v100-/);
    expect(existsSync(db)).toBe(false);
  });

  it('lists what a family name matches and says which part --virtual takes, in one line', async () => {
    const r = await cli(['gpus', 'H100', '--db', dbIn(tempDir())]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(2, 4).map((l) => l.split(/ {2,}/)[1])).toEqual(['h100-sxm5-80gb', 'h100-pcie-80gb']);
    expect(lines.at(-1)).toBe(
      '--virtual: "H100" stands for NVIDIA H100 SXM5 80GB (of 2 that match: SXM before PCIe, then the most memory); name "NVIDIA H100 PCIe 80GB" for another',
    );
    const s = await cli(['gpus', '--search', '3090', '--db', dbIn(tempDir())]);
    expect(s.stdout.trimEnd().split('\n').at(-1)).toBe('--virtual "3090" takes NVIDIA GeForce RTX 3090');
  });

  it('searches a name written with a count as --virtual takes it ("4xH100")', async () => {
    const r = await cli(['gpus', '4xH100', '--db', dbIn(tempDir())]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(2, 4).map((l) => l.split(/ {2,}/)[1])).toEqual(['h100-sxm5-80gb', 'h100-pcie-80gb']);
    expect(lines.at(-1)).toMatch(/^--virtual: "H100" stands for NVIDIA H100 SXM5 80GB/);
  });

  it('lists the GPUs an ambiguous name matches and says --virtual refuses it', async () => {
    const r = await cli(['gpus', '6000', '--db', dbIn(tempDir())]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/rtx-pro-6000-blackwell/);
    expect(r.stdout).toMatch(/rtx-6000-ada/);
    expect(r.stdout).toMatch(/rtx-a6000/);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('--virtual "6000" is refused: name one of these');
  });

  it('prints the datasheets as JSON, with the search when given', async () => {
    const all = JSON.parse((await cli(['gpus', '--json', '--db', dbIn(tempDir())])).stdout);
    expect(all.gpus).toHaveLength(GPU_DATASHEETS.length);
    expect(all.search).toBeUndefined();
    const h = JSON.parse((await cli(['gpus', 'H100', '--json', '--db', dbIn(tempDir())])).stdout);
    expect(h.gpus.map((g: { id: string }) => g.id)).toEqual(['h100-sxm5-80gb', 'h100-pcie-80gb']);
    expect(h.gpus[0].memory).toEqual({ type: 'HBM3', sizeGiB: 80, bandwidthGBps: 3350 });
    expect(h.search).toMatchObject({ text: 'H100', picks: 'NVIDIA H100 SXM5 80GB' });
  });

  it('refuses a name nothing matches with the closest, and a name given twice', async () => {
    const r = await cli(['gpus', 'Voodoo 5', '--db', dbIn(tempDir())]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no datasheet for GPU "Voodoo 5"; did you mean .+\? \(see `pipedejavu gpus`\)/);
    const both = await cli(['gpus', 'h100', '--search', 'a100', '--db', dbIn(tempDir())]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/give a NAME or --search NAME, not both/);
  });
});
