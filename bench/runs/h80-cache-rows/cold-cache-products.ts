/**
 * bench/runs/h80-cache-rows.md: products over a cache operand in cache and from memory, interleaved in
 * one process. Each model is D products of a query (scaled by its own constant, so no two products
 * are shared) times a cache operand, summed: over one cache ("hot") or D distinct ones ("cold").
 * Run: npx esbuild bench/runs/h80-cache-rows/cold-cache-products.ts --bundle --platform=node
 *   --format=esm --packages=external --outfile=.tmp/ccp.mjs && node .tmp/ccp.mjs THREADS D ['M1 K512 N512 2;...']
 * (a case: rows, inner, outer, and 2 for a 2-D constant or 4 for a [1,1,K,N] one).
 */
import * as ort from 'onnxruntime-node';
import { GraphBuilder } from '../../../src-main/core/profiler/calibration-models.js';
import { encodeModel, OnnxDataType } from '../../../src-main/core/onnx/model-builder.js';

const F = OnnxDataType.FLOAT;
function build(M: number, K: number, N: number, D: number, distinct: boolean, rank: 2 | 4) {
  const g = new GraphBuilder();
  const qd = rank === 4 ? [1, 1, M, K] : [M, K];
  const bd = rank === 4 ? [1, 1, K, N] : [K, N];
  const od = rank === 4 ? [1, 1, M, N] : [M, N];
  let acc = '';
  const shared = g.random('B', bd, 1);
  for (let i = 0; i < D; i++) {
    const b = distinct ? g.random(`B${i}`, bd, 1) : shared;
    const qi = g.op('Mul', ['q', g.floats(`c${i}`, [1 + i / 1000], [])], `q${i}`);
    const s = g.op('MatMul', [qi, b], `s${i}`);
    acc = acc ? g.op('Add', [acc, s], `a${i}`) : s;
  }
  return encodeModel({
    graph: {
      name: 'm',
      nodes: g.nodes,
      inputs: [{ name: 'q', elemType: F, dims: qd }],
      outputs: [{ name: acc, elemType: F, dims: od }],
      initializers: g.inits,
    },
  });
}
const threads = Number(process.argv[2] ?? 1);
const D = Number(process.argv[3] ?? 64);
const cases: [string, number, number, number, 2 | 4][] = (
  process.argv[4] ??
  'M1 K512 N512 2;M1 K512 N512 4;M1 K64 N2200 4;M1 K64 N2200 2;M1 K2200 N64 4;M7 K64 N2200 4;M7 K64 N2200 2'
)
  .split(';')
  .map((c) => {
    const [m, k, n, r] = c.split(' ');
    return [c, Number(m!.slice(1)), Number(k!.slice(1)), Number(n!.slice(1)), Number(r) as 2 | 4];
  });
const sess: Record<
  string,
  { hot: ort.InferenceSession; cold: ort.InferenceSession; feed: Record<string, ort.Tensor> }
> = {};
const opts = { intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential' as const };
for (const [name, M, K, N, r] of cases) {
  const qd = r === 4 ? [1, 1, M, K] : [M, K];
  const feed = { q: new ort.Tensor('float32', new Float32Array(M * K).fill(0.01), qd) };
  sess[name] = {
    hot: await ort.InferenceSession.create(build(M, K, N, D, false, r), opts),
    cold: await ort.InferenceSession.create(build(M, K, N, D, true, r), opts),
    feed,
  };
}
const med = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)]!;
};
const res: Record<string, { hot: number[]; cold: number[] }> = {};
for (let round = 0; round < 7; round++) {
  for (const [name] of cases) {
    const s = sess[name]!;
    for (const which of ['hot', 'cold'] as const) {
      const t: number[] = [];
      for (let i = 0; i < 3; i++) await s[which].run(s.feed);
      for (let i = 0; i < 15; i++) {
        const t0 = performance.now();
        await s[which].run(s.feed);
        t.push(performance.now() - t0);
      }
      (res[name] ??= { hot: [], cold: [] })[which].push(med(t));
    }
  }
}
for (const [name, , K, N] of cases) {
  const r = res[name]!;
  const hot = (med(r.hot) * 1000) / D,
    cold = (med(r.cold) * 1000) / D;
  const readUs = (K * N * 4) / 20e3;
  console.log(
    `${threads}t ${name.padEnd(24)} hot ${hot.toFixed(1)} µs/product, cold ${cold.toFixed(1)}, extra ${(cold - hot).toFixed(1)} = ${((cold - hot) / readUs).toFixed(2)} x read@20GB/s (${readUs.toFixed(1)} µs)`,
  );
}
