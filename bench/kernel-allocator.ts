/**
 * The kernel child's allocator (src-main/adapters/ort/kernel-allocator.ts). Run: npm run bench:allocator
 *
 * Every kernel of the quick suite (fp32, CPU EP, 1 thread) timed once in a child that allocates
 * as glibc does by default and once in the kernel child the profile now uses (freed memory kept,
 * huge pages for large buffers), the two in turn kernel by kernel so a slow moment of the machine
 * hits both. Reports what the profile stores (the median of ORT's kernel times) from both children,
 * as a ratio per op family, and the wall time each child spent timing the suite.
 */
import os from 'node:os';
import { KernelRunner } from '../src-main/adapters/ort/kernel-runner.js';
import { kernelAllocatorEnv } from '../src-main/adapters/ort/kernel-allocator.js';
import { suiteKernels } from '../src-main/core/kernels/suites.js';
import { SUITE_RULES } from '../src-main/core/profiler/suite-policy.js';
import { median, summarize } from '../src-main/core/profiler/timing-stats.js';
import type { KernelSpec } from '../src-main/core/kernels/types.js';

interface Timed {
  kernelUs: number;
  wallMs: number;
}

async function timeOn(runner: KernelRunner, spec: KernelSpec): Promise<Timed | null> {
  const t0 = Date.now();
  const o = await runner.run({ spec, ep: { name: 'cpu', threads: 1 }, rule: SUITE_RULES.quick });
  if (!o.ok || o.kernelUs.length === 0) return null;
  return { kernelUs: summarize(o.kernelUs).medianUs, wallMs: Date.now() - t0 };
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const plain = new KernelRunner();
const kept = new KernelRunner({ env: kernelAllocatorEnv(process.env) });
const kernels = suiteKernels('quick', { dtypes: ['fp32'] });
const ratios = new Map<string, number[]>();
const wall = { plain: 0, kept: 0 };
let n = 0;
const moved: { id: string; r: number; us: number }[] = [];
for (const [i, spec] of kernels.entries()) {
  // Alternate which child goes first, so neither always meets a warmer cache.
  const order = i % 2 === 0 ? ([plain, kept] as const) : ([kept, plain] as const);
  const [a, b] = [await timeOn(order[0], spec), await timeOn(order[1], spec)];
  const [p, k] = i % 2 === 0 ? [a, b] : [b, a];
  if (!p || !k) continue;
  wall.plain += p.wallMs;
  wall.kept += k.wallMs;
  const fam = spec.family;
  ratios.set(fam, [...(ratios.get(fam) ?? []), k.kernelUs / p.kernelUs]);
  moved.push({ id: spec.id, r: k.kernelUs / p.kernelUs, us: p.kernelUs });
  n++;
}
await Promise.all([plain.close(), kept.close()]);

const pct = (r: number): string => `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(1)}%`;
console.log(
  `${cpu}, ${os.cpus().length} CPUs, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, ${new Date().toISOString()}`,
);
console.log(`${n} of ${kernels.length} quick-suite kernels (fp32, 1 thread), each timed once per child, in turn`);
console.log(
  `wall time spent timing: default allocator ${(wall.plain / 1000).toFixed(1)} s, kept memory ${(wall.kept / 1000).toFixed(1)} s`,
);
console.log('kernel median (ORT trace), kept memory against default, per family: median ratio [p10, p90] (kernels)');
const all: number[] = [];
for (const [fam, rs] of [...ratios].sort((x, y) => y[1].length - x[1].length)) {
  const s = [...rs].sort((x, y) => x - y);
  all.push(...rs);
  const q = (f: number): number => s[Math.min(s.length - 1, Math.floor(f * s.length))] as number;
  console.log(`  ${fam.padEnd(14)} ${pct(median(s))} [${pct(q(0.1))}, ${pct(q(0.9))}] (${s.length})`);
}
console.log(`  all            ${pct(median(all))} (${all.length})`);
moved.sort((x, y) => Math.abs(Math.log(y.r)) - Math.abs(Math.log(x.r)));
console.log('most moved kernels (kept memory against default, default µs):');
for (const m of moved.slice(0, 12)) console.log(`  ${m.id} ${pct(m.r)} (${m.us.toFixed(1)} µs)`);
