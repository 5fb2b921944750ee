/** Machines in the store: import, export, and two or more of them side by side. */
import type { ApiClient } from '../../../src-main/api/client.js';
import type { ExportView, ImportView, MachineSummaryView } from '../../../src-main/api/view-models.js';
import { REPLACE_HINT } from '../../../src-main/api/text.js';
import { plural } from '../lib/format.js';
import { CompareState } from './compare.svelte.js';
import { Action, Resource } from './resource.svelte.js';

/** A file to import: picked in the browser (uploaded), or read by the desktop's open dialog. */
type ImportAttempt = { file: File; label: string } | { fileName: string; text: string; label: string };

export class LibraryState {
  readonly machines = new Resource<MachineSummaryView[]>();
  readonly importing = new Action();
  readonly exporting = new Action();
  readonly removing = new Action();
  lastImport: ImportView | null = $state.raw(null);
  lastExport: (ExportView & { savedTo: string | null }) | null = $state.raw(null);
  selected: string | null = $state(null);
  importLabel = $state('');
  readonly compare: CompareState;
  #client: ApiClient;
  #onImported: () => void;
  /** What the last import read, kept until it succeeds, so a refused one can be replaced. */
  #lastAttempt: ImportAttempt | null = $state.raw(null);

  #download: (fileName: string, text: string) => void;

  /** `download` saves an export in web mode (the browser's download; the desktop asks a save dialog). */
  constructor(client: ApiClient, onImported: () => void, download: (fileName: string, text: string) => void) {
    this.#client = client;
    this.#onImported = onImported;
    this.#download = download;
    this.compare = new CompareState(client);
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
    await this.#import(async () => {
      if (file) return { file, label };
      const picked = await this.#client.call('dialog:open', { purpose: 'profile' });
      return picked ? { fileName: picked.fileName, text: picked.text ?? '', label } : null;
    }, false);
  }

  /** The last import was refused because the store holds a newer or a different copy of the machine. */
  get canReplace(): boolean {
    return this.#lastAttempt !== null && (this.importing.error?.endsWith(REPLACE_HINT) ?? false);
  }

  /** Imports the refused file again, replacing the stored copy (the CLI's --replace). */
  async replaceWithLast(): Promise<void> {
    const attempt = this.#lastAttempt;
    if (attempt) await this.#import(() => Promise.resolve(attempt), true);
  }

  async #import(source: () => Promise<ImportAttempt | null>, replace: boolean): Promise<void> {
    const r = await this.importing.run(async () => {
      const attempt = await source();
      if (!attempt) return null;
      this.#lastAttempt = attempt;
      const common = { ...(attempt.label ? { label: attempt.label } : {}), ...(replace ? { replace } : {}) };
      if ('file' in attempt) {
        // The bytes go to the server as they are (a 100 MB profile never becomes one string here).
        const uploadId = await this.#client.upload(attempt.file);
        return this.#client.call('machine:import', { fileName: attempt.file.name, uploadId, ...common });
      }
      return this.#client.call('machine:import', { fileName: attempt.fileName, text: attempt.text, ...common });
    });
    if (r) {
      this.lastImport = r;
      this.#lastAttempt = null;
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
      this.#download(v.fileName, v.text);
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
