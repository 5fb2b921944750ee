/** Published training cells that trained LoRA adapters (config.adapter): read as `plan --mode finetune` and priced so. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTable, type Cell } from '../../../bench/published/cells.js';
import { finetuneOf } from '../../../bench/published/finetune-cell.js';
import { predictCell } from '../../../bench/published/predict-cell.js';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';

const table = loadTable(path.join('bench', 'published'));
const mlperf = table.cells.find((c) => c.id === 'mlperf-v40-juniper-llama2-70b-lora-a100x64');

const withConfig = (c: Cell, config: Cell['config']): Cell => ({ ...c, config });

describe('a LoRA cell of the published table', () => {
  it('is the MLPerf Training v4.0 A100 cell, in the calibration set', () => {
    expect(mlperf?.config['adapter']).toBe('lora');
    expect(table.sources.get(mlperf?.source ?? '')?.set).toBe('calibration');
  });

  it('reads its adapter, rank, alpha, targets and tool; a cell without config.adapter trains every weight', () => {
    const c = mlperf as Cell;
    expect(finetuneOf(c)).toEqual({
      finetune: { adapter: 'lora', stack: 'peft', rank: 16, alpha: 32, targets: ['q', 'k', 'v', 'o'] },
    });
    const { adapter: _a, rank: _r, alpha: _al, targets: _t, finetuneStack: _s, ...full } = c.config;
    expect(finetuneOf(withConfig(c, full))).toEqual({});
  });

  it('names what it cannot plan: an adapter kind, a target, a missing rank, a tool', () => {
    const c = mlperf as Cell;
    expect(finetuneOf(withConfig(c, { ...c.config, adapter: 'dora' }))).toBe('adapter dora');
    expect(finetuneOf(withConfig(c, { ...c.config, targets: 'qkv_proj,o' }))).toBe('LoRA target "qkv_proj"');
    const { rank: _r, ...noRank } = c.config;
    expect(finetuneOf(withConfig(c, noRank))).toBe('the source states no LoRA rank');
    expect(finetuneOf(withConfig(c, { ...c.config, finetuneStack: 'axolotl' }))).toBe('fine-tuning stack axolotl');
    expect(predictCell(withConfig(c, { ...c.config, adapter: 'dora' }), openDatabase(':memory:'))).toEqual({
      id: c.id,
      notExpressible: 'adapter dora',
    });
  });

  it('is priced as a fine-tuning plan: faster than the same layout training every weight', () => {
    const db = openDatabase(':memory:');
    const c = mlperf as Cell;
    const lora = predictCell(c, db);
    const { adapter: _a, rank: _r, alpha: _al, targets: _t, finetuneStack: _s, ...full } = c.config;
    const everyWeight = predictCell(withConfig(c, full), db);
    if (!('predicted' in lora) || !('predicted' in everyWeight)) throw new Error('not priced');
    expect(lora.detail).toMatch(/^lora r16: tp=1,pp=1,dp=64,zero=3,recompute=full,mb=1 over 2x200GbE;/);
    expect(lora.memory?.fits).toBe(true);
    expect(lora.predicted).toBeGreaterThan(everyWeight.predicted);
  });
});
