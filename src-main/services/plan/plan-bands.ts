/**
 * The 90% band of each plan's step: each device's band factors, the widest of the plan's devices
 * applied to the step. A profiled device's factors are its prediction band's (measure-model
 * checks of other models on it, or the bench's shipped residuals for a CPU; model-band.ts); a
 * datasheet GPU's are the published-measurement band of the datasheet predictor
 * (models/gpu-kernels.json, issue 46).
 */
import { modelBand } from '../../core/predictor/model-band.js';
import { SHIPPED_RESIDUALS } from '../../core/predictor/shipped-residuals.js';
import { KERNEL_EFFICIENCIES } from '../../core/predictor/kernel-efficiency.js';
import type { Plan, PlanDevice } from '../../core/planner/types.js';
import type { StepBand } from '../../core/planner/plan-summary.js';
import { MachineRepo } from '../../adapters/store/machine-repo.js';
import { ModelCheckRepo } from '../../adapters/store/model-check-repo.js';
import type { Database } from '../../adapters/store/types.js';

export interface BandFactors {
  /** The step times these; low < 1 < high. */
  low: number;
  high: number;
  from: string;
}

export type { StepBand };

/** A device's factors: its machine's checks for a profiled device, the datasheet band for a datasheet GPU. */
function deviceFactors(db: Database, d: PlanDevice, model: string, labels: Map<string, string>): BandFactors {
  if (d.estimate === 'datasheet') {
    const { low, high } = KERNEL_EFFICIENCIES.band;
    return { low, high, from: 'datasheet estimates against published measurements' };
  }
  const key = d.id.slice(d.id.lastIndexOf('/') + 1);
  const machineId = labels.get(d.machine) ?? null;
  const checks = machineId ? new ModelCheckRepo(db).residuals(machineId, key) : [];
  const b = modelBand(1, { model, threads: null }, checks, key === 'cpu' ? SHIPPED_RESIDUALS : []);
  return { low: b.lowUs, high: b.highUs, from: `${b.n} residuals (${b.from})` };
}

/** Every device's factors, by device id. */
export function bandFactors(db: Database, devices: readonly PlanDevice[], model: string): Record<string, BandFactors> {
  const labels = new Map(new MachineRepo(db).listMachines().map((m) => [m.label, m.id]));
  return Object.fromEntries(devices.map((d) => [d.id, deviceFactors(db, d, model, labels)]));
}

/** The widest factors of some devices; null when one has none. */
function widest(ids: readonly string[], factors: Record<string, BandFactors>): { low: number; high: number } | null {
  const used = ids.map((id) => factors[id]);
  if (used.length === 0 || used.some((f) => f === undefined)) return null;
  const low = Math.min(...used.map((f) => (f as BandFactors).low));
  const high = Math.max(...used.map((f) => (f as BandFactors).high));
  return { low, high };
}

/** A plan's step band, the widest factors of the devices it uses, and each stage's by its own devices. */
export function stepBand(
  plan: Pick<Plan, 'stages' | 'stepUs' | 'feasible'>,
  factors: Record<string, BandFactors>,
): StepBand | null {
  if (!plan.feasible) return null;
  const step = widest(
    plan.stages.flatMap((s) => s.devices),
    factors,
  );
  if (!step) return null;
  const stages = plan.stages.map((s) => {
    const f = widest(s.devices, factors) ?? step;
    return { timeUs: s.timeUs, lowUs: s.timeUs * f.low, highUs: s.timeUs * f.high };
  });
  return { lowUs: plan.stepUs * step.low, highUs: plan.stepUs * step.high, stages };
}
