/**
 * Unfused attention (SC'21-era Megatron-LM: batched QKᵀ and AV GEMMs, the scores through memory) as
 * the datasheet predictor prices it, and when a datasheet GPU's candidate asks for it.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { getCatalogEntry } from '../../../../src-main/core/catalog/index.js';
import { virtualDevice } from '../../../../src-main/core/planner/cost/datasheets.js';
import { datasheetCandidate } from '../../../../src-main/core/planner/problem/datasheet-candidate.js';
import {
  DatasheetPredictor,
  FUSED_ATTENTION_BACKWARD,
} from '../../../../src-main/core/predictor/datasheet-predictor.js';
import { layerBackwardUs } from '../../../../src-main/core/planner/cost/training-step.js';
import { catalogWorkload } from '../../../../src-main/core/catalog/index.js';
import { predictWorkload } from '../../../../src-main/core/workload/predict-workload.js';
import type { OpQuery } from '../../../../src-main/core/predictor/types.js';
import { architectureEfficiency, KERNEL_EFFICIENCIES } from '../../../../src-main/core/predictor/kernel-efficiency.js';
import {
  SCORE_BYTES,
  unfusedAttentionBackwardUs,
  unfusedAttentionForwardUs,
} from '../../../../src-main/core/predictor/unfused-attention.js';
import { planWorkload, type PlanRequest } from '../../../../src-main/services/plan/plan-service.js';

const A100 = virtualDevice('A100 SXM4 80GB');
const ampere = architectureEfficiency('Ampere');
/** GPT-1.7B of SC'21 Table 1: 24 heads of 96, sequence 2048, one sample. */
const SHAPE = { batch: 1, heads: 24, seq: 2048, headDim: 96 };
const attention = (dtype: OpQuery['dtype'] = 'fp16'): OpQuery => ({
  op: 'Attention',
  family: 'attention',
  shape: SHAPE,
  dtype,
  flops: 4 * SHAPE.batch * SHAPE.heads * SHAPE.seq * SHAPE.seq * SHAPE.headDim,
  bytes: 4 * SHAPE.batch * SHAPE.seq * SHAPE.heads * SHAPE.headDim * 2,
  device: A100.features,
});
const us = (p: DatasheetPredictor, q: OpQuery): number => p.predict([q])[0]?.timeUs ?? NaN;

