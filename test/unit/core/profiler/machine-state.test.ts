/** The machine's state around a measurement: readings of the profile's calibration model against its stored time. */
import { describe, expect, it } from 'vitest';
import { machineState, machineStateWarning, SLOW_ROUND } from '../../../../src-main/core/profiler/machine-state.js';

/** Run q's 2-thread profile: resnet-blocks 392.3 µs end to end, rounds' spread ±26.7%. */
const ref = { model: 'resnet-blocks', endToEndUs: 392.3, roundSpread: 0.267 };

describe('machineState', () => {
  it('is the profiled state while both readings stay within the profile’s rounds’ spread', () => {
    const s = machineState(ref, 400, 470);
    expect(s.off).toBe(false);
    expect(s.ratio).toBeCloseTo(470 / 392.3, 9);
    expect(s.limit).toBeCloseTo(1.267, 9);
    expect(s.limitFrom).toBe('round spread');
    expect(machineStateWarning(s)).toBeNull();
  });

  it('is off when either reading is beyond the spread: a slow phase where 2 threads run as 1', () => {
    // The 1-thread time of the same model (736 µs) read at 2 threads, after a quiet reading before.
    const after = machineState(ref, 395, 736);
    expect(after.off).toBe(true);
    expect(after.ratio).toBeCloseTo(736 / 392.3, 9);
    const before = machineState(ref, 745, 398);
    expect(before.off).toBe(true);
    expect(before.ratio).toBeCloseTo(745 / 392.3, 9);
  });

  it('takes the reading further from the profile either way: a machine faster than profiled is off too', () => {
    const s = machineState(ref, 250, 420);
    expect(s.ratio).toBeCloseTo(250 / 392.3, 9);
    expect(s.off).toBe(true);
    expect(machineStateWarning(s)).toMatch(/^the machine ran x1\.6 faster than when it was profiled/);
  });

  it('falls back on the calibration’s slow-round figure when the profile stored no rounds’ spread', () => {
    const bare = { ...ref, roundSpread: null };
    expect(machineState(bare, 392.3 * 1.19, null)).toMatchObject({
      off: false,
      limit: SLOW_ROUND,
      limitFrom: 'slow round',
    });
    expect(machineState(bare, 392.3 * 1.21, null).off).toBe(true);
  });

  it('is not off without a reading (the probe did not run)', () => {
    const s = machineState(ref, null, null);
    expect(s).toMatchObject({ ratio: null, off: false });
    expect(machineStateWarning(s)).toBeNull();
    expect(machineStateWarning(null)).toBeNull();
  });

  it('says in one line how far off the machine ran, what it read, and that the check is not used', () => {
    const s = machineState(ref, 745.4, 398);
    expect(machineStateWarning(s)).toBe(
      "the machine ran x1.9 slower than when it was profiled (its calibration model resnet-blocks took 0.745 ms before and 0.398 ms after against 0.392 ms; beyond ±27%, the profile's round spread): this measurement is kept but not used as a check of the predictions",
    );
    expect(machineStateWarning(machineState(ref, null, 800))).toContain('took no reading before and 0.800 ms after');
  });
});
