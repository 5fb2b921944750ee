// An independent timing loop, in a process of its own: one ONNX model on onnxruntime-node's
// CPU EP with profiling off, the options pipeDejavu uses (all optimizations, sequential, one
// inter-op thread). Prints the median wall time of session.run in ms after warm-up.
// Usage: node bench/time-loop.mjs MODEL.onnx THREADS FEEDS.json   (FEEDS: [{name, dims, type}])
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';

const [file, threads, feedsFile] = process.argv.slice(2);
const specs = JSON.parse(readFileSync(feedsFile, 'utf8'));
const ARRAYS = { float32: Float32Array, int64: BigInt64Array, int32: Int32Array, int8: Int8Array };
const feeds = {};
let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
for (const s of specs) {
  const n = s.dims.reduce((a, b) => a * b, 1);
  const A = ARRAYS[s.type] ?? Float32Array;
  const data = new A(n);
  for (let i = 0; i < n; i++) data[i] = A === BigInt64Array ? 1n : A === Float32Array ? rand() : 1;
  feeds[s.name] = new ort.Tensor(s.type, data, s.dims);
}
const session = await ort.InferenceSession.create(file, {
  executionProviders: ['cpu'],
  intraOpNumThreads: Number(threads),
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
  logSeverityLevel: 3,
});
for (let i = 0; i < 5; i++) await session.run(feeds);
const times = [];
const t0 = performance.now();
while (times.length < 15 || (performance.now() - t0 < 2000 && times.length < 500)) {
  const t = performance.now();
  await session.run(feeds);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(times[Math.floor(times.length / 2)]);
await session.release();
