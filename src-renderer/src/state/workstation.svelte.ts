/** This machine (what the last probe found, and probing again), or an imported one to inspect. */
import type { ApiClient } from '../../../src-main/api/client.js';
import type { MachineView } from '../../../src-main/api/view-models.js';
import { Action, Resource } from './resource.svelte.js';

export class WorkstationState {
  /** The local machine; null when none was probed yet. */
  readonly machine = new Resource<MachineView | null>();
  /** An imported machine shown instead of this one (null: this one). */
  shownId: string | null = $state(null);
  readonly other = new Resource<MachineView | null>();
  readonly probing = new Action();
  #client: ApiClient;
  #onProbed: () => void;

  constructor(client: ApiClient, onProbed: () => void) {
    this.#client = client;
    this.#onProbed = onProbed;
  }

  /** The machine on screen. */
  get shown(): Resource<MachineView | null> {
    return this.shownId ? this.other : this.machine;
  }

  load(): Promise<unknown> {
    const id = this.shownId;
    return Promise.all([
      this.machine.load(() => this.#client.call('machine:get', {})),
      id ? this.other.load(() => this.#client.call('machine:get', { id })) : Promise.resolve(),
    ]);
  }

  show(id: string | null): void {
    this.shownId = id;
    if (id) void this.other.load(() => this.#client.call('machine:get', { id }));
  }

  async probe(): Promise<void> {
    const m = await this.probing.run(() => this.#client.call('machine:probe', {}));
    if (m) {
      this.machine.set(m);
      this.#onProbed();
    }
  }
}
