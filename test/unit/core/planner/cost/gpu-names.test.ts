/** GPU names as a person types them: fuzzy, with counts, and refusals that name the closest GPUs. */
import { describe, expect, it } from 'vitest';
import {
  MAX_VIRTUAL_CLUSTER_GPUS,
  MAX_VIRTUAL_GPUS,
  parseVirtualGpus,
  resolveGpuName,
  resolveGpuNameWithNote,
} from '../../../../../src-main/core/planner/cost/datasheets.js';
import { UserError } from '../../../../../src-main/core/errors.js';

const idOf = (text: string): string => resolveGpuName(text).id;

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('GPU names a person types', () => {
  it('ignores case, spaces, punctuation and vendor prefixes', () => {
    expect(idOf('4090')).toBe('rtx-4090');
    expect(idOf('rtx4090')).toBe('rtx-4090');
    expect(idOf('GeForce RTX 4090')).toBe('rtx-4090');
    expect(idOf('h100 sxm5')).toBe('h100-sxm5-80gb');
    expect(idOf('H100SXM5')).toBe('h100-sxm5-80gb');
    expect(idOf('h100-pcie')).toBe('h100-pcie-80gb');
    expect(idOf('h200')).toBe('h200-sxm-141gb');
    expect(idOf('l40s')).toBe('l40s');
    expect(idOf('T4')).toBe('t4');
    expect(idOf('NVIDIA H100 80GB HBM3')).toBe('h100-sxm5-80gb');
    // The card the new user typed, now in the catalog.
    expect(idOf('RTX 3060')).toBe('rtx-3060');
    expect(idOf('3060')).toBe('rtx-3060');
  });

  it('reads a family name as its SXM part with the most memory, and says so in one line', () => {
    const h100 = resolveGpuNameWithNote('h100');
    expect(h100.datasheet.id).toBe('h100-sxm5-80gb');
    expect(h100.note).toBe(
      '"h100" stands for NVIDIA H100 SXM5 80GB (of 2 that match: SXM before PCIe, then the most memory); name "NVIDIA H100 PCIe 80GB" for another',
    );
    expect(h100.note).not.toMatch(/\n/);
    const a100 = resolveGpuNameWithNote('A100');
    expect(a100.datasheet.id).toBe('a100-sxm4-80gb');
    expect(a100.note).toMatch(/^"A100" stands for NVIDIA A100 SXM4 80GB \(of 4 that match/);
    // The rule within what the typed words leave: PCIe parts alone, the most memory; 40 GB parts alone, the SXM.
    expect(idOf('a100 pcie')).toBe('a100-pcie-80gb');
    expect(idOf('a100 40gb')).toBe('a100-sxm4-40gb');
    expect(idOf('V100')).toBe('v100-sxm2-32gb');
    // A name that names one GPU carries no note.
    expect(resolveGpuNameWithNote('h100 pcie').note).toBeNull();
    expect(resolveGpuNameWithNote('4090').note).toBeNull();
  });

  it('reads counts with a family name (4xH100) and carries its note', () => {
    const [g] = parseVirtualGpus(['4xH100']);
    expect([g?.datasheet.id, g?.count]).toEqual(['h100-sxm5-80gb', 4]);
    expect(g?.note).toMatch(/^"H100" stands for NVIDIA H100 SXM5 80GB/);
    expect(parseVirtualGpus(['2x4090'])[0]?.note).toBeNull();
  });

  it('refuses a name several unrelated GPUs share, with the closest names', () => {
    const m = refusal(() => resolveGpuName('6000'));
    expect(m).toMatch(/several datasheet GPUs match "6000"/);
    expect(m).toMatch(/RTX 6000 Ada Generation/);
    expect(m).toMatch(/RTX PRO 6000 Blackwell/);
    expect(m).toMatch(/RTX A6000/);
    expect(m).toMatch(/see `pipedejavu gpus`/);
    const many = refusal(() => resolveGpuName('40'));
    // Three names, no more.
    expect(many.split('did you mean')[1]?.split(/, | or /)).toHaveLength(3);
    expect(refusal(() => resolveGpuName('80gb'))).toMatch(/several/);
  });

  it('refuses an unknown name with the three closest', () => {
    const m = refusal(() => resolveGpuName('RTX 3050'));
    expect(m).toMatch(/no datasheet for GPU "RTX 3050"/);
    expect(m).toMatch(/\(see `pipedejavu gpus`\)$/);
    expect(m).toMatch(/did you mean "NVIDIA GeForce RTX 30[6-9]0", "NVIDIA GeForce RTX 30[6-9]0"/);
    expect(m.split('did you mean')[1]?.split(/, | or /)).toHaveLength(3);
  });

  it('reads counts: 8xH100 SXM5, 8x h100 sxm5, 2 x 4090, and names repeated', () => {
    const a = parseVirtualGpus(['8xH100 SXM5', '2xRTX 4090']);
    expect(a.map((g) => [g.datasheet.id, g.count])).toEqual([
      ['h100-sxm5-80gb', 8],
      ['rtx-4090', 2],
    ]);
    expect(parseVirtualGpus(['8x h100 sxm5']).map((g) => g.count)).toEqual([8]);
    expect(parseVirtualGpus(['2 x 4090']).map((g) => [g.datasheet.id, g.count])).toEqual([['rtx-4090', 2]]);
    expect(parseVirtualGpus(['RTX 4090', 'RTX 4090']).map((g) => g.count)).toEqual([1, 1]);
  });

  it('caps the number of GPUs with a clear message', () => {
    expect(MAX_VIRTUAL_GPUS).toBe(256);
    const m = refusal(() => parseVirtualGpus(['200xH100 SXM5', '100x4090']));
    expect(m).toMatch(/300 datasheet GPUs/);
    expect(m).toMatch(/at most 256/);
    expect(refusal(() => parseVirtualGpus(['0x4090']))).toMatch(/count/);
  });

  it('takes up to 16,384 GPUs of one kind in whole nodes of 8, and refuses more in one line', () => {
    expect(MAX_VIRTUAL_CLUSTER_GPUS).toBe(16_384);
    expect(parseVirtualGpus(['16384xH100 SXM5']).map((g) => g.count)).toEqual([16_384]);
    expect(parseVirtualGpus(['1024xH100 SXM5', '1024x h100 sxm5']).map((g) => g.count)).toEqual([1024, 1024]);
    expect(refusal(() => parseVirtualGpus(['16392xH100 SXM5']))).toMatch(
      /16392 datasheet GPUs; a plan takes at most 256, or up to 16384 of one kind in whole nodes of 8/,
    );
    expect(refusal(() => parseVirtualGpus(['1000000000000xH100 SXM5']))).toMatch(/up to 16384 of one kind/);
    expect(refusal(() => parseVirtualGpus(['300xH100 SXM5']))).toMatch(/whole nodes of 8/);
    expect(refusal(() => parseVirtualGpus(['1024xH100 SXM5', '8x4090']))).toMatch(/1032 datasheet GPUs of 2 kinds/);
  });
  it('refuses an entry too long to be a name, and too many entries, before matching any', () => {
    expect(() => parseVirtualGpus(['4090'.repeat(1_000_000)])).toThrow(/characters is no GPU name \(at most 100\)/);
    expect(() => parseVirtualGpus(Array.from({ length: 100_000 }, () => 'bogus'))).toThrow(
      /names 100000 entries; a plan takes at most 256 GPUs/,
    );
  });
});
