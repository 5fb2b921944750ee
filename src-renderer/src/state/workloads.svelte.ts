/** Workloads: stored ONNX models and the catalog, per-layer predictions and real runs. */
import type { ApiClient } from '../../../src-main/api/client.js';
import type { ApiRequest, EngineChoice } from '../../../src-main/api/contract.js';
import type {
  FitView,
  CatalogSummary,
  Mode,
  MeasuredView,
  WorkloadPredictionView,
  WorkloadSummaryView,
} from '../../../src-main/api/view-models.js';
import { parseDims, parseInputShapes } from '../lib/forms.js';
import { folderName, readHfFolder } from '../lib/hf-folder.js';
import type { FinetuneStack } from '../lib/finetune.js';
import { JobTracker, type JobHub } from './jobs.svelte.js';
import { Action, Resource } from './resource.svelte.js';

/** The fit table's modes: serving formats, mixed-precision training, or LoRA and QLoRA fine-tuning. */
export type FitMode = Mode | 'finetune';

export class WorkloadsState {
  readonly list = new Resource<WorkloadSummaryView[]>();
  readonly catalog = new Resource<CatalogSummary[]>();
  readonly prediction = new Resource<WorkloadPredictionView>();
  /** Memory per serving format or training setup, and the datasheet GPUs that hold it (`fit`). */
  readonly fit = new Resource<FitView>();
  fitMode: FitMode = $state('inference');
  /** Fine-tuning: the tool whose memory rules the rows follow. */
  fitStack: FinetuneStack = $state('peft');
  /** Serving: the engine each format runs on (auto: by the format; ideal: the kernel roofline). */
  fitEngine: EngineChoice = $state('auto');
  readonly adding = new Action();
  readonly removing = new Action();
  readonly measure: JobTracker<MeasuredView>;
  /** The workload shown: a stored name or a catalog name. */
  selected: string | null = $state(null);
  mode: Mode = $state('inference');
  batch = $state(1);
  /** Catalog models: tokens or image size (0 = the model's default). */
  seq = $state(0);
  image = $state(0);
  file: File | null = $state.raw(null);
  /** A Hugging Face model folder's files, as its picker gives them (none: not chosen). */
  folder: readonly File[] = $state.raw([]);
  name = $state('');
  /** Shapes for inputs with symbolic sizes ("x=1x3x48x192") and named dims ("batch=1"). */
  shapes = $state('');
  dims = $state('');
  #client: ApiClient;

  constructor(client: ApiClient, hub: JobHub) {
    this.#client = client;
    this.measure = new JobTracker<MeasuredView>(hub, 'measure', () => this.predict());
  }

  async refresh(): Promise<void> {
    const [list] = await Promise.all([
      this.list.load(() => this.#client.call('workload:list', {})),
      this.catalog.value ? Promise.resolve() : this.catalog.load(() => this.#client.call('workload:catalog', {})),
    ]);
    // Show something at once: the first stored model.
    if (!this.selected && list && list[0]) this.select(list[0].name);
  }

  /** Removes a stored workload (asked first). */
  async remove(name: string, confirm: (question: string) => boolean): Promise<void> {
    if (!confirm(`Remove the workload ${name}?`)) return;
    const r = await this.removing.run(() => this.#client.call('workload:remove', { name }));
    if (!r) return;
    if (this.selected === name) {
      this.selected = null;
      this.prediction.clear();
    }
    await this.refresh();
  }

  catalogEntry(name: string | null): CatalogSummary | undefined {
    return name ? this.catalog.value?.find((c) => c.name === name) : undefined;
  }

  isStored(name: string | null): boolean {
    return !!name && !!this.list.value?.some((w) => w.name === name);
  }

  select(name: string): void {
    this.selected = name;
    const c = this.catalogEntry(name);
    if (c && !this.isStored(name)) {
      this.batch = c.defaults.batch;
      this.seq = c.defaults.seq ?? 0;
      this.image = c.defaults.image ?? 0;
    } else {
      this.seq = 0;
      this.image = 0;
    }
    void this.predict();
  }

  request(machineId?: string): ApiRequest<'workload:predict'> | null {
    if (!this.selected) return null;
    return {
      workload: this.selected,
      mode: this.mode,
      batch: Math.max(1, Math.floor(this.batch) || 1),
      ...(this.seq > 0 ? { seq: Math.floor(this.seq) } : {}),
      ...(this.image > 0 ? { image: Math.floor(this.image) } : {}),
      ...(machineId ? { machineId } : {}),
    };
  }

  async predict(): Promise<void> {
    const req = this.request();
    if (!req) return;
    await this.prediction.load(() => this.#client.call('workload:predict', req));
  }

  /** The selected workload's memory table for the fit mode (and context) chosen. */
  fitRequest(): ApiRequest<'workload:fit'> | null {
    if (!this.selected) return null;
    return {
      workload: this.selected,
      mode: this.fitMode,
      batch: Math.max(1, Math.floor(this.batch) || 1),
      ...(this.seq > 0 ? { context: Math.floor(this.seq) } : {}),
      ...(this.fitMode === 'finetune' ? { finetune: { stack: this.fitStack } } : {}),
      ...(this.fitMode === 'inference' && this.fitEngine !== 'auto' ? { engine: this.fitEngine } : {}),
    };
  }

  async loadFit(): Promise<void> {
    const req = this.fitRequest();
    if (!req) return;
    await this.fit.load(() => this.#client.call('workload:fit', req));
  }

  /** Web mode: the picked file's bytes. Electron: a native dialog and the file's path. */
  async add(): Promise<void> {
    const added = await this.adding.run(async () => {
      const name = this.name.trim();
      const inputs = parseInputShapes(this.shapes);
      if (typeof inputs === 'string') throw new Error(inputs);
      const dims = parseDims(this.dims);
      if (typeof dims === 'string') throw new Error(dims);
      const extra = {
        ...(name ? { name } : {}),
        ...(Object.keys(inputs).length > 0 ? { inputs } : {}),
        ...(Object.keys(dims).length > 0 ? { dims } : {}),
      };
      if (this.#client.transport === 'electron' && !this.file) {
        const picked = await this.#client.call('dialog:open', { purpose: 'onnx' });
        if (!picked) return null;
        return this.#client.call('workload:add', {
          fileName: picked.fileName,
          path: picked.path,
          ...extra,
        });
      }
      const file = this.file;
      if (!file) throw new Error('Choose an .onnx file first.');
      const uploadId = await this.#client.upload(file);
      return this.#client.call('workload:add', { fileName: file.name, uploadId, ...extra });
    });
    if (added) {
      this.file = null;
      await this.#added(added.name);
    }
  }

  /** A Hugging Face model folder: its config.json and safetensors headers are sent, never its weights. */
  async addFolder(): Promise<void> {
    const files = this.folder;
    const added = await this.adding.run(async () => {
      if (files.length === 0) throw new Error('Choose a Hugging Face model folder first.');
      const name = this.name.trim();
      const hfFolder = await readHfFolder(files);
      return this.#client.call('workload:add', {
        fileName: folderName(files) || 'model',
        hfFolder,
        ...(name ? { name } : {}),
      });
    });
    if (added) {
      this.folder = [];
      await this.#added(added.name);
    }
  }

  async #added(name: string): Promise<void> {
    this.name = '';
    this.shapes = '';
    this.dims = '';
    await this.list.load(() => this.#client.call('workload:list', {}));
    this.select(name);
  }

  startMeasure(): Promise<void> {
    const w = this.selected;
    if (!w) return Promise.resolve();
    return this.measure.start(() => this.#client.call('workload:measure', { workload: w }));
  }
}
