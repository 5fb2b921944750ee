/**
 * Two or more machines of the store side by side (the Library's comparison): the user's picks,
 * their comparison (`machine:compare`), and the same with a workload predicted on every device.
 */
import type { ApiClient } from '../../../src-main/api/client.js';
import type { ComparisonView } from '../../../src-main/api/view-models.js';
import { Resource } from './resource.svelte.js';

/** Until the user picks, the comparison shows the first machines of the list (this one first). */
const DEFAULT_PICKS = 4;

export class CompareState {
  /** The machines to compare (ids), in the order picked; compared in the list's order. */
  picks: string[] = $state([]);
  /** The store's machines (ids) in the list's order. */
  machineIds: string[] = $state.raw([]);
  workload = $state('');
  /** The picked machines side by side, without a workload. */
  readonly comparison = new Resource<ComparisonView>();
  /** The same with the workload predicted on every device: its own error (no predictor yet...). */
  readonly prediction = new Resource<ComparisonView>();
  #chosen = false;
  #client: ApiClient;

  constructor(client: ApiClient) {
    this.#client = client;
  }

  /** The store's machines changed: keeps the picks (less removed machines) and compares again. */
  setMachines(ids: readonly string[]): void {
    this.machineIds = [...ids];
    this.picks = this.#chosen ? this.picks.filter((id) => ids.includes(id)) : ids.slice(0, DEFAULT_PICKS);
    void this.run();
  }

  /** A machine just imported joins the picks the user made (until then the defaults hold it). */
  add(id: string): void {
    if (this.#chosen && !this.picks.includes(id)) this.picks = [...this.picks, id];
  }

  /** The picked machines in the list's order. */
  get pickedIds(): string[] {
    return this.machineIds.filter((id) => this.picks.includes(id));
  }

  isPicked(id: string): boolean {
    return this.picks.includes(id);
  }

  toggle(id: string): void {
    this.#chosen = true;
    this.picks = this.picks.includes(id) ? this.picks.filter((x) => x !== id) : [...this.picks, id];
    void this.run();
  }

  setWorkload(name: string): void {
    this.workload = name;
    void this.run();
  }

  /** Compares the picked machines (two or more), and again with the workload when one is chosen. */
  async run(): Promise<void> {
    const machines = this.pickedIds;
    const workload = this.workload;
    if (machines.length < 2) {
      this.comparison.clear();
      this.prediction.clear();
      return;
    }
    const client = this.#client;
    const loads: Promise<unknown>[] = [this.comparison.load(() => client.call('machine:compare', { machines }))];
    if (workload)
      loads.push(
        this.prediction.load(() => client.call('machine:compare', { machines, workload, mode: 'inference', batch: 1 })),
      );
    else this.prediction.clear();
    await Promise.all(loads);
  }
}
