/**
 * Profiler benchmark (issue 3 targets). Run: npm run bench:profiler [-- --standard]
 * - quick suite wall time on the CPU (target < 60 s), standard (target < 5 min) with --standard
 * - repeatability: two quick profiles back to back, median over kernels of |ratio - 1| (target < 3%)
 * - fp32 GEMM peak against numpy/OpenBLAS on the same shapes and threads (target >= 90%)
 * - timing overhead: ORT kernel time vs wall time per run for kernels > 1 ms (target < 5%)
 * Prints a markdown report and writes bench/results/profiler-<date>.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KernelRunner } from '../src-main/adapters/ort/kernel-runner.js';
import { openDatabase } from '../src-main/adapters/store/open-database.js';
import { ProfileRepo } from '../src-main/adapters/store/profile-repo.js';
import { makeKernel } from '../src-main/core/kernels/cost.js';
import { summarize } from '../src-main/core/profiler/timing-stats.js';
import { localProbeDeps } from '../src-main/services/machine/local-probe.js';
import { probeAndRecord } from '../src-main/services/machine/machine-service.js';
import { profileDevice } from '../src-main/services/profile/profiler-service.js';
import { cpuPeak } from '../src-main/core/profiler/cpu-peak.js';
import type { SuiteName } from '../src-main/core/kernels/suites.js';

const withStandard = process.argv.includes('--standard');
const dir = mkdtempSync(path.join(os.tmpdir(), 'pdjv-bench-'));

async function profileOnce(name: string, suite: SuiteName, threads: number) {
  const db = openDatabase(path.join(dir, `${name}.db`));
  const { machineId, probe } = await probeAndRecord(db, localProbeDeps, {});
  const runner = new KernelRunner({});
  const t = performance.now();
  const report = await profileDevice(
    { db, runner, now: () => new Date(), epUnavailable: () => null },
    { machineId, deviceKey: 'cpu', ep: { name: 'cpu', threads } },
    { suite },
  );
  const seconds = (performance.now() - t) / 1000;
  await runner.close();
  const ms = new ProfileRepo(db).listMeasurements({ machineId });
  db.close();
  return { report, seconds, ms, probe };
}

const cores = os.cpus().length;
const first = await profileOnce('quick-1', 'quick', cores);
const second = await profileOnce('quick-2', 'quick', cores);
const single1 = cores > 1 ? await profileOnce('quick-1t-1', 'quick', 1) : first;
const single2 = cores > 1 ? await profileOnce('quick-1t-2', 'quick', 1) : second;
const standard = withStandard ? await profileOnce('standard', 'standard', cores) : null;

/** Median over kernels measured in both runs of |ratio - 1|, and the share within 3%. */
function repeatability(a: typeof first.ms, b: typeof first.ms): { medianDev: number; within3: number; n: number } {
  const byId = new Map(a.map((m) => [`${m.op}|${JSON.stringify(m.shape)}|${m.dtype}`, m.stats.medianUs]));
  const dev = b
    .map((m) => {
      const x = byId.get(`${m.op}|${JSON.stringify(m.shape)}|${m.dtype}`);
      return x ? Math.abs(m.stats.medianUs / x - 1) : null;
    })
    .filter((r): r is number => r !== null)
    .sort((p, q) => p - q);
  return {
    medianDev: dev[Math.floor(dev.length / 2)] ?? NaN,
    within3: dev.filter((d) => d <= 0.03).length / dev.length,
    n: dev.length,
  };
}
const repAll = repeatability(first.ms, second.ms);
const repOne = repeatability(single1.ms, single2.ms);
const medianDev = repAll.medianDev;
const within3 = repAll.within3;

// GEMM peak against numpy/OpenBLAS.
const sizes = [512, 1024, 2048];
const runner = new KernelRunner({});
const rule = { warmupRuns: 3, minRepetitions: 10, maxRepetitions: 200, targetCi: 0.02, budgetMs: 2000 };
const ortGemm: Record<number, number> = {};
for (const n of sizes) {
  const o = await runner.run({
    spec: makeKernel('MatMul', 'fp32', { B: 1, M: n, N: n, K: n }),
    ep: { name: 'cpu', threads: cores },
    rule,
  });
  if (o.ok) ortGemm[n] = (2 * n ** 3) / summarize(o.kernelUs).medianUs / 1000;
}
await runner.close();
const numpy = JSON.parse(
  execFileSync('/usr/bin/python3', ['bench/numpy-gemm.py', String(cores), ...sizes.map(String)], { encoding: 'utf8' }),
) as Record<string, { gflops: number }>;
const peak = cpuPeak(
  first.probe.cpu,
  cores,
  Object.values(ortGemm).map((gflops) => ({ gflops, threads: cores })),
);
const theoretical = peak.gflops;

