import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node');
const dur = Number(process.argv[2] ?? 20);
const mode = process.argv[3] ?? 'shared'; // 'shared': one 2-thread pool per session, two sessions alive; 'alone': one session alive at a time
const mk = async (f, t) =>
  ort.InferenceSession.create(f, {
    intraOpNumThreads: t,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    // STOP=1: session.force_spinning_stop; SPIN=0: session.intra_op.allow_spinning off.
    extra: {
      session: {
        ...(process.env.STOP ? { force_spinning_stop: process.env.STOP } : {}),
        ...(process.env.SPIN === '0' ? { intra_op: { allow_spinning: '0' } } : {}),
      },
    },
  });
const feeds = {
  X: new ort.Tensor('float32', new Float32Array(8 * 256).fill(0.1), [8, 256]),
  S: new ort.Tensor('float32', new Float32Array(2048).fill(0.1), [1, 2048]),
};
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
let kept = {};
if (mode === 'shared')
  for (const t of [1, 2]) for (const n of ['1', '5']) kept[t + n] = await mk(`/tmp/probe/parallel-probe-${n}.onnx`, t);
while (Date.now() < end) {
  const r = {};
  for (const t of [1, 2]) {
    const m = {};
    for (const n of ['1', '5']) {
      const s = kept[t + n] ?? (await mk(`/tmp/probe/parallel-probe-${n}.onnx`, t));
      m[n] = await med(s, 200);
      if (!kept[t + n]) await s.release();
    }
    r[t] = (m['5'] - m['1']) / 4;
  }
  out.push((r[2] / r[1]).toFixed(2));
}
console.log('ratio:', out.join(' '));
