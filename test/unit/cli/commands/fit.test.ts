/** `pipedejavu fit` as a person reads it: the consumer split, the decode column, the family note. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../../helpers/cli.js';

describe('fit', () => {
  it('offers two RTX 4090s for 70B in q4_k beside an H100, with decode tokens/s in its own column', async () => {
    const db = path.join(tempDir(), 'db.sqlite');
    const r = await cli(['fit', 'llama-3.1-70b', '--gpus', 'RTX 4090,H100', '--db', db]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toContain('DECODE (FIRST FIT)');
    const q4 = lines.find((l) => l.startsWith('q4_k')) ?? '';
    expect(q4).toContain('2 x RTX 4090');
    expect(q4).toMatch(/prefill [\d.]+ ms.*\s[\d.]+ tok\/s\s*$/);
    // bf16 fits no card alone: split over the largest, or over consumer cards.
    expect(lines.find((l) => l.startsWith('bf16'))).toMatch(/2 x H100 SXM5 80GB or \d+ x RTX 4090/);
    expect(r.stdout).toContain('note: "H100" stands for NVIDIA H100 SXM5 80GB');
  });
});
