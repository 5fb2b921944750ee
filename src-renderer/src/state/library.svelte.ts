/** Machines in the store: import, export, and two or more of them side by side. */
import type { ApiClient } from '../../../src-main/api/client.js';
import type { ExportView, ImportView, MachineSummaryView } from '../../../src-main/api/view-models.js';
import { downloadText } from '../lib/files.js';
import { plural } from '../lib/format.js';
import { CompareStore } from './compare.svelte.js';
import { Action, Resource } from './resource.svelte.js';

export class LibraryStore {
  readonly machines = new Resource<MachineSummaryView[]>();
  readonly importing = new Action();
  readonly exporting = new Action();
  readonly removing = new Action();
  lastImport: ImportView | null = $state.raw(null);
  lastExport: (ExportView & { savedTo: string | null }) | null = $state.raw(null);
  selected: string | null = $state(null);
  importLabel = $state('');
  readonly compare: CompareStore;
  #client: ApiClient;
  #onImported: () => void;

  constructor(client: ApiClient, onImported: () => void) {
    this.#client = client;
    this.#onImported = onImported;
    this.compare = new CompareStore(client);
  }

  async refresh(): Promise<void> {
    const list = await this.machines.load(() => this.#client.call('machine:list', {}));
    if (!list) return;
    if (!this.selected || !list.some((m) => m.id === this.selected)) {
      this.selected = list.find((m) => m.source === 'local')?.id ?? list[0]?.id ?? null;
    }
    this.compare.setMachines(list.map((m) => m.id));
  }

  get imported(): MachineSummaryView[] {
    return (this.machines.value ?? []).filter((m) => m.source === 'imported');
  }

  /** Web mode: the picked file. Electron: a native dialog. */
  async importFile(file: File | null): Promise<void> {
    const label = this.importLabel.trim();
    const r = await this.importing.run(async () => {
      let fileName: string;
      let text: string;
      if (file) {
        // The bytes go to the server as they are (a 200 MB profile never becomes one string here).
        const uploadId = await this.#client.upload(file);
        return this.#client.call('machine:import', { fileName: file.name, uploadId, ...(label ? { label } : {}) });
      } else {
        const picked = await this.#client.call('dialog:open', { purpose: 'profile' });
        if (!picked) return null;
        fileName = picked.fileName;
        text = picked.text ?? '';
      }
      return this.#client.call('machine:import', { fileName, text, ...(label ? { label } : {}) });
    });
    if (r) {
      this.lastImport = r;
      this.importLabel = '';
      this.selected = r.machineId;
      this.compare.add(r.machineId);
      await this.refresh();
      this.#onImported();
    }
  }

  async exportSelected(): Promise<void> {
    const id = this.selected;
    const r = await this.exporting.run(async () => {
      const v = await this.#client.call('machine:export', id ? { id } : {});
      if (this.#client.transport === 'electron') {
        const saved = await this.#client.call('dialog:save', { fileName: v.fileName, text: v.text });
        return { ...v, savedTo: saved?.path ?? null };
      }
      downloadText(v.fileName, v.text);
      return { ...v, savedTo: null };
    });
    if (r) this.lastExport = r;
  }

  /** Removes the selected imported machine (asked first; this machine is never removed). */
  async removeSelected(confirm: (question: string) => boolean): Promise<void> {
    const m = (this.machines.value ?? []).find((x) => x.id === this.selected);
    if (!m || m.source !== 'imported') return;
    if (
      !confirm(
        `Remove ${m.label} with its ${plural(m.measurementCount, 'measurement')}? Its profile file, if you kept it, can be imported again.`,
      )
    )
      return;
    const r = await this.removing.run(() => this.#client.call('machine:remove', { id: m.id }));
    if (r) {
      this.selected = null;
      await this.refresh();
      this.#onImported();
    }
  }
}
