/**
 * Turns the files bench/gpu-check/run.sh wrote on the GPU machine into the figures of issue 14:
 * measured GEMM peak and copy bandwidth against PyTorch's own (target: within 10%), and the
 * predicted per-block times of GPT-2 medium and BERT-large against PyTorch-measured ones (target:
 * within 15%). Prints Markdown for bench/RESULTS.md.
 *
 *   npm run bench:gpu-check -- DIR [cuda:0]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface Roofline {
  deviceKey: string;
  executionProvider: string;
  summary: { peakGflops: Record<string, number | undefined>; bandwidthGBps: number | null };
}
interface Reference {
  cuda: boolean;
  name?: string;
  torch: string;
  gemm?: Record<string, { n: number; tflops: number }>;
  copyD2D?: { GBps: number };
  layers?: Record<string, { inferenceMs: number; trainingMs: number; batch: number; seq: number }>;
}
interface Prediction {
  layers: { name: string; timeUs: number }[];
  predictor: string;
}

const [dir = '', gpu = 'cuda:0'] = process.argv.slice(2);
const read = <T>(name: string): T | null => {
  const file = path.join(dir, name);
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
};
if (!dir || !existsSync(dir)) {
  process.stderr.write('usage: npm run bench:gpu-check -- DIR [cuda:0]   (DIR: what bench/gpu-check/run.sh wrote)\n');
  process.exit(2);
}

const pct = (measured: number, reference: number): string =>
  `${measured >= reference ? '+' : ''}${(((measured - reference) / reference) * 100).toFixed(1)}%`;
const within = (measured: number, reference: number, limit: number): string =>
  Math.abs(measured - reference) / reference <= limit ? 'met' : 'missed';

const ref = read<Reference>('reference.json');
const roof = read<{ rooflines: Roofline[] }>('roofline.json')?.rooflines ?? [];
const preds = read<Record<string, Record<string, Prediction>>>('predictions.json') ?? {};
const lines: string[] = [];
lines.push(`GPU: ${ref?.name ?? 'unknown'} (${gpu}), PyTorch ${ref?.torch ?? '-'}`, '');

const torchRoof = roof.find((r) => r.deviceKey === gpu && r.executionProvider === 'torch-cuda');
lines.push(
  '| figure | pipeDejavu (torch-cuda profile) | PyTorch reference | difference | target 10% |',
  '| --- | --- | --- | --- | --- |',
);
for (const dtype of ['bf16', 'fp16', 'fp32']) {
  const ours = torchRoof?.summary.peakGflops[dtype];
  const theirs = ref?.gemm?.[dtype];
  if (ours && theirs) {
    const t = theirs.tflops * 1000;
    lines.push(
      `| ${dtype} GEMM peak (GFLOP/s) | ${ours.toFixed(0)} | ${t.toFixed(0)} (${theirs.n}^3) | ${pct(ours, t)} | ${within(ours, t, 0.1)} |`,
    );
  } else
    lines.push(
      `| ${dtype} GEMM peak | ${ours ?? 'not measured'} | ${theirs ? theirs.tflops * 1000 : 'not measured'} | - | not run |`,
    );
}
const bw = torchRoof?.summary.bandwidthGBps;
const copy = ref?.copyD2D?.GBps;
lines.push(
  bw && copy
    ? `| device memory bandwidth (GB/s) | ${bw.toFixed(0)} | ${copy.toFixed(0)} (D2D copy, read + write) | ${pct(bw, copy)} | ${within(bw, copy, 0.1)} |`
    : `| device memory bandwidth | ${bw ?? 'not measured'} | ${copy ?? 'not measured'} | - | not run |`,
);

lines.push(
  '',
  '| model block (bf16, batch 8) | mode | predicted (ms) | PyTorch (ms) | difference | target 15% |',
  '| --- | --- | --- | --- | --- | --- |',
);
for (const [model, refLayer] of Object.entries(ref?.layers ?? {})) {
  for (const mode of ['inference', 'training'] as const) {
    const p = preds[model]?.[mode];
    const block = p?.layers?.find((l) => l.name === 'block.0');
    const measured = mode === 'inference' ? refLayer.inferenceMs : refLayer.trainingMs;
    if (!block) {
      lines.push(`| ${model} (seq ${refLayer.seq}) | ${mode} | not predicted | ${measured.toFixed(3)} | - | not run |`);
      continue;
    }
    const predicted = block.timeUs / 1000;
    lines.push(
      `| ${model} (seq ${refLayer.seq}) | ${mode} | ${predicted.toFixed(3)} (${p?.predictor}) | ${measured.toFixed(3)} | ${pct(predicted, measured)} | ${within(predicted, measured, 0.15)} |`,
    );
  }
}
if (!ref?.cuda) lines.push('', 'PyTorch saw no CUDA device: nothing on a GPU was compared.');
process.stdout.write(`${lines.join('\n')}\n`);
