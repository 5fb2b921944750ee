// An independent timing loop, in a process of its own: one ONNX model on onnxruntime-node's
// CPU EP, the options pipeDejavu uses (all optimizations, sequential, one inter-op thread).
// Prints the median wall time of session.run in ms after warm-up, profiling off. Warm-up is
// at least 5 runs and 200 ms: a fresh process's first hundred milliseconds of calls are slower
// (a 0.12 ms model read 0.13-0.14 ms in a loop that stopped after 500 runs, 65 ms, and 0.117
// ms in one of 2 s). Then 2 s of runs (at least 15). Before the median it prints beside=N: the
// CPUs' worth of other processes' work over the timed runs (/proc/stat's busy CPUs less its own).
// With --model-run, profiling is on and it prints the median of ORT's own model_run events
// instead (ms, the profiler's per-node cost still in): the single-op reference of the
// prediction bench, timed here rather than in the bench's own busy process.
// The inputs are the bytes pipeDejavu's own runner feeds (FEEDS names a file of each input's
// raw bytes): a model whose control flow reads its data (openWakeWord's hey_jarvis runs its
// classifier a second time when the first score is 0.5 or more) must run the same branch in
// both. Without a file, seeded random floats and integer ones.
// Usage: node bench/time-loop.mjs MODEL.onnx THREADS FEEDS.json [--model-run]
//   (FEEDS: [{name, dims, type, file?}])
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';

const [file, threads, feedsFile, mode] = process.argv.slice(2);
const modelRun = mode === '--model-run';
const specs = JSON.parse(readFileSync(feedsFile, 'utf8'));
const ARRAYS = { float32: Float32Array, int64: BigInt64Array, int32: Int32Array, int8: Int8Array };
const feeds = {};
let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
for (const s of specs) {
  const n = s.dims.reduce((a, b) => a * b, 1);
  const A = ARRAYS[s.type] ?? Float32Array;
  let data;
  if (s.file) {
    const bytes = readFileSync(s.file);
    if (bytes.length !== n * A.BYTES_PER_ELEMENT) throw new Error(`${s.file}: ${bytes.length} bytes, not ${n} values`);
    data = new A(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  } else {
    data = new A(n);
    for (let i = 0; i < n; i++) data[i] = A === BigInt64Array ? 1n : A === Float32Array ? rand() : 1;
  }
  feeds[s.name] = new ort.Tensor(s.type, data, s.dims);
}
const traceDir = modelRun ? mkdtempSync(path.join(os.tmpdir(), 'time-loop-')) : null;
const session = await ort.InferenceSession.create(file, {
  executionProviders: ['cpu'],
  intraOpNumThreads: Number(threads),
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
  logSeverityLevel: 3,
  ...(traceDir ? { enableProfiling: true, profileFilePrefix: path.join(traceDir, 'run') } : {}),
});
let warmup = 0;
const w0 = performance.now();
while (warmup < 5 || performance.now() - w0 < 200) {
  await session.run(feeds);
  warmup++;
}
// Profiled, every run is a trace event or more: at most 2000 runs keep the trace small.
const cap = modelRun ? 2000 : 1e6;
let times = [];
// Other work beside the timed runs: the host's busy CPUs less this process's CPU time (printed as beside=).
const procStat = () => {
  try {
    const v = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1, 9).map(Number);
    return { busy: v[0] + v[1] + v[2] + v[5] + v[6], total: v.reduce((a, b) => a + b, 0) };
  } catch {
    return null;
  }
};
const stat0 = procStat();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
while (times.length < 15 || (performance.now() - t0 < 2000 && times.length < cap)) {
  const t = performance.now();
  await session.run(feeds);
  times.push(performance.now() - t);
}
if (traceDir) {
  session.endProfiling();
  const trace = readdirSync(traceDir).find((f) => f.endsWith('.json'));
  const events = JSON.parse(readFileSync(path.join(traceDir, trace), 'utf8'));
  times = events
    .filter((e) => e.name === 'model_run')
    .slice(warmup)
    .map((e) => e.dur / 1000);
  rmSync(traceDir, { recursive: true, force: true });
}
const stat1 = procStat();
if (stat0 && stat1 && stat1.total > stat0.total) {
  const used = process.cpuUsage(cpu0);
  const busy = ((stat1.busy - stat0.busy) / (stat1.total - stat0.total)) * os.cpus().length;
  console.log(`beside=${Math.max(0, busy - (used.user + used.system) / 1000 / (performance.now() - t0)).toFixed(2)}`);
}
times.sort((a, b) => a - b);
console.log(times[Math.floor(times.length / 2)]);
await session.release();