describe('unfused attention', () => {
  it('prices its two batched GEMMs and the bytes of every score', () => {
    const gemms: { B: number; M: number; N: number; K: number }[] = [];
    const bytes: number[] = [];
    const price = {
      gemmUs: (s: { B: number; M: number; N: number; K: number }) => (gemms.push(s), 10),
      bytesUs: (b: number) => (bytes.push(b), 1),
    };
    expect(unfusedAttentionForwardUs(SHAPE, false, price)).toBe(21);
    expect(gemms).toEqual([
      { B: 24, M: 2048, N: 2048, K: 96 },
      { B: 24, M: 2048, N: 96, K: 2048 },
    ]);
    const scores = 24 * 2048 * 2048;
    expect(bytes).toEqual([scores * SCORE_BYTES.softmax]);
    bytes.length = 0;
    expect(unfusedAttentionForwardUs(SHAPE, true, price)).toBe(22);
    expect(bytes).toEqual([scores * SCORE_BYTES.softmax, scores * SCORE_BYTES.dropout]);
  });

  it('costs a datasheet A100 several times the fused kernel at s = 2048, more with dropout', () => {
    const fused = us(new DatasheetPredictor(A100.datasheet, { causalAttention: true }), attention());
    const unfused = us(
      new DatasheetPredictor(A100.datasheet, { causalAttention: true, unfusedAttention: { dropout: false } }),
      attention(),
    );
    const dropped = us(
      new DatasheetPredictor(A100.datasheet, { causalAttention: true, unfusedAttention: { dropout: true } }),
      attention(),
    );
    expect(unfused / fused).toBeGreaterThan(3);
    // The dropout moves 5 bytes a score at the achieved bandwidth, plus one launch.
    const scores = 24 * 2048 * 2048;
    const bandwidth = A100.datasheet.memory.bandwidthGBps * 0.87 * 1e3;
    expect(dropped - unfused).toBeCloseTo((scores * 5) / bandwidth + 4, 0);
  });

  it('keeps the scores of an fp8 model in bf16', () => {
    const h100 = virtualDevice('H100 SXM5');
    const p = new DatasheetPredictor(h100.datasheet, { unfusedAttention: { dropout: false } });
    expect(us(p, { ...attention('fp8'), device: h100.features })).toBe(
      us(p, { ...attention('bf16'), device: h100.features }),
    );
  });

  it('is what a datasheet candidate prices only when training asks for it, with the model dropout', () => {
    const model = getCatalogEntry('gpt2-medium');
    const time = (mode: 'training' | 'inference', kernel?: 'fused' | 'unfused', dropout = false): number => {
      const entry = model.kind === 'transformer' ? { ...model, dropout } : model;
      const c = datasheetCandidate(A100, { model: entry, mode, attention: kernel }, undefined);
      return us(c.predictor as DatasheetPredictor, attention());
    };
    expect(time('training', 'unfused')).toBeGreaterThan(time('training', 'fused'));
    expect(time('training')).toBe(time('training', 'fused'));
    expect(time('inference', 'unfused')).toBe(time('inference'));
    expect(time('training', 'unfused', true)).toBeGreaterThan(time('training', 'unfused', false));
  });

  it('makes a training step of a layout on datasheet A100s slower through plan --attention unfused', () => {
    const db = openDatabase(':memory:');
    const req: PlanRequest = {
      workload: 'gpt2-medium',
      devices: 'none',
      virtual: ['8xA100 SXM4 80GB'],
      mode: 'training',
      batch: 64,
      seq: 1024,
      dtype: 'bf16',
      offload: 'no',
      layout: 'tp=1,pp=1,dp=8,zero=1,recompute=none,mb=1',
      search: false,
    };
    const step = (attention?: 'fused' | 'unfused'): number =>
      planWorkload(db, { ...req, ...(attention ? { attention } : {}) }).layout?.stepUs ?? NaN;
    expect(step()).toBe(step('fused'));
    expect(step('unfused')).toBeGreaterThan(step('fused') * 1.05);
  });

  it("prices unfused attention's backward by its own four GEMMs and 11 bytes a score (16 with dropout)", () => {
    const gemms: number[] = [];
    const bytes: number[] = [];
    const price = {
      gemmUs: (x: { B: number; M: number; N: number; K: number }) => (gemms.push(x.N), 10),
      bytesUs: (b: number) => (bytes.push(b), 1),
    };
    const scores = 24 * 2048 * 2048;
    expect(unfusedAttentionBackwardUs(SHAPE, false, price)).toBe(41);
    expect(bytes).toEqual([scores * 6]);
    bytes.length = 0;
    expect(unfusedAttentionBackwardUs(SHAPE, true, price)).toBe(42);
    expect(bytes).toEqual([scores * 6, scores * 5]);
  });

  it("gives fused attention's backward in training only: 2.5x its FLOPs at 63/73 of the forward's rate", () => {
    const q = attention('bf16');
    const plain = new DatasheetPredictor(A100.datasheet, { causalAttention: true }).predict([q])[0];
    expect(plain?.backwardUs).toBeUndefined();
    const table = { ...KERNEL_EFFICIENCIES, architectures: { Ampere: { ...ampere, training: 1 } } };
    const trained = new DatasheetPredictor(A100.datasheet, { causalAttention: true, training: true, table });
    const p = trained.predict([q])[0];
    const launch = ampere.kernelUs;
    const ratio = FUSED_ATTENTION_BACKWARD.flops / FUSED_ATTENTION_BACKWARD.rate;
    expect(((p?.backwardUs ?? 0) - launch) / ((p?.timeUs ?? 0) - launch)).toBeCloseTo(ratio, 6);
  });

  it("puts a kernel's own backward in its layer's in place of twice its forward", () => {
    const w = catalogWorkload('gpt2-small', { batch: 1, seq: 1024 });
    const p = predictWorkload(
      w,
      new DatasheetPredictor(A100.datasheet, { causalAttention: true, training: true }),
      A100.features,
      'inference',
    );
    const layer = w.layers.find((l) => l.nodes.some((k) => p.nodes[k]?.opType === 'Attention'));
    if (!layer) throw new Error('no attention layer');
    const node = p.nodes[layer.nodes.find((k) => p.nodes[k]?.opType === 'Attention') ?? -1];
    const forward = p.layers[layer.index]?.timeUs ?? 0;
    expect(node?.backwardUs).toBeGreaterThan(2 * (node?.timeUs ?? 0));
    expect(layerBackwardUs(w, layer, p)).toBeCloseTo(
      2 * forward - 2 * (node?.timeUs ?? 0) + (node?.backwardUs ?? 0),
      6,
    );
  });
});