// Timing overhead.
const all = [...first.ms, ...second.ms];
const big = all.filter((m) => m.stats.medianUs > 1000 && m.stats.wallMedianUs !== null);
const gaps = big
  .map((m) => ((m.stats.wallMedianUs as number) - m.stats.medianUs) / m.stats.medianUs)
  .sort((a, b) => a - b);
const tiny = all.filter((m) => m.stats.medianUs < 50).sort((a, b) => a.stats.medianUs - b.stats.medianUs);

const pct = (v: number): string => `${(v * 100).toFixed(1)}%`;
const lines = [
  `Machine: ${first.probe.cpu.brand}, ${first.probe.cpu.physicalCores} cores, ${(first.probe.memory.totalBytes / 2 ** 30).toFixed(0)} GiB; ${first.probe.os.distro} ${first.probe.os.release}; Node ${process.version}; date ${new Date().toISOString().slice(0, 10)}`,
  '',
  '| target | measured | met |',
  '|---|---|---|',
  `| quick suite < 60 s per device | ${first.seconds.toFixed(1)} s and ${second.seconds.toFixed(1)} s (${first.report.measured} kernels, ${first.report.noisy.length} rejected as noisy) | ${first.seconds < 60 && second.seconds < 60 ? 'yes' : 'no'} |`,
  standard
    ? `| standard suite < 5 min | ${standard.seconds.toFixed(1)} s (${standard.report.measured} kernels, ${standard.report.noisy.length} noisy) | ${standard.seconds < 300 ? 'yes' : 'no'} |`
    : '| standard suite < 5 min | not run (pass --standard) | - |',
  `| repeatability, ${cores} threads: median \\|ratio-1\\| over kernels < 3% | ${pct(repAll.medianDev)} over ${repAll.n} kernels; ${pct(repAll.within3)} of kernels within 3% | ${repAll.medianDev < 0.03 ? 'yes' : 'no'} |`,
  `| repeatability, 1 thread | ${pct(repOne.medianDev)} over ${repOne.n} kernels; ${pct(repOne.within3)} of kernels within 3% | ${repOne.medianDev < 0.03 ? 'yes' : 'no'} |`,
  ...sizes.map((n) => {
    const o = ortGemm[n];
    const b = numpy[String(n)]?.gflops;
    const ratio = o && b ? o / b : NaN;
    return `| GEMM ${n}³ fp32 >= 90% of numpy/OpenBLAS | ORT ${o?.toFixed(1) ?? '-'} GFLOP/s vs numpy ${b?.toFixed(1) ?? '-'} GFLOP/s = ${pct(ratio)}; theoretical ${peak.label} | ${ratio >= 0.9 ? 'yes' : 'no'} |`;
  }),
  `| kernels > 1 ms: wall vs ORT kernel time < 5% | median ${pct(gaps[Math.floor(gaps.length / 2)] ?? NaN)}, max ${pct(gaps[gaps.length - 1] ?? NaN)} over ${gaps.length} kernels; ${pct(gaps.filter((g) => g < 0.05).length / gaps.length)} under 5% | ${(gaps[Math.floor(gaps.length / 2)] ?? 1) < 0.05 ? 'median yes' : 'no'} |`,
  `| tiny kernels (< 50 µs): both reported | ${tiny
    .slice(0, 4)
    .map(
      (m) =>
        `${m.op} ${JSON.stringify(m.shape)}: kernel ${m.stats.medianUs.toFixed(1)} µs, wall ${m.stats.wallMedianUs?.toFixed(1)} µs`,
    )
    .join('; ')} | - |`,
];
const report = lines.join('\n');
console.log(report);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  `bench/results/profiler-${new Date().toISOString().slice(0, 10)}.json`,
  `${JSON.stringify({ first: first.seconds, second: second.seconds, repAll, repOne, standard: standard?.seconds ?? null, medianDev, within3, ortGemm, numpy, theoretical, gaps, report }, null, 2)}\n`,
);
