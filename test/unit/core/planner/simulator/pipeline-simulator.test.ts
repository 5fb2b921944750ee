import { describe, expect, it } from 'vitest';
import { pipelineSearch } from '../../../../../src-main/core/planner/search/pipeline-search.js';
import { hybridSpace } from '../../../../../src-main/core/planner/search/group-space.js';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import {
  simStagesOfPlan,
  simulatePipeline,
  type SimStage,
} from '../../../../../src-main/core/planner/simulator/pipeline-simulator.js';
import type { Schedule } from '../../../../../src-main/core/planner/types.js';
import { seededRandom } from '../../../../../src-main/core/random.js';
import { randomProblem } from '../random-problem.js';
import { closedFormStepUs, pipelineLowerBoundUs } from '../reference/pipeline-bounds.js';

const equal = (p: number, f: number, b: number, send = 0): SimStage[] =>
  Array.from({ length: p }, (_, i) => ({ device: `d${i}`, forwardUs: f, backwardUs: b, sendUs: send }));

function randomStages(r: () => number, p: number, sends: boolean): SimStage[] {
  return Array.from({ length: p }, (_, i) => ({
    device: `d${i}`,
    forwardUs: 1 + r() * 10,
    backwardUs: 1 + r() * 20,
    sendUs: sends ? r() * 8 : 0,
  }));
}

