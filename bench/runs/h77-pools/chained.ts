import * as ort from 'onnxruntime-node';
import { buildKernelModel } from '../../../src-main/core/kernels/build.js';
import { makeKernel } from '../../../src-main/core/kernels/cost.js';
import { makeFeeds, outputTensor } from '../../../src-main/adapters/ort/feeds.js';
const threads = Number(process.argv[2] ?? 2);
const mode = process.argv[3] ?? 'interleaved';
const specs = [
  makeKernel('Relu', 'fp32', { n: 200000 }),
  makeKernel('Add', 'fp32', { n: 100000 }),
  makeKernel('MatMul', 'fp32', { B: 1, M: 64, K: 128, N: 128 }),
  makeKernel('Softmax', 'fp32', { rows: 100, cols: 500 }),
];
const opts = {
  intraOpNumThreads: threads,
  interOpNumThreads: 1,
  graphOptimizationLevel: 'all' as const,
  executionMode: 'sequential' as const,
};
async function open(spec: ReturnType<typeof makeKernel>, chain: number) {
  const b = buildKernelModel(spec, { chain });
  const s = await ort.InferenceSession.create(b.model, opts);
  const feeds = makeFeeds(b.inputs);
  const fetches = { [b.outputName]: outputTensor(b.output) };
  return { s, run: () => s.run(feeds, fetches) };
}
const med = (a: number[]) => {
  const v = [...a].sort((x, y) => x - y);
  return v[v.length >> 1]!;
};
async function timeN(run: () => Promise<unknown>, n: number) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run();
    out.push((performance.now() - t) * 1000);
  }
  return out;
}
for (const spec of specs) {
  const labels: number[] = [];
  for (let rep = 0; rep < 8; rep++) {
    let one: number[], five: number[];
    if (mode === 'interleaved') {
      const a = await open(spec, 1),
        b = await open(spec, 5);
      for (let i = 0; i < 5; i++) {
        await a.run();
        await b.run();
      }
      one = [];
      five = [];
      for (let i = 0; i < 150; i++) {
        let t = performance.now();
        await a.run();
        one.push((performance.now() - t) * 1000);
        t = performance.now();
        await b.run();
        five.push((performance.now() - t) * 1000);
      }
      await a.s.release();
      await b.s.release();
    } else {
      const a = await open(spec, 1);
      for (let i = 0; i < 5; i++) await a.run();
      one = await timeN(a.run, 150);
      await a.s.release();
      const b = await open(spec, 5);
      for (let i = 0; i < 5; i++) await b.run();
      five = await timeN(b.run, 150);
      await b.s.release();
    }
    labels.push((med(five) - med(one)) / 4);
  }
  labels.sort((x, y) => x - y);
  console.log(`${threads}t ${mode} ${spec.id}: labels µs ${labels.map((x) => x.toFixed(1)).join(' ')}`);
}
