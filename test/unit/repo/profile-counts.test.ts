/**
 * The counts the README and docs/profiling.md give for a profile are the profiler's own (issue 60): the
 * suite's kernels a CPU profile measures (kernelsFor), the calibration nodes it adds (the kernels of the
 * calibration models' nodes the suite lacks, DeviceCalibration.kernels as profile-locked.ts adds them) and
 * what refinement may add (SUITE_REFINEMENT). The calibration nodes are what ONNX Runtime runs after its
 * fusions, so the README names the CPU and ONNX Runtime they were counted on, and they are checked there.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KernelRunner } from '../../../src-main/adapters/ort/kernel-runner.js';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';
import { SUITE_NAMES, type SuiteName } from '../../../src-main/core/kernels/suites.js';
import { SUITE_REFINEMENT } from '../../../src-main/core/profiler/suite-policy.js';
import { DeviceCalibration } from '../../../src-main/services/profile/calibration-service.js';
import { kernelsFor } from '../../../src-main/services/profile/profiler-service.js';

const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8').replace(/\s+/g, ' ');
const cpu = { name: 'cpu', threads: 1 } as const;
const suiteKernels = (s: SuiteName): number => kernelsFor(cpu, s).length;
const ortVersion = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
).dependencies['onnxruntime-node'];

/** The CPU the README's calibration count is for: x86-64 with AVX-512 (ORT's NCHWc blocks are 16 wide there). */
const countedHere =
  process.platform === 'linux' && process.arch === 'x64' && /\bavx512f\b/.test(readFileSync('/proc/cpuinfo', 'utf8'));

/** "measures 330 kernels: the suite's 294 and 36 calibration nodes" in the README, as numbers. */
function readmeQuick(): { total: number; suite: number; calibration: number } {
  const m = /measures (\d+) kernels: the suite's (\d+) and (\d+) calibration nodes/.exec(read('README.md'));
  expect(m, 'the README states the quick profile’s kernels').not.toBeNull();
  const [total, suite, calibration] = (m ?? []).slice(1).map(Number) as [number, number, number];
  return { total, suite, calibration };
}

describe('the profile counts the README and docs state', () => {
  it('are the suites the profiler measures on a CPU, and the quick one adds up', () => {
    const readme = read('README.md');
    const quick = readmeQuick();
    expect(quick.suite).toBe(suiteKernels('quick'));
    expect(quick.total).toBe(quick.suite + quick.calibration);
    expect(readme).toContain(`adds up to ${SUITE_REFINEMENT.quick} more where the curves bend`);
    expect(readme).toContain(`\`--suite standard\` (${suiteKernels('standard')} suite kernels,`);
    expect(readme).toContain(`\`--suite thorough\` (${suiteKernels('thorough')},`);
    expect(readme).toContain(`ONNX Runtime ${ortVersion}`);
    const docs = read('docs/profiling.md');
    for (const s of SUITE_NAMES)
      expect(docs, s).toMatch(new RegExp(`\\| ${s}( \\(default\\))? \\| ${suiteKernels(s)}\\b`));
    expect(docs).toContain(`| ${quick.suite}, plus ${quick.calibration} calibration nodes |`);
    expect(docs).toContain(`: ${quick.calibration} with ONNX Runtime ${ortVersion} on an x86-64 CPU with AVX-512`);
    const { quick: q, standard, thorough } = SUITE_REFINEMENT;
    expect(docs).toContain(`refinement**'s (up to ${q}, ${standard} and ${thorough} by suite)`);
  });

  describe.skipIf(!countedHere)('on an x86-64 CPU with AVX-512 (real ONNX Runtime)', () => {
    const runner = new KernelRunner({ runnerPath: 'dist/kernel-runner.js' });
    afterAll(() => runner.close());

    it('the calibration nodes are those a profile adds to the quick suite', async () => {
      const calibration = await DeviceCalibration.prepare(openDatabase(':memory:'), runner, cpu, () => false);
      try {
        const suite = new Set(kernelsFor(cpu, 'quick').map((k) => k.id));
        const added = calibration.kernels().filter((k) => !suite.has(k.id));
        expect(readmeQuick().calibration).toBe(added.length);
      } finally {
        calibration.dispose();
      }
    });
  });
});
