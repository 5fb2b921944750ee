/** The published-figures table (bench/published): its size, spread and split, and that every cell is priced or says why not. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTable } from '../../../bench/published/cells.js';
import { predictCell } from '../../../bench/published/predict-cell.js';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';

const table = loadTable(path.join('bench', 'published'));

describe('the published table', () => {
  it('holds at least 80 cells from 6 sources on 8 GPU types, every cell valid and tied to a source with a set', () => {
    expect(table.invalid).toEqual([]);
    expect(table.cells.length).toBeGreaterThanOrEqual(80);
    expect(new Set(table.cells.map((c) => c.source)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(table.cells.map((c) => c.gpu)).size).toBeGreaterThanOrEqual(8);
    for (const s of table.sources.values()) expect(s.commit ?? s.paper).toBeTruthy();
  });

  it('calibrates only on the sources the issue names', () => {
    const calibration = [...table.sources.values()].filter((s) => s.set === 'calibration');
    const named = /NeMo|Megatron-Bridge|Narayanan|MLPerf|mlcommons|vLLM|nccl-tests|MAMF|matmul|GEMM/i;
    for (const s of calibration) expect(`${s.title} ${s.repo ?? ''} ${s.paper ?? ''}`).toMatch(named);
  });

  it('prices a cell of each kind or names why it cannot', () => {
    const db = openDatabase(':memory:');
    const kinds = ['training', 'prefill', 'decode', 'gemm', 'bandwidth', 'nccl'] as const;
    for (const kind of kinds) {
      const cells = table.cells.filter((c) => c.kind === kind).slice(0, 3);
      const results = cells.map((c) => predictCell(c, db));
      for (const r of results) {
        if ('error' in r) expect(Number.isFinite(r.predicted) && r.predicted > 0).toBe(true);
        else expect(r.notExpressible).toMatch(/\S/);
      }
      expect(results.some((r) => 'error' in r)).toBe(true);
    }
  });

  it('prices a training cell over the network its source states (config.network), slower over fewer NICs', () => {
    const db = openDatabase(':memory:');
    const bloom = table.cells.find((c) => c.id === 'bloom-176b-a100x384-tp4-pp12-dp8');
    if (!bloom) throw new Error('no BLOOM cell');
    expect(bloom.config['network']).toBe('4x100Gb-IB');
    const stated = predictCell(bloom, db);
    const { network: _stated, ...rest } = bloom.config;
    const assumed = predictCell({ ...bloom, config: rest }, db);
    if (!('error' in stated) || !('error' in assumed)) throw new Error('BLOOM not priced');
    expect(stated.detail).toContain('over 4x100Gb-IB');
    expect(assumed.detail).not.toContain(' over ');
    expect(stated.predicted).toBeLessThan(assumed.predicted);
  });
});
