/**
 * A training cell's step broken into its parts (issue 59): what the datasheet predictor prices per
 * token forward (GEMMs, fused attention, memory-bound kernels, launches), the step's compute as
 * the planner takes it (forward + 2x backward, recomputation, the training share), and what is
 * left of the priced step (communication exposed, pipeline bubble). Run:
 *   npm run bench:training-parts -- [ID-SUBSTRING ...]
 * Pure arithmetic (no GPU, no timing).
 */
import path from 'node:path';
import { loadTable, type Cell } from './published/cells.js';
import { predictCell } from './published/predict-cell.js';
import { DatasheetPredictor } from '../src-main/core/predictor/datasheet-predictor.js';
import { architectureEfficiency } from '../src-main/core/predictor/kernel-efficiency.js';
import type { OpQuery, Prediction } from '../src-main/core/predictor/types.js';
import { openDatabase } from '../src-main/adapters/store/open-database.js';

type Part = 'gemm' | 'attention' | 'memory' | 'launch';
interface Seen {
  parts: Record<Part, number>;
  /** Attention's forward (launches included) and its backward as priced (twice the forward unless priced apart). */
  attentionForward: number;
  attentionBackward: number;
  share: number;
  tokens: number;
  gemmFlops: number;
}

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const table = loadTable(path.join('bench', 'published'));
const cells = table.cells.filter(
  (c) => c.kind === 'training' && (wanted.length === 0 || wanted.some((w) => c.id.includes(w))),
);

// The first workload prediction of a plan is the whole model's forward at the workload's batch.
let seen: Seen | null = null;
const original = DatasheetPredictor.prototype.predict;
DatasheetPredictor.prototype.predict = function (this: DatasheetPredictor, qs: readonly OpQuery[]): Prediction[] {
  const out = original.call(this, qs);
  if (seen !== null || qs.length < 8) return out;
  const arch = architectureEfficiency(this.datasheet.architecture);
  const share = (this as unknown as { opts: { training?: boolean } }).opts.training ? (arch.training ?? 1) : 1;
  const parts: Record<Part, number> = { gemm: 0, attention: 0, memory: 0, launch: 0 };
  let tokens = 0;
  let gemmFlops = 0;
  let attentionForward = 0;
  let attentionBackward = 0;
  qs.forEach((q, i) => {
    const us = (out[i]?.timeUs ?? 0) * share;
    if (q.op === 'Attention') {
      attentionForward += us;
      attentionBackward += (out[i]?.backwardUs ?? 2 * (out[i]?.timeUs ?? 0)) * share;
    }
    const body = Math.max(0, us - arch.kernelUs);
    parts.launch += us - body;
    if (q.op === 'MatMul' || q.op === 'Gemm') {
      parts.gemm += body;
      gemmFlops += q.flops;
      tokens = Math.max(tokens, (q.shape['B'] ?? 1) * (q.shape['M'] ?? 1));
    } else if (q.op === 'Attention') parts.attention += body;
    else parts.memory += body;
  });
  seen = { parts, attentionForward, attentionBackward, share, tokens, gemmFlops };
  return out;
};

const db = openDatabase(':memory:');
const ms = (us: number): string => (us / 1e3).toFixed(0).padStart(7);
console.log(
  'cell | GPU | error | step s | forward per GPU per step, ms: gemm attn mem launch | attn backward | compute (fwd + bwd, + recompute) | training share adds | rest (comm, bubble) | GEMM TFLOP/s in gemm part',
);
for (const c of cells) {
  seen = null;
  const r = predictCell(c, db);
  if (!('error' in r) || seen === null) {
    console.log(`${c.id} | not priced: ${'notExpressible' in r ? r.notExpressible : 'no prediction'}`);
    continue;
  }
  const s: Seen = seen;
  const step = Number(/step ([\d.]+) s/.exec(r.detail)?.[1] ?? NaN) * 1e6;
  const seq = Number(c.config['seq']);
  const gpus = c.gpus;
  // Tokens one GPU's replica carries forward a step, per model copy, split over tp x pp.
  const perGpuTokens = (Number(c.config['globalBatch']) * seq) / gpus;
  // The workload's forward is the whole model's at its batch: one GPU does 1 / (tp x pp) of its replica's tokens' work.
  const scale = perGpuTokens / Math.max(1, s.tokens);
  const fwd = (p: Part): number => s.parts[p] * scale;
  const forward = fwd('gemm') + fwd('attention') + fwd('memory') + fwd('launch');
  const recompute = String(c.config['recompute'] ?? 'none');
  const again = recompute === 'full' ? 1 : 0;
  // Backward: twice the forward, but attention's own where it is priced apart.
  const compute = forward * (3 + again) + (s.attentionBackward - 2 * s.attentionForward) * scale;
  const scalarAdds = compute * (1 / s.share - 1);
  const rest = step - compute / s.share;
  const tflops = (s.gemmFlops / s.parts.gemm) * 1e-6;
  console.log(
    `${c.id} | ${c.gpu} ${tpTxt(c)} | ${(r.error * 100).toFixed(1)}% | ${(step / 1e6).toFixed(2)} | ${ms(fwd('gemm'))} ${ms(fwd('attention'))} ${ms(fwd('memory'))} ${ms(fwd('launch'))} | ${ms(s.attentionBackward * scale)} | ${ms(compute)} | ${ms(scalarAdds)} | ${ms(rest)} | ${tflops.toFixed(0)}`,
  );
}

function tpTxt(c: Cell): string {
  return `tp${String(c.config['tp'] ?? 1)} pp${String(c.config['pp'] ?? 1)} ${String(c.config['dtype'] ?? '')} ${String(c.config['recompute'] ?? '')}`;
}
