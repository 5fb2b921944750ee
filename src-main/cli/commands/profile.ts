import { SUITE_NAMES, type SuiteName } from '../../core/kernels/suites.js';
import { quoted } from '../../core/text/shown.js';
import { UsageError, UserError } from '../../core/errors.js';
import { DEFAULT_SUITE, parseBackends, parseThreads } from '../../services/profile/device-targets.js';
import { localProfile, nothingProfiled, profiledRooflines, profileTargets } from '../../services/profile/profile-targets.js';
import type { Command } from '../command.js';
import { THREAD_COUNTS_OPTION, deviceOption } from '../device-options.js';
import { makeProgress } from '../progress.js';
import { renderProfileReport, renderProfileRuns, renderRoofline } from '../render/profile.js';
import { listProfileRuns } from '../../services/profile/profile-runs.js';

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
  usage:
    '[runs] [--suite quick|standard|thorough] [--device cpu|cuda:N|webgpu:N|all] [--threads N[,N]] [--backend ort|torch|all] [--python PATH] [--json]',
  details:
    'Kernels run one at a time in a child process on ONNX Runtime (CPU EP; CUDA EP per GPU once\n' +
    '`npm run install-cuda` has installed it; WebGPU EP where an adapter exists). Each kernel is timed\n' +
    "with ORT's own profiler until the median is known within ±2% or its time budget is spent.\n" +
    'Ctrl-C stops cleanly and keeps every finished measurement; rerunning measures only what is missing.\n' +
    '--backend torch (or all) also times the same kernels with PyTorch in a Python child (CUDA events on\n' +
    'each GPU, the wall clock on the CPU), stored as the torch-cuda and torch-cpu providers.\n' +
    'On Linux a CPU profile waits up to 20 s for a quiet moment (other work under 0.3 CPUs), once for the\n' +
    'whole command (a thread count starts from the reading taken after the one before), and stores the\n' +
    'conditions it ran in (load before and after, CPU steal); a profile taken under load says so, and so\n' +
    'does every prediction from it. `profile runs` lists the stored runs with their conditions.',
  subcommands: ['runs'],
  positionals: { min: 0, max: 1, names: 'runs' },
  options: {
    suite: {
      type: 'string',
      valueName: 'SUITE',
      description: 'quick, standard or thorough (default quick); the start line says how long it should take here',
    },
    device: deviceOption('or all (default cpu)'),
    threads: THREAD_COUNTS_OPTION,
    backend: {
      type: 'string',
      valueName: 'BACKEND',
      description: 'ort (ONNX Runtime, default), torch (PyTorch) or all',
    },
    python: {
      type: 'string',
      valueName: 'PATH',
      description: 'the Python with torch (default: $PIPEDEJAVU_PYTHON, python3 on PATH, /usr/bin/python3)',
    },
  },
  async run(ctx, opts, [sub]) {
    if (sub !== undefined) {
      if (sub !== 'runs') throw new UsageError(`profile: unknown subcommand ${quoted(sub)}; use runs`);
      const runs = listProfileRuns(ctx.database());
      if (ctx.json) ctx.printJson({ runs });
      else ctx.print(runs.length ? renderProfileRuns(runs) : 'No profile runs stored yet. Run `pipedejavu profile`.');
      return;
    }
    const suite = (typeof opts.suite === 'string' ? opts.suite : DEFAULT_SUITE) as SuiteName;
    if (!SUITE_NAMES.includes(suite))
      throw new UsageError(`--suite takes ${SUITE_NAMES.join(', ')}; got ${quoted(suite)}`);
    const db = ctx.database();
    const device = typeof opts.device === 'string' ? opts.device : 'cpu';
    const threads = typeof opts.threads === 'string' ? parseThreads(opts.threads) : undefined;
    const backends = parseBackends(typeof opts.backend === 'string' ? opts.backend : 'ort');
    if (opts.python === '') throw new UsageError('--python needs a path');
    const python = typeof opts.python === 'string' ? opts.python : undefined;
    const { machine, targets, skipped, deps } = await localProfile(db, ctx.io.env, device, threads, {
      backends,
      ...(python ? { python } : {}),
    });
    const progress = makeProgress(ctx.io.terminal ?? ctx.io.stderr, ctx.io.isTty);
    skipped.forEach((line) => progress.log(line));
    const controller = new AbortController();
    const release = interruptOnSigint(controller, () =>
      progress.log('stopping: keeping every finished measurement...'),
    );
    const reports = await profileTargets(deps, targets, {
      suite,
      signal: controller.signal,
      onLog: (line) => progress.log(line),
      onKernel: (e) => {
        progress.update(e.index, e.total, e.spec.id, e.elapsedMs, e.remainingMs);
        if (e.status === 'failed') progress.log(`  ${e.spec.id}: failed: ${e.error ?? ''}`);
      },
      onStep: (e) => progress.update(e.index, e.total, e.label, e.elapsedMs, e.remainingMs),
      onReport: (report) => {
        progress.end();
        if (!ctx.json) ctx.print(renderProfileReport(report));
      },
    }).finally(release);
    const roof = profiledRooflines(db, machine.id, reports);
    if (ctx.json) ctx.printJson({ machineId: machine.id, reports, rooflines: roof });
    else if (roof.length) ctx.print(`\nMeasured roofline\n${renderRoofline(roof)}`);
    if (controller.signal.aborted)
      throw new UserError('profile interrupted; finished measurements are stored, rerun to resume', 130);
    const nothing = typeof opts.device === 'string' ? nothingProfiled(opts.device, reports) : null;
    if (nothing) throw nothing;
  },
};
