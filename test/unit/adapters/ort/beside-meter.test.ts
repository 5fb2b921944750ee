import { describe, expect, it } from 'vitest';
import { besideMeter } from '../../../../src-main/adapters/ort/beside-meter.js';
import type { CpuTimes } from '../../../../src-main/core/profiler/run-conditions.js';

/** Burns CPU in this process for about `ms`. */
function spin(ms: number): void {
  const t = performance.now();
  while (performance.now() - t < ms);
}

describe('besideMeter: other work beside this process over a stretch', () => {
  it('takes this process’s own CPU time out of the host’s busy CPUs', () => {
    // A host whose two CPUs were both busy for the whole stretch, half of it ours: about one CPU of other work.
    let reads = 0;
    let started = 0;
    const read = (): CpuTimes => {
      reads++;
      if (reads === 1) {
        started = performance.now();
        return { busy: 0, steal: 0, total: 0, cpus: 2 };
      }
      const ticks = (performance.now() - started) / 10;
      return { busy: 2 * ticks, steal: 0, total: 2 * ticks, cpus: 2 };
    };
    const end = besideMeter(read);
    spin(120);
    const b = end();
    expect(b?.cpus).toBe(2);
    expect(b?.othersCpus).toBeGreaterThan(0.7);
    expect(b?.othersCpus).toBeLessThan(1.2);
  });

  it('says nothing without readings or over a stretch too short to tell', () => {
    expect(besideMeter(() => null)()).toBeNull();
    const read = (): CpuTimes => ({ busy: 0, steal: 0, total: 1, cpus: 2 });
    expect(besideMeter(read)()).toBeNull();
  });
});
