/**
 * What running in parallel costs a node inside a model (issue 62). Run:
 *   esbuild bench/parallel-chains.ts --bundle --platform=node --format=esm --packages=external \
 *     --outfile=.tmp/parallel-chains.mjs && node .tmp/parallel-chains.mjs
 *
 * Chains of real ops, K copies in a row, each timed at 1 and 2 intra-op threads in one process
 * with the two sessions' runs interleaved (a slow moment of a shared machine hits both); the
 * per-op time is (T(K) - T(1)) / (K - 1), medians over run pairs. For each chain it prints the
 * per-op time at each thread count, their ratio, and whether ORT's cost model
 * (core/workload/parallel-split.ts) says the op is split at 2 threads.
 */
import os from 'node:os';
import * as ort from 'onnxruntime-node';
import { encodeModel, OnnxDataType, type NodeDef, type TensorDef } from '../src-main/core/onnx/model-builder.js';

const K = 9;
const PAIRS = Number(process.env['PAIRS'] ?? 300);

function weights(name: string, dims: number[]): TensorDef {
  const n = dims.reduce((a, d) => a * d, 1);
  const f = new Float32Array(n);
  for (let i = 0; i < n; i++) f[i] = Math.sin(i * 12.9898) * 0.05;
  return { name, dataType: OnnxDataType.FLOAT, dims, rawData: new Uint8Array(f.buffer) };
}

interface Chain {
  label: string;
  dims: number[];
  /** The nodes of copy i, from `x` to `y`, and the weights they use. */
  step: (x: string, y: string, i: number) => NodeDef[];
  init: TensorDef[];
}

function chainModel(c: Chain, n: number): Uint8Array {
  const nodes: NodeDef[] = [];
  for (let i = 0; i < n; i++) nodes.push(...c.step(i === 0 ? 'X' : `t${i}`, i === n - 1 ? 'Y' : `t${i + 1}`, i));
  const info = (name: string): { name: string; elemType: typeof OnnxDataType.FLOAT; dims: number[] } => ({
    name,
    elemType: OnnxDataType.FLOAT,
    dims: c.dims,
  });
  return encodeModel({
    graph: { name: 'chain', nodes, inputs: [info('X')], outputs: [info('Y')], initializers: c.init },
  });
}

const conv = (ch: number, k: number, h: number, w: number, withSerial: boolean): Chain => ({
  label: `Conv ${ch}->${ch} ${k}x${k}+Relu at ${h}x${w}${withSerial ? ', then a tiny serial Mul' : ''}`,
  dims: [1, ch, h, w],
  init: [weights('W', [ch, ch, k, k]), weights('B', [ch])],
  step: (x, y, i) => {
    const pad = (k - 1) / 2;
    const c = `c${i}`;
    const r = withSerial ? `r${i}` : y;
    const nodes: NodeDef[] = [
      {
        opType: 'Conv',
        inputs: [x, 'W', 'B'],
        outputs: [c],
        name: `conv${i}`,
        attributes: [
          { name: 'kernel_shape', type: 'INTS', value: [k, k] },
          { name: 'pads', type: 'INTS', value: [pad, pad, pad, pad] },
        ],
      },
      { opType: 'Relu', inputs: [c], outputs: [r], name: `relu${i}` },
    ];
    if (withSerial) nodes.push({ opType: 'Mul', inputs: [r, r], outputs: [y], name: `mul${i}` });
    return nodes;
  },
});

const unary = (op: string, dims: number[]): Chain => ({
  label: `${op} over ${dims.reduce((a, d) => a * d, 1)} elements`,
  dims,
  init: [],
  step: (x, y, i) => [{ opType: op, inputs: [x], outputs: [y], name: `${op}${i}` }],
});

const addChain = (dims: number[]): Chain => ({
  label: `Add (x + x) over ${dims.reduce((a, d) => a * d, 1)} elements`,
  dims,
  init: [],
  step: (x, y, i) => [{ opType: 'Add', inputs: [x, x], outputs: [y], name: `add${i}` }],
});

const mlp = (m: number, d: number): Chain => ({
  label: `MatMul ${m}x${d}x${d} + Add + Softmax`,
  dims: [m, d],
  init: [weights('W', [d, d]), weights('B', [d])],
  step: (x, y, i) => [
    { opType: 'MatMul', inputs: [x, 'W'], outputs: [`m${i}`], name: `mm${i}` },
    { opType: 'Add', inputs: [`m${i}`, 'B'], outputs: [`a${i}`], name: `bias${i}` },
    { opType: 'Softmax', inputs: [`a${i}`], outputs: [y], name: `sm${i}` },
  ],
});

const matmul = (d: number): Chain => ({
  label: `MatMul ${d}x${d}x${d} (the profile's wake-up chain)`,
  dims: [d, d],
  init: [weights('W', [d, d])],
  step: (x, y, i) => [{ opType: 'MatMul', inputs: [x, 'W'], outputs: [y], name: `mm${i}` }],
});

const CHAINS: Chain[] = [
  matmul(64),
  conv(16, 3, 24, 96, false),
  conv(16, 3, 24, 96, true),
  conv(16, 1, 2, 2, false),
  conv(16, 1, 2, 2, true),
  conv(64, 3, 12, 48, false),
  unary('Relu', [1, 16, 24, 96]),
  unary('Relu', [1, 64, 48, 96]),
  unary('Sigmoid', [1, 16, 24, 96]),
  unary('Sigmoid', [1, 64, 48, 96]),
  addChain([1, 16, 24, 96]),
  addChain([1, 64, 48, 96]),
  mlp(8, 64),
  mlp(64, 64),
  mlp(128, 256),
];

async function session(model: Uint8Array, threads: number): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(model, {
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    interOpNumThreads: 1,
    intraOpNumThreads: threads,
    executionProviders: ['cpu'],
    logSeverityLevel: 3,
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

async function timeRun(s: ort.InferenceSession, feeds: Record<string, ort.Tensor>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await s.run(feeds);
  return Number(process.hrtime.bigint() - t0) / 1000;
}

async function measure(c: Chain): Promise<{ one: number; two: number }> {
  const n = c.dims.reduce((a, d) => a * d, 1);
  const feeds = { X: new ort.Tensor('float32', new Float32Array(n).fill(0.5), c.dims) };
  const s = {
    one: [await session(chainModel(c, 1), 1), await session(chainModel(c, K), 1)],
    two: [await session(chainModel(c, 1), 2), await session(chainModel(c, K), 2)],
  };
  for (const x of [...s.one, ...s.two]) for (let w = 0; w < 5; w++) await x.run(feeds);
  const per = { one: [] as number[], two: [] as number[] };
  for (let p = 0; p < PAIRS; p++) {
    for (const t of ['one', 'two'] as const) {
      const [a, b] = s[t] as [ort.InferenceSession, ort.InferenceSession];
      const t1 = await timeRun(a, feeds);
      const tk = await timeRun(b, feeds);
      per[t].push((tk - t1) / (K - 1));
    }
  }
  return { one: median(per.one), two: median(per.two) };
}

console.log(
  `# ${os.cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString()}, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(`per op of a chain of ${K} (µs, median of ${PAIRS} pairs), 1 thread | 2 threads | 1t / 2t`);
for (const c of CHAINS) {
  const r = await measure(c);
  console.log(
    `${c.label.padEnd(52)} ${r.one.toFixed(2).padStart(9)} ${r.two.toFixed(2).padStart(9)} ${(r.one / r.two).toFixed(2).padStart(6)}`,
  );
}
console.log(
  `# load after ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
