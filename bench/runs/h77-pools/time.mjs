import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node');
const dur = Number(process.argv[2] ?? 20);
const mk = async (f, t) =>
  ort.InferenceSession.create(f, {
    intraOpNumThreads: t,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    ...(process.env.SPIN === '0' ? { extra: { session: { intra_op: { allow_spinning: '0' } } } } : {}),
  });
const feeds = {
  X: new ort.Tensor('float32', new Float32Array(8 * 256).fill(0.1), [8, 256]),
  S: new ort.Tensor('float32', new Float32Array(2048).fill(0.1), [1, 2048]),
};
const s = {};
for (const t of [1, 2]) for (const n of ['1', '5']) s[t + n] = await mk(`/tmp/probe/parallel-probe-${n}.onnx`, t);
async function med(sess, reps) {
  const ts = [];
  for (let i = 0; i < reps; i++) {
    const a = process.hrtime.bigint();
    await sess.run(feeds);
    ts.push(Number(process.hrtime.bigint() - a) / 1e3);
  }
  ts.sort((a, b) => a - b);
  return ts[ts.length >> 1];
}
const end = Date.now() + dur * 1000;
const out = [];
while (Date.now() < end) {
  const r = {};
  for (const t of [1, 2]) {
    const a = await med(s[t + '1'], 200),
      b = await med(s[t + '5'], 200);
    r[t] = (b - a) / 4;
  }
  out.push((r[2] / r[1]).toFixed(2));
}
console.log('ratio 2t/1t per round:', out.join(' '));
