/**
 * The machine-state probe of measure-model (core/profiler/machine-state.ts): the device's
 * cheapest calibration model, which its profile timed end to end, timed again just before and
 * just after the measurement at the same thread count, the way the profile's calibration timed it
 * (ONNX Runtime's runModel: two untraced passes, the lower median), on a shorter budget.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { calibrationModels } from '../../core/profiler/calibration-models.js';
import { machineState, type MachineState } from '../../core/profiler/machine-state.js';
import { summarize, type StoppingRule } from '../../core/profiler/timing-stats.js';
import type { EpConfig } from '../../core/domain/execution-provider.js';
import type { KernelRunnerApi } from '../../adapters/ort/kernel-runner.js';
import type { Database } from '../../adapters/store/types.js';
import { deviceStateReference, type DeviceRuns } from '../workload/stored-device-figures.js';
import { conditionsOff } from '../profile/run-conditions-service.js';

/** Times a calibration model (by name) end to end on `ep` now (µs); null when it did not run. */
export type StateTimer = (model: string, ep: EpConfig) => Promise<number | null>;

/**
 * The calibration's rule on a quarter of its budget (calibration-service.ts: 400 ms): a model of
 * a few hundred µs still gets well over the 10 runs of the rule in each pass.
 */
const PROBE_RULE: StoppingRule = {
  warmupRuns: 3,
  minRepetitions: 10,
  maxRepetitions: 200,
  targetCi: 0.02,
  budgetMs: 100,
};

/** The real timer: ONNX Runtime through the runner, the model written to a folder of its own for the call. */
export function runnerStateTimer(runner: Pick<KernelRunnerApi, 'runModel'>): StateTimer {
  return async (model, ep) => {
    const cm = calibrationModels().find((m) => m.name === model);
    if (!cm) return null;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pipedejavu-state-'));
    try {
      const file = path.join(dir, `${cm.name}.onnx`);
      writeFileSync(file, cm.model);
      const outcome = await runner.runModel({
        modelPath: file,
        inputs: cm.inputs,
        ep,
        rule: PROBE_RULE,
        attributionRuns: 1,
      });
      return outcome.ok && outcome.wallUs.length ? summarize(outcome.wallUs).medianUs : null;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** This host's timer for the CLI and the app; none when PIPEDEJAVU_RUN_CONDITIONS=off (as the load readings). */
export function localStateTimer(
  env: NodeJS.ProcessEnv,
  runner: Pick<KernelRunnerApi, 'runModel'>,
): StateTimer | undefined {
  return conditionsOff(env) ? undefined : runnerStateTimer(runner);
}

/**
 * The probe around one measurement: `start` times the reference before it, `finish` after it and
 * gives the state. Without a timer, off the CPU, or for a device whose profile has no calibration
 * models, nothing is timed and finish gives null.
 */
export async function watchMachineState(
  db: Database,
  device: DeviceRuns,
  ep: EpConfig,
  timer: StateTimer | undefined,
): Promise<{ finish: () => Promise<MachineState | null> }> {
  const ref = timer && ep.name === 'cpu' ? deviceStateReference(db, device) : null;
  if (!timer || !ref) return { finish: async () => null };
  const beforeUs = await timer(ref.model, ep);
  return { finish: async () => machineState(ref, beforeUs, await timer(ref.model, ep)) };
}
