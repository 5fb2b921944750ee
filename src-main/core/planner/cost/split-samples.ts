/**
 * How a data-parallel stage splits one microbatch over its devices (or tensor-parallel replicas): in
 * whole samples, so that the slowest finishes first. Pure.
 */

/**
 * Whole samples per device minimizing max(samples_d × perSampleUs_d): the floor of the
 * proportional share, then each leftover sample to the device that would finish it first (this
 * takes the `samples` smallest values of {j·c_d}, so it is optimal). Alike devices, devices with zero
 * time (they take everything), or devices with no finite time get the samples dealt round-robin.
 */
export function splitSamples(samples: number, perSampleUs: readonly number[]): number[] {
  const n = perSampleUs.length;
  const shares = new Array<number>(n).fill(0);
  if (n === 0 || samples <= 0) return shares;
  const c0 = perSampleUs[0] as number;
  let equal = true;
  let zeros = 0;
  let finite = 0;
  for (const c of perSampleUs) {
    if (c !== c0) equal = false;
    if (c === 0) zeros++;
    else if (c > 0 && Number.isFinite(c)) finite++;
  }
  if (equal || zeros > 0 || finite === 0) {
    // Deal round-robin: over all devices when they are alike, else over the zero-time ones.
    const to = equal
      ? perSampleUs.map((_, i) => i)
      : perSampleUs.flatMap((c, i) => (c === 0 || zeros === 0 ? [i] : []));
    for (let s = 0; s < samples; s++) {
      const i = to[s % to.length] as number;
      shares[i] = (shares[i] as number) + 1;
    }
    return shares;
  }
  const ok = (i: number): boolean => {
    const c = perSampleUs[i] as number;
    return c > 0 && Number.isFinite(c);
  };
  let speed = 0;
  for (let i = 0; i < n; i++) if (ok(i)) speed += 1 / (perSampleUs[i] as number);
  let given = 0;
  for (let i = 0; i < n; i++) {
    if (!ok(i)) continue;
    const s = Math.floor((samples * (1 / (perSampleUs[i] as number))) / speed);
    shares[i] = s;
    given += s;
  }
  const load = (i: number): number => (shares[i] as number) * (perSampleUs[i] as number);
  while (given > samples) {
    // Rounding guard: take back from the replica that finishes last.
    let worst = -1;
    for (let i = 0; i < n; i++)
      if (ok(i) && (shares[i] as number) > 0 && (worst < 0 || load(i) > load(worst))) worst = i;
    shares[worst] = (shares[worst] as number) - 1;
    given--;
  }
  while (given < samples) {
    let pick = -1;
    let pickEnd = Infinity;
    for (let i = 0; i < n; i++) {
      if (!ok(i)) continue;
      const end = ((shares[i] as number) + 1) * (perSampleUs[i] as number);
      if (end < pickEnd) {
        pick = i;
        pickEnd = end;
      }
    }
    shares[pick] = (shares[pick] as number) + 1;
    given++;
  }
  return shares;
}
