/**
 * Datasheet devices checked against measured ones: every profiled GPU of the store (this
 * machine's or an imported one's) whose name has a datasheet (models/gpus.json) has its profile
 * kernels predicted as the planner predicts that name's virtual device (the datasheet predictor:
 * its datasheet and the shipped kernel fractions) and compared with the measurements, per op family. The plan
 * shows the result next to every virtual device's estimate; bench/datasheet-check.ts prints it.
 */
import { datasheetFor, virtualDevice } from '../../core/planner/cost/datasheets.js';
import { estimateError, familyErrorsText, type EstimateError } from '../../core/planner/cost/datasheet-check.js';
import { MachineRepo } from '../../adapters/store/machine-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { DatasheetPredictor } from '../../core/predictor/datasheet-predictor.js';
import { publishedErrorText } from '../../core/predictor/kernel-efficiency.js';
import { loadTrainingData } from './training-data.js';
import { count } from '../../core/text/plural.js';

export interface DatasheetCheck extends EstimateError {
  /** The datasheet's name of the GPU. */
  datasheet: string;
  /** The measured device: machine label, device key and execution provider. */
  measured: { machine: string; deviceKey: string; executionProvider: string; name: string };
  predictor: string;
}

/** Every measured GPU of the store with a datasheet, or only those of `gpuName` (any name a datasheet has). */
export function datasheetChecks(db: Database, gpuName?: string): DatasheetCheck[] {
  const wanted = gpuName === undefined ? null : (datasheetFor(gpuName)?.id ?? '');
  const { devices, samples } = loadTrainingData(db);
  const machines = new MachineRepo(db);
  const gpus = devices.filter((d) => d.features.kind === 'gpu');
  if (gpus.length === 0) return [];
  const checks: DatasheetCheck[] = [];
  for (const d of gpus) {
    const name = machines.getMachine(d.machineId)?.devices.find((x) => x.key === d.deviceKey)?.name ?? d.deviceKey;
    const ds = datasheetFor(name);
    if (!ds || (wanted !== null && ds.id !== wanted)) continue;
    const virtual = virtualDevice(ds.name).features;
    const mine = samples.filter((s) => s.device.deviceId === d.deviceId && (s.origin ?? 'profile') === 'profile');
    const predictor = new DatasheetPredictor(ds);
    const predicted = predictor.predict(mine.map((s) => ({ ...s, device: virtual })));
    const pairs = mine.map((s, i) => ({
      family: s.family,
      measuredUs: s.timeUs,
      predictedUs: predicted[i]?.timeUs ?? NaN,
    }));
    checks.push({
      datasheet: ds.name,
      measured: { machine: d.machineLabel, deviceKey: d.deviceKey, executionProvider: d.executionProvider, name },
      predictor: predictor.name,
      ...estimateError(pairs),
    });
  }
  return checks;
}

/** What the plan says next to a datasheet device: its error against a measured one, or that none was measured. */
export function datasheetCheckLine(db: Database, gpuName: string): string {
  const ds = datasheetFor(gpuName);
  const checks = ds ? datasheetChecks(db, ds.name).filter((c) => c.kernels > 0) : [];
  if (!ds || checks.length === 0) {
    return `${ds?.name ?? gpuName}: not yet checked against a measured one here (profile one, or import its profile, to see how far the datasheet estimate is); ${publishedErrorText()}`;
  }
  return checks
    .map(
      (c) =>
        `${c.datasheet}: the datasheet estimate is off by ${Math.round(c.mape * 100)}% on average against ${c.measured.machine}/${c.measured.deviceKey} (${c.measured.executionProvider}, ${count(c.kernels, 'kernel')}: ${familyErrorsText(c)})`,
    )
    .join('; ');
}
