/** The GPU catalog (models/gpus.json): every current NVIDIA generation, sourced, and nvidia-smi's names. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  GPU_DATASHEETS,
  datasheetFor,
  hasFp8,
  resolveGpuName,
} from '../../../../../src-main/core/planner/cost/datasheets.js';
import { UserError } from '../../../../../src-main/core/errors.js';
import { GPU_ARCHITECTURES, GPU_ARCHITECTURE_NAMES } from '../../../../../src-main/core/domain/gpu-architectures.js';

const FIXTURES = join(__dirname, '../../../../fixtures/nvidia-smi');

/** GPU names nvidia-smi printed in the fixtures: `Product Name : X`, `GPU 0: X (UUID: ...)` and CSV `name` columns. */
function fixtureGpuNames(): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith('.txt'))) {
    const lines = readFileSync(join(FIXTURES, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const product = /^\s*Product Name\s*:\s*(.+?)\s*$/.exec(line);
      if (product?.[1]) names.add(product[1]);
      const listed = /^GPU \d+: (.+?) \(UUID:/.exec(line);
      if (listed?.[1]) names.add(listed[1]);
      const header = line.split(', ');
      const col = header.indexOf('name');
      const row = lines[i + 1]?.split(', ');
      if (col >= 0 && header.includes('uuid') && row && row.length === header.length && row[col]) names.add(row[col]);
    });
  }
  return [...names];
}

describe('GPU catalog', () => {
  it('holds at least 40 GPUs, every architecture from Volta to Blackwell', () => {
    expect(GPU_DATASHEETS.length).toBeGreaterThanOrEqual(40);
    const archs = new Set(GPU_DATASHEETS.map((g) => g.architecture));
    for (const a of GPU_ARCHITECTURE_NAMES) expect(archs).toContain(a);
  });

  it('cites a datasheet or whitepaper URL for every GPU', () => {
    for (const g of GPU_DATASHEETS) expect(g.sources.join(' '), g.id).toMatch(/https:\/\/\S+\.nvidia\.com\//);
  });

  it('resolves every GPU name printed in the nvidia-smi fixtures', () => {
    const names = fixtureGpuNames();
    expect(names).toEqual(
      expect.arrayContaining([
        'NVIDIA H100 80GB HBM3',
        'NVIDIA GeForce RTX 4080 SUPER',
        'NVIDIA GeForce RTX 2080 SUPER',
      ]),
    );
    for (const n of names) expect(datasheetFor(n), n).not.toBeNull();
  });

  it('matches the names nvidia-smi prints for the cards users asked about', () => {
    const byNvidiaSmi: Record<string, string> = {
      'NVIDIA GeForce RTX 5090': 'rtx-5090',
      'NVIDIA GeForce RTX 5080': 'rtx-5080',
      'NVIDIA GeForce RTX 5070 Ti': 'rtx-5070-ti',
      'NVIDIA GeForce RTX 4080': 'rtx-4080',
      'NVIDIA GeForce RTX 4070': 'rtx-4070',
      'NVIDIA GeForce RTX 3080': 'rtx-3080',
      'NVIDIA GeForce RTX 3090 Ti': 'rtx-3090-ti',
      'NVIDIA RTX A6000': 'rtx-a6000',
      'NVIDIA RTX 6000 Ada Generation': 'rtx-6000-ada',
      'NVIDIA RTX PRO 6000 Blackwell Workstation Edition': 'rtx-pro-6000-blackwell',
      'NVIDIA L4': 'l4',
      'NVIDIA L40': 'l40',
      'NVIDIA A10': 'a10',
      'NVIDIA A100-SXM4-40GB': 'a100-sxm4-40gb',
      'NVIDIA A100 80GB PCIe': 'a100-pcie-80gb',
      'NVIDIA B200': 'b200',
      'NVIDIA GB200': 'gb200',
      'Tesla V100-PCIE-32GB': 'v100-pcie-32gb',
      'Tesla V100-SXM2-16GB': 'v100-sxm2-16gb',
    };
    for (const [name, id] of Object.entries(byNvidiaSmi)) expect(datasheetFor(name)?.id, name).toBe(id);
  });

  it('resolves typed names and lists the three closest for an unknown one', () => {
    expect(resolveGpuName('RTX 5090').id).toBe('rtx-5090');
    expect(resolveGpuName('5090').id).toBe('rtx-5090');
    expect(resolveGpuName('a6000').id).toBe('rtx-a6000');
    expect(resolveGpuName('b200').id).toBe('b200');
    let message = '';
    try {
      resolveGpuName('RTX 5060 Ti');
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      message = (e as Error).message;
    }
    expect(message).toMatch(/no datasheet for GPU "RTX 5060 Ti"; did you mean/);
    expect(message.split('did you mean')[1]?.split(/, | or /)).toHaveLength(3);
  });

  it('reads a bare model number as the plain card when a Ti or SUPER shares it', () => {
    expect(resolveGpuName('3090').id).toBe('rtx-3090');
    expect(resolveGpuName('3090 ti').id).toBe('rtx-3090-ti');
    expect(resolveGpuName('4080').id).toBe('rtx-4080');
    expect(resolveGpuName('5070').id).toBe('rtx-5070');
    expect(resolveGpuName('3080').id).toBe('rtx-3080');
    // Several cards end in 6000 (RTX 6000 Ada, RTX PRO 6000): still refused.
    expect(() => resolveGpuName('6000')).toThrow(/several datasheet GPUs match "6000"/);
    // V100 is a family (SXM2 and PCIe, 16 and 32 GB): its SXM part with the most memory.
    expect(resolveGpuName('V100').id).toBe('v100-sxm2-32gb');
  });

  it('gives fp8 and fp4 where the architecture table says (fp8 on Ada, Hopper and Blackwell, fp4 only on Blackwell)', () => {
    expect(GPU_ARCHITECTURE_NAMES.filter((a) => GPU_ARCHITECTURES[a].fp8)).toEqual(['Ada', 'Hopper', 'Blackwell']);
    expect(GPU_ARCHITECTURE_NAMES.filter((a) => GPU_ARCHITECTURES[a].fp4)).toEqual(['Blackwell']);
    for (const g of GPU_DATASHEETS) {
      expect(hasFp8(g), g.id).toBe(GPU_ARCHITECTURES[g.architecture].fp8);
      expect(g.tflops.fp4 !== undefined && g.tflops.fp4 !== null, g.id).toBe(GPU_ARCHITECTURES[g.architecture].fp4);
    }
  });
});
