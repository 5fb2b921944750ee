/**
 * Which nodes of a model's executed graph ONNX Runtime splits at N threads (issue 62), by
 * core/workload/parallel-split.ts, and the model timed end to end at 1 and N threads with the
 * two sessions' runs interleaved. Run:
 *   esbuild bench/parallel-census.ts --bundle --platform=node --format=esm --packages=external \
 *     --outfile=.tmp/parallel-census.mjs && node .tmp/parallel-census.mjs MODEL.onnx x=1,3,48,192 [THREADS]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { parseOnnxModel } from '../src-main/core/onnx/onnx-parser.js';
import { mapExecutedNodes, nchwcChannelHints } from '../src-main/core/workload/executed-graph.js';
import { importOnnxModel } from '../src-main/core/workload/from-onnx.js';
import { threadsUsed } from '../src-main/core/workload/parallel-split.js';
import { runsOnOneThread } from '../src-main/core/workload/one-thread-ops.js';

const [file = 'test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx', spec = 'x=1,3,48,192', t = '2'] =
  process.argv.slice(2);
const threads = Number(t);
const [inName = 'x', dimsText = ''] = spec.split('=');
const dims = dimsText.split(',').map(Number);
const bytes = new Uint8Array(readFileSync(file));
const dir = mkdtempSync(path.join(os.tmpdir(), 'census-'));
const out = path.join(dir, 'executed.onnx');
const opts = (n: number, optimizedModelFilePath?: string): ort.InferenceSession.SessionOptions => ({
  graphOptimizationLevel: 'all',
  executionMode: 'sequential',
  interOpNumThreads: 1,
  intraOpNumThreads: n,
  executionProviders: ['cpu'],
  logSeverityLevel: 3,
  ...(optimizedModelFilePath ? { optimizedModelFilePath } : {}),
});
await (await ort.InferenceSession.create(bytes, opts(threads, out))).release();
const source = parseOnnxModel(bytes);
const ran = parseOnnxModel(new Uint8Array(readFileSync(out)));
rmSync(dir, { recursive: true, force: true });
const inputs = { [inName]: dims };
const map = mapExecutedNodes(source, ran);
const w = importOnnxModel(ran, { name: 'model', inputs, nchwcChannels: nchwcChannelHints(source, ran, map) }).workload;
const rows = new Map<string, { split: number; serial: number; unknown: number; flops: [number, number, number] }>();
for (const n of w.nodes) {
  if (!n.kernel) continue;
  const k = runsOnOneThread(n) ? 1 : threadsUsed(n, threads, w.nchwcBlock);
  const at = k === null ? 2 : k > 1 ? 0 : 1;
  const uneven = k !== null && k > 1 && k < threads ? ` (${k.toFixed(2)}x of ${threads})` : '';
  const key = `${n.opType}${n.kernel.shape['nchwc'] ? ' (NCHWc)' : ''}${uneven}`;
  const r = rows.get(key) ?? { split: 0, serial: 0, unknown: 0, flops: [0, 0, 0] };
  if (at === 0) r.split++;
  else if (at === 1) r.serial++;
  else r.unknown++;
  r.flops[at] += n.flops;
  rows.set(key, r);
}
console.log(`# ${file} ${spec} at ${threads} threads: executed nodes split / on one thread / not modelled (MFLOP)`);
for (const [k, r] of [...rows].sort()) {
  const f = r.flops.map((x) => (x / 1e6).toFixed(2)).join(' / ');
  console.log(`${k.padEnd(28)} ${r.split} / ${r.serial} / ${r.unknown}   (${f})`);
}

// The mechanism alone: each node's traced 1-thread time, divided by what ORT's split gives it at
// N threads (threadsUsed) plus one parallel op's cost (PAR_OP_US, as the profile measures it)
// where it is split, kept whole where it is not or not modelled (those count as split at full
// N in the second line, the optimistic side).
const parOpUs = Number(process.env['PAR_OP_US'] ?? 1);
// What ORT's trace adds to each node's time (the profile's profilerNodeUs; about 2-3 µs here).
const traceNodeUs = Number(process.env['TRACE_NODE_US'] ?? 2.5);
const traceDir = mkdtempSync(path.join(os.tmpdir(), 'census-trace-'));
const traced = await ort.InferenceSession.create(bytes, {
  ...opts(1),
  enableProfiling: true,
  profileFilePrefix: path.join(traceDir, 'p'),
});
const tfeeds = {
  [inName]: new ort.Tensor('float32', new Float32Array(dims.reduce((a, d) => a * d, 1)).fill(0.5), dims),
};
for (let i = 0; i < 30; i++) await traced.run(tfeeds);
traced.endProfiling();
await traced.release();
const traceFile = readdirSync(traceDir).map((f) => path.join(traceDir, f))[0] as string;
const events = JSON.parse(readFileSync(traceFile, 'utf8')) as { cat?: string; name?: string; dur?: number }[];
rmSync(traceDir, { recursive: true, force: true });
const byName = new Map<string, number[]>();
for (const e of events) {
  if (e.cat !== 'Node' || !e.name?.endsWith('_kernel_time')) continue;
  const name = e.name.slice(0, -'_kernel_time'.length);
  byName.set(name, [...(byName.get(name) ?? []), e.dur ?? 0]);
}
const medianOf = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
let one = 0;
let mech = 0;
let optimistic = 0;
for (const n of w.nodes) {
  const ts = byName.get(n.name);
  if (!ts) continue;
  const t1 = Math.max(0.1 * medianOf(ts.slice(5)), medianOf(ts.slice(5)) - traceNodeUs);
  const k = runsOnOneThread(n) ? 1 : threadsUsed(n, threads, w.nchwcBlock);
  one += t1;
  mech += k !== null && k > 1 ? Math.min(t1, t1 / k + parOpUs) : t1;
  optimistic += k === null ? t1 / threads + parOpUs : k > 1 ? Math.min(t1, t1 / k + parOpUs) : t1;
}
console.log(
  `traced nodes at 1 thread, less ${traceNodeUs} µs each for the trace: ${one.toFixed(0)} µs; by the split alone at ${threads} threads (+${parOpUs} µs a split op): ` +
    `${mech.toFixed(0)} µs (${(one / mech).toFixed(2)}x), ${optimistic.toFixed(0)} µs (${(one / optimistic).toFixed(2)}x) with every op not modelled split too`,
);

const pairs = Number(process.env['PAIRS'] ?? 400);
const feeds = {
  [inName]: new ort.Tensor('float32', new Float32Array(dims.reduce((a, d) => a * d, 1)).fill(0.5), dims),
};
const s1 = await ort.InferenceSession.create(bytes, opts(1));
const sN = await ort.InferenceSession.create(bytes, opts(threads));
for (let i = 0; i < 20; i++) {
  await s1.run(feeds);
  await sN.run(feeds);
}
const t1: number[] = [];
const tN: number[] = [];
const time = async (s: ort.InferenceSession): Promise<number> => {
  const t0 = process.hrtime.bigint();
  await s.run(feeds);
  return Number(process.hrtime.bigint() - t0) / 1000;
};
const load0 = os.loadavg()[0] ?? 0;
for (let i = 0; i < pairs; i++) {
  t1.push(await time(s1));
  tN.push(await time(sN));
}
const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
const ratio = t1.map((x, i) => x / (tN[i] as number));
console.log(
  `end to end from Node, median of ${pairs} interleaved runs: 1 thread ${med(t1).toFixed(0)} µs, ${threads} threads ${med(tN).toFixed(0)} µs, ` +
    `median pair ratio ${med(ratio).toFixed(2)}x; load ${load0.toFixed(2)} -> ${(os.loadavg()[0] ?? 0).toFixed(2)}, ${os.cpus()[0]?.model}`,
);
