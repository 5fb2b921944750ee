/**
 * Values per device list and degree: by the list's identity (a search's groups keep theirs), else
 * by its devices (a plan being priced builds its lists afresh). Pure.
 */
export class ListCache<T> {
  private readonly byList = new WeakMap<readonly number[], Map<number, T>>();
  private readonly byDevices = new Map<string, Map<number, T>>();

  /** The value of (devices, degree), or undefined before add. */
  find(devices: readonly number[], degree: number): T | undefined {
    const hit = this.byList.get(devices)?.get(degree);
    if (hit !== undefined) return hit;
    const byDegree = this.byDevices.get(devices.join(','));
    if (byDegree) this.byList.set(devices, byDegree);
    return byDegree?.get(degree);
  }

  /** Keeps the value of (devices, degree) and returns it. */
  add(devices: readonly number[], degree: number, value: T): T {
    const key = devices.join(',');
    const byDegree = this.byDevices.get(key) ?? new Map<number, T>();
    this.byDevices.set(key, byDegree);
    this.byList.set(devices, byDegree);
    byDegree.set(degree, value);
    return value;
  }
}