describe('pipeline simulator against the closed form', () => {
  it('GPipe forward-only, equal stages: (m + p − 1)·t', () => {
    for (const [p, m] of [
      [1, 1],
      [3, 4],
      [4, 8],
      [5, 2],
    ] as const) {
      const r = simulatePipeline(equal(p, 7, 0), { microbatches: m, schedule: 'gpipe', mode: 'inference' });
      expect(r.stepUs).toBeCloseTo((m + p - 1) * 7, 9);
    }
  });

  it('training, equal stages, GPipe and 1F1B: (m + p − 1)·(f + b)', () => {
    for (const schedule of ['gpipe', '1f1b'] as Schedule[]) {
      for (const [p, m] of [
        [2, 4],
        [4, 4],
        [4, 16],
        [3, 1],
      ] as const) {
        const r = simulatePipeline(equal(p, 3, 6), { microbatches: m, schedule, mode: 'training' });
        expect(r.stepUs).toBeCloseTo((m + p - 1) * 9, 9);
      }
    }
  });

  it('inference with transfers: exactly the closed form (a flow shop)', () => {
    const r = seededRandom(11);
    for (let i = 0; i < 100; i++) {
      const stages = randomStages(r, 1 + Math.floor(r() * 5), true);
      const m = 1 + Math.floor(r() * 10);
      const sim = simulatePipeline(stages, { microbatches: m, schedule: '1f1b', mode: 'inference' });
      expect(sim.stepUs).toBeCloseTo(closedFormStepUs(stages, m, 'inference'), 9);
    }
  });

  it('GPipe training: Σ(f + b) + 2Σc + (m − 1)(max(f, c) + max(b, c)), never below the closed form', () => {
    const r = seededRandom(12);
    for (let i = 0; i < 100; i++) {
      const p = 1 + Math.floor(r() * 5);
      const stages = randomStages(r, p, true);
      const m = 1 + Math.floor(r() * 10);
      const sim = simulatePipeline(stages, { microbatches: m, schedule: 'gpipe', mode: 'training' });
      const c = stages.slice(0, -1).map((s) => s.sendUs);
      const f = Math.max(...stages.map((s) => s.forwardUs), ...c);
      const b = Math.max(...stages.map((s) => s.backwardUs), ...c);
      const sum = stages.reduce((a, s) => a + s.forwardUs + s.backwardUs, 0) + 2 * c.reduce((a, x) => a + x, 0);
      expect(sim.stepUs).toBeCloseTo(sum + (m - 1) * (f + b), 9);
      expect(sim.stepUs).toBeGreaterThanOrEqual(closedFormStepUs(stages, m, 'training') - 1e-9);
    }
  });

  it('never undercuts the lower bound (random stages, both schedules, both modes)', () => {
    const r = seededRandom(13);
    for (let i = 0; i < 300; i++) {
      const stages = randomStages(r, 1 + Math.floor(r() * 6), r() < 0.7);
      const m = 1 + Math.floor(r() * 12);
      const schedule: Schedule = r() < 0.5 ? 'gpipe' : '1f1b';
      const mode = r() < 0.7 ? 'training' : 'inference';
      const sim = simulatePipeline(stages, { microbatches: m, schedule, mode });
      expect(sim.stepUs).toBeGreaterThanOrEqual(pipelineLowerBoundUs(stages, m, mode) - 1e-9);
    }
  });

  it('1F1B keeps at most p − i microbatches in flight on stage i (the memory model), GPipe all m', () => {
    const r = seededRandom(14);
    for (const schedule of ['1f1b', 'gpipe'] as Schedule[]) {
      for (let i = 0; i < 30; i++) {
        const p = 1 + Math.floor(r() * 5);
        const m = 1 + Math.floor(r() * 10);
        const { timeline } = simulatePipeline(randomStages(r, p, true), {
          microbatches: m,
          schedule,
          mode: 'training',
        });
        for (let s = 0; s < p; s++) {
          const ops = timeline.filter((e) => e.stage === s && e.phase !== 'send').sort((a, b) => a.startUs - b.startUs);
          let inFlight = 0;
          let most = 0;
          for (const e of ops) {
            if (e.phase === 'forward') most = Math.max(most, ++inFlight);
            if (e.phase === 'backward') inFlight--;
          }
          expect(most).toBe(schedule === '1f1b' ? Math.min(p - s, m) : m);
        }
      }
    }
  });

  it('gives a timeline a Gantt chart can draw: one operation at a time per stage and link', () => {
    const stages = equal(3, 2, 4, 1);
    const { timeline, stepUs } = simulatePipeline(stages, { microbatches: 4, schedule: '1f1b', mode: 'training' });
    expect(timeline.filter((e) => e.phase === 'forward')).toHaveLength(12);
    expect(timeline.filter((e) => e.phase === 'backward')).toHaveLength(12);
    expect(timeline.filter((e) => e.phase === 'send')).toHaveLength(2 * 2 * 4);
    const lanes = new Map<string, { startUs: number; endUs: number }[]>();
    for (const e of timeline) {
      const lane = e.phase === 'send' ? `send${e.stage}${e.direction}` : `stage${e.stage}`;
      lanes.set(lane, [...(lanes.get(lane) ?? []), e]);
    }
    for (const events of lanes.values()) {
      events.sort((a, b) => a.startUs - b.startUs);
      events.slice(1).forEach((e, i) => expect(e.startUs).toBeGreaterThanOrEqual((events[i]?.endUs ?? 0) - 1e-12));
    }
    expect(Math.max(...timeline.map((e) => e.endUs))).toBe(stepUs);
  });

  it('runs the all-reduce after the stage’s last backward, overlapping the drain', () => {
    const stages = equal(2, 1, 2).map((s, i) => ({ ...s, allReduceUs: i === 1 ? 5 : 0 }));
    const sim = simulatePipeline(stages, { microbatches: 2, schedule: '1f1b', mode: 'training' });
    const ar = sim.timeline.find((e) => e.phase === 'allreduce');
    expect(ar?.stage).toBe(1);
    expect(sim.stepUs).toBeLessThanOrEqual(closedFormStepUs(stages, 2, 'training'));
  });

  it('prices planner plans as cost/plan-cost.ts does', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const ctx = plannerContext(randomProblem(seed, { twins: true, memoryShare: [0.5, 2] }));
      const plan = pipelineSearch(ctx, { space: hybridSpace(ctx.problem) }).best;
      if (!plan) continue;
      const stages = simStagesOfPlan(ctx, plan);
      expect(closedFormStepUs(stages, plan.microbatches, ctx.problem.mode)).toBeCloseTo(plan.stepUs, 6);
      const sim = simulatePipeline(stages, {
        microbatches: plan.microbatches,
        schedule: plan.schedule,
        mode: ctx.problem.mode,
      });
      expect(sim.stepUs).toBeGreaterThanOrEqual(
        pipelineLowerBoundUs(stages, plan.microbatches, ctx.problem.mode) - 1e-6,
      );
    }
  });
});
