import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../../../src-main/api/view-models.js';
import { ganttGeometry } from '../../../../src-renderer/src/lib/gantt.js';

const ev = (e: Partial<SimEvent> & Pick<SimEvent, 'stage' | 'phase' | 'startUs' | 'endUs'>): SimEvent => ({
  device: `dev${e.stage}`,
  microbatch: 0,
  ...e,
});

describe('gantt geometry', () => {
  it('puts each stage on a row and the link between stages on a row of its own, two lanes for both directions', () => {
    const events: SimEvent[] = [
      ev({ stage: 0, phase: 'forward', microbatch: 0, startUs: 0, endUs: 10 }),
      ev({ stage: 0, phase: 'send', direction: 'forward', microbatch: 0, startUs: 10, endUs: 12 }),
      ev({ stage: 1, phase: 'forward', microbatch: 0, startUs: 12, endUs: 20 }),
      ev({ stage: 1, phase: 'backward', microbatch: 0, startUs: 20, endUs: 36 }),
      ev({ stage: 1, phase: 'send', direction: 'backward', microbatch: 0, startUs: 36, endUs: 38 }),
      ev({ stage: 0, phase: 'backward', microbatch: 0, startUs: 38, endUs: 58 }),
      ev({ stage: 0, phase: 'allreduce', microbatch: -1, startUs: 58, endUs: 61 }),
    ];
    const g = ganttGeometry(events);
    expect(g.rows.map((r) => [r.kind, r.stage, r.lanes])).toEqual([
      ['stage', 0, 1],
      ['link', 0, 2],
      ['stage', 1, 1],
    ]);
    expect(g.totalUs).toBe(61);
    expect(g.phases).toEqual(['forward', 'backward', 'send', 'allreduce']);
    const sendF = g.bars.find((b) => b.phase === 'send' && b.startUs === 10);
    const sendB = g.bars.find((b) => b.phase === 'send' && b.startUs === 36);
    expect(sendF).toMatchObject({ row: 1, lane: 0, text: '0' });
    expect(sendB).toMatchObject({ row: 1, lane: 1 });
    expect(sendB?.title).toMatch(/gradients stage 1 → 0/);
    expect(g.bars.find((b) => b.phase === 'allreduce')).toMatchObject({ row: 0, text: 'AR' });
    expect(g.bars.filter((b) => b.row === 2).map((b) => b.text)).toEqual(['F0', 'B0']);
  });

  it('gives a single-stage inference plan one row and no links', () => {
    const g = ganttGeometry([
      ev({ stage: 0, phase: 'forward', microbatch: 0, startUs: 0, endUs: 5 }),
      ev({ stage: 0, phase: 'forward', microbatch: 1, startUs: 5, endUs: 10 }),
    ]);
    expect(g.rows).toHaveLength(1);
    expect(g.rows[0]?.label).toBe('Stage 0 · dev0');
    expect(g.bars.map((b) => b.text)).toEqual(['F0', 'F1']);
  });

  it('is empty for no events', () => {
    expect(ganttGeometry([])).toEqual({ rows: [], bars: [], totalUs: 0, phases: [] });
  });
});
