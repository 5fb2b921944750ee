/**
 * The machine's state around a measurement (issue 62): whether it ran as fast as when it was
 * profiled. A reference the profile itself timed, one of its calibration models end to end at the
 * same thread count, is timed again just before and just after the measurement; the reading
 * further from its stored time, as a ratio, is the machine's state. Pure.
 *
 * Beyond the profile's own repeatability the measurement was taken in another state of the
 * machine (this VM's host has phases of seconds to minutes where 2 threads run no faster than
 * 1), so it is no check of predictions made from the profile: it is kept, but its residual is not
 * pooled into the 90% band (model-band.ts). The threshold is the profile's own: the spread its
 * kernels showed between timing rounds (round-agreement.ts roundSpread: max(5%, 3 robust standard
 * deviations of every kernel's round-to-round ratio), stored with the run as `retimed.threshold`);
 * a profile without it falls back on the calibration's own slow-round figure (SLOW_ROUND).
 */

/** A calibration round this much slower than the fastest (x1.2) says the machine was busy; the fallback threshold. */
export const SLOW_ROUND = 1.2;

/** What the probe times again, as the profile stored it. */
export interface StateReference {
  /** The calibration model (calibration-models.ts) timed end to end. */
  model: string;
  /** Its end to end in the profile (µs): the median of its fastest session. */
  endToEndUs: number;
  /** The profile's rounds' spread (fraction, e.g. 0.10); null when the profile has none. */
  roundSpread: number | null;
}

/** The readings around one measurement and the verdict. */
export interface MachineState {
  model: string;
  /** The reference's end to end before and after the measurement (µs); null where it did not run. */
  beforeUs: number | null;
  afterUs: number | null;
  referenceUs: number;
  /** The reading further from the reference, over it (1.9: the machine ran 1.9 times slower); null without a reading. */
  ratio: number | null;
  /** The largest ratio (either way) still taken as the profiled state: 1 + the threshold. */
  limit: number;
  /** Where the limit comes from. */
  limitFrom: 'round spread' | 'slow round';
  /** Off its profiled speed: the measurement is kept but not used as a check of the predictions. */
  off: boolean;
}

/** The limit on the ratio and where it came from. */
function limitOf(ref: StateReference): { limit: number; limitFrom: MachineState['limitFrom'] } {
  const spread = ref.roundSpread;
  return spread !== null && Number.isFinite(spread) && spread > 0
    ? { limit: 1 + spread, limitFrom: 'round spread' }
    : { limit: SLOW_ROUND, limitFrom: 'slow round' };
}

/** The machine's state from the readings around a measurement (null readings: not read). */
export function machineState(ref: StateReference, beforeUs: number | null, afterUs: number | null): MachineState {
  const { limit, limitFrom } = limitOf(ref);
  const ratios = [beforeUs, afterUs]
    .filter((v): v is number => v !== null && Number.isFinite(v) && v > 0)
    .map((v) => v / ref.endToEndUs);
  const ratio = ratios.reduce<number | null>(
    (worst, r) => (worst === null || Math.abs(Math.log(r)) > Math.abs(Math.log(worst)) ? r : worst),
    null,
  );
  const off = ratio !== null && Math.abs(Math.log(ratio)) > Math.log(limit);
  return { model: ref.model, beforeUs, afterUs, referenceUs: ref.endToEndUs, ratio, limit, limitFrom, off };
}

/** "x1.9 slower" / "x1.3 faster": how far off the machine ran. */
const howFar = (ratio: number): string =>
  ratio >= 1 ? `x${ratio.toFixed(1)} slower` : `x${(1 / ratio).toFixed(1)} faster`;

/** The line measure-model says when the machine was off its profiled speed; null when it was not. */
export function machineStateWarning(s: MachineState | null): string | null {
  if (!s?.off || s.ratio === null) return null;
  const limit = `±${((s.limit - 1) * 100).toFixed(0)}%, the profile's ${s.limitFrom}`;
  return `the machine ran ${howFar(s.ratio)} than when it was profiled (its calibration model ${s.model} took ${readings(s)} against ${(s.referenceUs / 1000).toFixed(3)} ms; beyond ${limit}): this measurement is kept but not used as a check of the predictions`;
}

/** "0.712 ms before and 0.705 ms after" (a missing reading says so). */
function readings(s: MachineState): string {
  const ms = (v: number | null): string => (v === null ? 'no reading' : `${(v / 1000).toFixed(3)} ms`);
  return `${ms(s.beforeUs)} before and ${ms(s.afterUs)} after`;
}
