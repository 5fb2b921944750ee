/** The plan form and the plan job. */
import type { ApiClient } from '../../../src-main/api/client.js';
import type { DatasheetGpuView, Plan, PlanView } from '../../../src-main/api/view-models.js';
import type { TrainingStack } from '../../../src-main/api/contract.js';
import { gpuMatchesSearch } from '../../../src-main/api/gpu-search.js';
import { assumptionsLine, stackLines } from '../../../src-main/api/text.js';
import { planRequest, type PlanMode, type ServingForm } from '../lib/forms.js';
import { DEFAULT_FINETUNE_FORM, type FinetuneForm, type LoraTarget } from '../lib/finetune.js';
import { JobTracker, type JobHub } from './jobs.svelte.js';

/** What the form shows until the user chooses: the profiled local devices and the first workload. */
export interface PlanDefaults {
  localDevices: readonly string[];
  workload: string;
}

export class PlansState {
  readonly job: JobTracker<PlanView>;
  #workload: string | null = $state(null);
  mode: PlanMode = $state('training');
  /** The batch the user chose; null until they choose (then 1 sequence when serving, 8 samples when training). */
  #chosenBatch: number | null = $state(null);
  /** Tokens per sequence (serving a decoder: the prompt unless Prompt tokens is given); empty: the model's default. */
  seq: number | string | null = $state('');
  /** Serving a decoder (inference): weight format, objective, output and prompt tokens; empty: the defaults. */
  serving: ServingForm = $state({ weights: '', engine: 'auto', objective: 'latency', tokens: '', prompt: '' });
  /** Fine-tuning (mode finetune): adapter, rank, alpha ('' for 2 x rank), targets (none: all) and stack. */
  finetune: FinetuneForm = $state({ ...DEFAULT_FINETUNE_FORM, targets: [] });
  /** The local devices the user chose; null until they choose (then the profiled ones are shown). */
  #chosenLocal: string[] | null = $state(null);
  machines: string[] = $state([]);
  /** How many of each datasheet GPU the user chose, by name (0: none). */
  virtualCounts: Record<string, number> = $state({});
  /** The datasheet picker's search, matched as `--virtual` matches names ("4090", "h100 sxm"). */
  gpuSearch = $state('');
  network = $state('');
  topN = $state(5);
  offload: 'auto' | 'yes' | 'no' = $state('auto');
  /** ZeRO stage (training): auto searches 1, 2 and 3. */
  zero: 'auto' | '0' | '1' | '2' | '3' = $state('auto');
  /** Training: the stack that runs it; '' for any. */
  stack: '' | TrainingStack = $state('');
  /** Catalog models: the dtype to build them in; '' for the catalog's. */
  dtype: '' | 'fp32' | 'fp16' | 'bf16' | 'fp8' = $state('');
  /** The user's layout, priced beside the best plan; empty for none. */
  layout = $state('');
  formError: string | null = $state(null);
  /** Index into the result's plans for the memory chart. */
  selectedPlan = $state(0);
  #client: ApiClient;
  #defaults: () => PlanDefaults;

  constructor(
    client: ApiClient,
    hub: JobHub,
    defaults: () => PlanDefaults = () => ({ localDevices: [], workload: '' }),
  ) {
    this.#client = client;
    this.#defaults = defaults;
    this.job = new JobTracker<PlanView>(hub, 'plan', (t) => {
      const plans = t.result?.plans ?? [];
      const best = plans.findIndex((p) => p.feasible);
      this.selectedPlan = best >= 0 ? best : 0;
    });
  }

  get workload(): string {
    return this.#workload || this.#defaults().workload;
  }

  set workload(name: string) {
    this.#workload = name;
  }

  /** The batch the form shows: the one chosen, else the service's default for the mode. */
  get batch(): number {
    return this.#chosenBatch ?? (this.mode === 'inference' ? 1 : 8);
  }

  /** A number chooses the batch; an emptied field (null, NaN) goes back to the default. */
  set batch(n: number | null) {
    this.#chosenBatch = n === null || Number.isNaN(n) ? null : n;
  }

  get localDevices(): readonly string[] {
    return this.#chosenLocal ?? this.#defaults().localDevices;
  }

  toggleLocal(key: string): void {
    const now = this.localDevices;
    this.#chosenLocal = now.includes(key) ? now.filter((k) => k !== key) : [...now, key];
  }

  /** Checks or unchecks a LoRA target (none checked: every one the model has). */
  toggleTarget(t: LoraTarget): void {
    const now = this.finetune.targets;
    this.finetune.targets = now.includes(t) ? now.filter((x) => x !== t) : [...now, t];
  }

  toggleMachine(id: string): void {
    this.machines = this.machines.includes(id) ? this.machines.filter((k) => k !== id) : [...this.machines, id];
  }

  /** Sets how many of a datasheet GPU to plan on; an empty field (NaN) is none. */
  setVirtualCount(name: string, n: number): void {
    this.virtualCounts = { ...this.virtualCounts, [name]: Number.isNaN(n) ? 0 : n };
  }

  /** The datasheet GPUs the picker shows: those the search matches, and those already chosen. */
  shownGpus(all: readonly DatasheetGpuView[]): DatasheetGpuView[] {
    return all.filter((g) => gpuMatchesSearch(g, this.gpuSearch) || (this.virtualCounts[g.name] ?? 0) > 0);
  }

  /** The chosen datasheet GPUs with their counts, those above 0 only. */
  get virtualChosen(): [name: string, count: number][] {
    return Object.entries(this.virtualCounts).filter(([, n]) => n > 0);
  }

  /** The result's plans that fit, each with its index in the result's plans (its rank); [] before a result. */
  get fitting(): { plan: Plan; index: number }[] {
    return (this.job.result?.plans ?? []).flatMap((plan, index) => (plan.feasible ? [{ plan, index }] : []));
  }

  /** A result came back with no plan that fits: the view says so, as `plan` does, and shows what would fit. */
  get noneFits(): boolean {
    return this.job.result !== null && this.fitting.length === 0;
  }

  /** What the result's figures rest on, in the words `plan` prints; null before a result. */
  get assumptions(): string | null {
    const v = this.job.result;
    return v ? assumptionsLine(v.assumptions) : null;
  }

  /** A training plan's stack and what it assumes (its optimizer step among them), as `plan` prints it; null otherwise. */
  get stackLine(): string | null {
    const v = this.job.result;
    return v ? (stackLines(v.assumptions)[0] ?? null) : null;
  }

  async run(): Promise<void> {
    const r = planRequest({
      workload: this.workload,
      mode: this.mode,
      // Sent only when chosen: the plan then marks the service's default as one ("batch 8 (default)").
      batch: this.#chosenBatch,
      seq: this.seq,
      localDevices: this.localDevices,
      machines: this.machines,
      virtual: this.virtualCounts,
      network: this.network,
      topN: this.topN,
      offload: this.offload,
      zero: this.zero,
      stack: this.stack,
      dtype: this.dtype,
      layout: this.layout,
      serving: this.serving,
      finetune: this.finetune,
    });
    if (!r.ok) {
      this.formError = r.error;
      return;
    }
    this.formError = null;
    await this.job.start(() => this.#client.call('plan:create', r.request));
  }
}
