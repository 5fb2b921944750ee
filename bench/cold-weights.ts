/**
 * Weights in cache or from memory (issue 62, core/workload/cold-weights.ts): chains of products
 * over distinct fp32 weights, timed interleaved in one process on ONNX Runtime's CPU EP, from Node:
 * - warm: one product, and two over distinct weights (8 MiB at most together), which a run finds in cache;
 * - cold: 128 MiB of them (at most 128), so an LRU last-level cache keeps none for the next run;
 * - gemv: the cold chain at one row, whose time is the read (the profile's streaming chains).
 * A run timed from Node carries a fixed cost (the binding, the run's own): the one- and two-product
 * chains give it (2 t1 - t2) and the warm product (t2 - t1); the cold product is the cold chain less
 * that cost, over its products. Until 2026-11-30 (stop 79) the per-product figures kept the fixed cost, which
 * a 2-product chain carries 16-64 times as much of as a cold one, and hid the read (bench/runs/h79-cold-pack.md).
 * Prints cold less warm against the read.
 * Run: npm run bench:cold-weights -- THREADS [ROWS,..] [D,..]
 */
import os from 'node:os';
import * as ort from 'onnxruntime-node';
import { buildKernelModel } from '../src-main/core/kernels/build.js';
import { makeKernel } from '../src-main/core/kernels/cost.js';
const ROUNDS = Number(process.env['ROUNDS'] ?? 15);
const threads = Number(process.argv[2] ?? 1);
const Ms = (process.argv[3] ?? '32,128').split(',').map(Number);
const Ds = (process.argv[4] ?? '512,1024,1536,2048').split(',').map(Number);
const opts = {
  intraOpNumThreads: threads,
  interOpNumThreads: 1,
  executionMode: 'sequential' as const,
  graphOptimizationLevel: 'all' as const,
};
interface T {
  label: string;
  bytes: number;
  s: ort.InferenceSession;
  f: Record<string, ort.Tensor>;
  us: number[];
}
const timed: T[] = [];
const add = async (label: string, M: number, d: number, distinct: number) => {
  const spec = makeKernel('MatMul', 'fp32', { B: 1, M, N: d, K: d, ...(distinct > 1 ? { distinct } : {}) });
  const A = new ort.Tensor('float32', new Float32Array(M * d).fill(0.01), [M, d]);
  timed.push({
    label,
    bytes: d * d * 4,
    s: await ort.InferenceSession.create(buildKernelModel(spec).model, opts),
    f: { A },
    us: [],
  });
};
for (const d of Ds) {
  const n = Math.min(128, Math.ceil((128 * 2 ** 20) / (d * d * 4)));
  await add(`gemv d${d} cold x${n}`, 1, d, n);
  for (const M of Ms) {
    await add(`M${M} d${d} warm x1`, M, d, 1);
    await add(`M${M} d${d} warm x2`, M, d, 2);
    await add(`M${M} d${d} cold x${n}`, M, d, n);
  }
}
for (let r = 0; r < ROUNDS + 2; r++)
  for (const t of timed) {
    const t0 = performance.now();
    await t.s.run(t.f);
    if (r >= 2) t.us.push((performance.now() - t0) * 1000);
  }
const med = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)]!;
console.log(
  `threads ${threads}, ${ROUNDS} rounds, load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(',')}`,
);
/** Median µs a run, by label. */
const by = new Map(timed.map((t) => [t.label, med(t.us)]));
for (const d of Ds) {
  const n = Math.min(128, Math.ceil((128 * 2 ** 20) / (d * d * 4)));
  const gemv = by.get(`gemv d${d} cold x${n}`)! / n;
  const gbps = (d * d * 4) / (gemv * 1e3);
  const line = [
    `d${d} (${((d * d * 4) / 2 ** 20).toFixed(1)} MiB): gemv ${gemv.toFixed(0)} us = ${gbps.toFixed(1)} GB/s`,
  ];
  for (const M of Ms) {
    const [t1, t2] = [by.get(`M${M} d${d} warm x1`)!, by.get(`M${M} d${d} warm x2`)!];
    const fixed = 2 * t1 - t2;
    const w = t2 - t1;
    const c = (by.get(`M${M} d${d} cold x${n}`)! - fixed) / n;
    line.push(
      `M${M}: run's fixed cost ${fixed.toFixed(0)}, warm ${w.toFixed(0)} cold ${c.toFixed(0)} extra ${(c - w).toFixed(0)} (read ${gemv.toFixed(0)}; extra/read ${((c - w) / gemv).toFixed(2)})`,
    );
  }
  console.log(line.join(' | '));
}
