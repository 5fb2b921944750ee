import { SUITE_NAMES, type SuiteName } from '../../core/kernels/suites.js';
import { UsageError, UserError } from '../../core/errors.js';
import { DEFAULT_SUITE, defaultThreadCounts, parseThreads, resolveTargets } from '../../services/device-targets.js';
import { localProbeDeps } from '../../services/local-probe.js';
import { localProfilerDeps } from '../../services/local-profiler.js';
import { ensureLocalMachine } from '../../services/machine-service.js';
import { profileDevice, type ProfileReport } from '../../services/profiler-service.js';
import { rooflines } from '../../services/roofline-service.js';
import type { Command } from '../command.js';
import { makeProgress } from '../progress.js';
import { renderProfileReport, renderRoofline } from '../render/profile.js';

/** Ctrl-C asks the profile to stop; a second Ctrl-C leaves at once. */
function interruptOnSigint(controller: AbortController, onFirst: () => void): () => void {
  let count = 0;
  const handler = (): void => {
    count++;
    if (count === 1) {
      onFirst();
      controller.abort();
    } else process.exit(130);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

export const profileCommand: Command = {
  name: 'profile',
  summary: 'measure every device with ONNX micro-kernels and store the results (resumes where it stopped)',
  usage: '[--suite quick|standard|thorough] [--device cpu|cuda:N|webgpu:N|all] [--threads N[,N]] [--json]',
  details:
    'Kernels run one at a time in a child process on ONNX Runtime (CPU EP; CUDA EP per GPU once\n' +
    '`npm run install-cuda` has installed it; WebGPU EP where an adapter exists). Each kernel is timed\n' +
    "with ORT's own profiler until the median is known within ±2% or its time budget is spent.\n" +
    'Ctrl-C stops cleanly and keeps every finished measurement; rerunning measures only what is missing.',
  options: {
    suite: {
      type: 'string',
      valueName: 'SUITE',
      description: 'quick (about a minute), standard or thorough (default quick)',
    },
    device: { type: 'string', valueName: 'DEVICE', description: 'cpu, cuda:N, webgpu:N or all (default cpu)' },
    threads: {
      type: 'string',
      valueName: 'N',
      description: 'CPU thread counts, e.g. 8 or 1,8 (default: physical cores)',
    },
  },
  async run(ctx, opts) {
    const suite = (typeof opts.suite === 'string' ? opts.suite : DEFAULT_SUITE) as SuiteName;
    if (!SUITE_NAMES.includes(suite)) throw new UsageError(`--suite takes ${SUITE_NAMES.join(', ')}; got "${suite}"`);
    const db = ctx.database();
    const machine = await ensureLocalMachine(db, localProbeDeps, { env: ctx.io.env });
    const threads = typeof opts.threads === 'string' ? parseThreads(opts.threads) : defaultThreadCounts(machine);
    const targets = resolveTargets(machine, typeof opts.device === 'string' ? opts.device : 'cpu', threads);
    const deps = localProfilerDeps(db, ctx.io.env);
    const progress = makeProgress(ctx.io.terminal ?? ctx.io.stderr, ctx.io.isTty);
    const controller = new AbortController();
    const release = interruptOnSigint(controller, () =>
      progress.log('stopping: keeping every finished measurement...'),
    );
    const reports: ProfileReport[] = [];
    try {
      for (const target of targets) {
        if (controller.signal.aborted) break;
        const who = `${target.deviceKey}${target.ep.name === 'cpu' ? ` x${target.ep.threads} threads` : ''}`;
        const report = await profileDevice(deps, target, {
          suite,
          signal: controller.signal,
          onEvent: (e) => {
            if (e.type === 'start')
              progress.log(
                `profiling ${who}: ${e.total} kernels (${suite})${e.alreadyMeasured ? `, ${e.alreadyMeasured} already stored` : ''}`,
              );
            if (e.type === 'refine') progress.log(`refining: ${e.added} more kernels where the curves bend`);
            if (e.type === 'kernel') {
              progress.update(e.index, e.total, e.spec.id, e.elapsedMs, e.remainingMs);
              if (e.status === 'failed') progress.log(`  ${e.spec.id}: failed: ${e.error ?? ''}`);
            }
          },
        });
        progress.end();
        reports.push(report);
        if (!ctx.json) ctx.print(renderProfileReport(report));
      }
    } finally {
      release();
      await deps.runner.close();
    }
    const roof = rooflines(db, machine.id).filter((r) => reports.some((x) => x.deviceKey === r.deviceKey));
    if (ctx.json) ctx.printJson({ machineId: machine.id, reports, rooflines: roof });
    else if (roof.length) ctx.print(`\nMeasured roofline\n${renderRoofline(roof)}`);
    if (controller.signal.aborted)
      throw new UserError('profile interrupted; finished measurements are stored, rerun to resume', 130);
    const explicit = typeof opts.device === 'string' && opts.device !== 'all';
    if (explicit && reports.every((r) => r.status === 'unavailable' || r.status === 'failed')) {
      throw new UserError(
        `nothing profiled on ${opts.device as string}: ${reports.flatMap((r) => r.notes).join('; ')}`,
      );
    }
  },
};
