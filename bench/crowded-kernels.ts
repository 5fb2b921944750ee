/**
 * Kernels at 1 and 2 threads, interleaved: alone, beside a busy loop at the lowest priority (nice 19)
 * and beside one at normal priority (issue 62): the 2-thread label over the 1-thread one, and the
 * other work the kernel child read beside the 2-thread runs (CPUs). Three repetitions, medians.
 * `npm run bench:crowded` (run it on an otherwise quiet machine).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { KernelRunner } from '../src-main/adapters/ort/kernel-runner.js';
import { makeKernel } from '../src-main/core/kernels/cost.js';
import { median } from '../src-main/core/profiler/timing-stats.js';
const rule = { warmupRuns: 3, minRepetitions: 15, maxRepetitions: 400, targetCi: 0.02, budgetMs: 300 };
const kernels = [
  makeKernel('Div', 'fp32', { n: 1048576 }),
  makeKernel('Add', 'fp32', { n: 1048576 }),
  makeKernel('Sigmoid', 'fp32', { n: 393216 }),
  makeKernel('MatMul', 'fp32', { B: 1, M: 512, N: 512, K: 512 }),
];
const runner = new KernelRunner({});
const busy = (nice: number): ChildProcess =>
  spawn('nice', ['-n', String(nice), 'node', '-e', 'for(;;){}'], { stdio: 'ignore' });
const rows: Record<string, number[]> = {};
const others: Record<string, number[]> = {};
for (let rep = 0; rep < 3; rep++)
  for (const cond of ['alone', 'nice19', 'nice0'] as const) {
    const b = cond === 'alone' ? null : busy(cond === 'nice19' ? 19 : 0);
    await new Promise((r) => setTimeout(r, 300));
    for (const k of kernels)
      for (const t of [1, 2]) {
        const o = await runner.run({ spec: k, ep: { name: 'cpu', threads: t }, rule });
        if (!o.ok) {
          console.log('fail', k.id, o.error);
          continue;
        }
        const key = `${k.op} ${JSON.stringify(k.shape)} t${t} ${cond}`;
        (rows[key] ??= []).push(median(o.kernelUs));
        (others[key] ??= []).push(o.beside?.othersCpus ?? NaN);
      }
    b?.kill();
    await new Promise((r) => setTimeout(r, 300));
  }
await runner.close();
console.log(
  `${os.cpus()[0]?.model} x${os.cpus().length}, load ${(os.loadavg()[0] ?? 0).toFixed(2)}, ${new Date().toISOString()}`,
);
for (const k of kernels)
  for (const cond of ['alone', 'nice19', 'nice0']) {
    const one = median(rows[`${k.op} ${JSON.stringify(k.shape)} t1 ${cond}`] ?? []);
    const two = median(rows[`${k.op} ${JSON.stringify(k.shape)} t2 ${cond}`] ?? []);
    const ob = median(others[`${k.op} ${JSON.stringify(k.shape)} t2 ${cond}`] ?? []);
    console.log(
      `| ${k.op} ${Object.values(k.shape).join('x')} | ${cond} | ${one.toFixed(1)} | ${two.toFixed(1)} | ${(two / one).toFixed(2)} | ${ob.toFixed(2)} |`,
    );
  }
