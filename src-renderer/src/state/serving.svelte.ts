/** The Serving view: the capacity form, the search's answer, the deployment whose curve is drawn. */
import type { ApiClient } from '../../../src-main/api/client.js';
import type { DatasheetGpuView, ServingDeploymentView, ServingPlanView } from '../../../src-main/api/view-models.js';
import { gpuMatchesSearch } from '../../../src-main/api/gpu-search.js';
import { SERVING_TRACE_MAX_BYTES } from '../../../src-main/api/contract.js';
import { lengthFieldValue, type LengthField } from '../../../src-main/api/length-spec.js';
import { formatBytes } from '../lib/format.js';
import type { LatencyMetric, LatencySlo, RatePoint } from '../lib/latency-rate.js';
import { DEFAULT_SLO, servingPlanRequest, type GpuChoice, type SloRow } from '../lib/serving-form.js';
import { chartSlo, curvePoints, pricesNote } from '../lib/serving-text.js';
import { Resource } from './resource.svelte.js';

/** What the chart of the chosen deployment draws. */
export interface ServingChart {
  points: RatePoint[];
  slo: Record<LatencyMetric, LatencySlo[]>;
  breakRate: number | null;
  band: { low: number; high: number } | null;
}

export class ServingState {
  /** The model; '' until the user chooses (then the first catalog decoder is shown). */
  #workload = $state('');
  engine = $state('auto');
  /** Requests per second; emptied with a trace chosen: a JSONL trace's own mean rate (serve-plan --trace without --rate). */
  rate: number | string | null = $state(20);
  /** Lengths as `serve-plan --prompt/--output` take them: 2000, 1000-3000, lognormal:2000:0.6. */
  prompt: number | string | null = $state('2000');
  output: number | string | null = $state('300');
  /** The gaps' coefficient of variation; empty: Poisson. */
  burst: number | string | null = $state('');
  /** A chosen trace file's name and text (its rows give the lengths, a JSONL's the arrivals); null: none. */
  trace: { fileName: string; text: string } | null = $state(null);
  /** Why the chosen trace file was not taken; null when it was (or none was chosen). */
  traceError: string | null = $state(null);
  weights = $state('');
  /** The KV cache's dtype: the model's (auto) or fp8. */
  kvCache: 'auto' | 'fp8' = $state('auto');
  slo: SloRow[] = $state(DEFAULT_SLO.map((r) => ({ ...r })));
  /** The candidate GPUs by datasheet name (none: the service's default list). */
  gpus: Record<string, GpuChoice> = $state({});
  gpuSearch = $state('');
  top = $state(5);
  formError: string | null = $state(null);
  readonly result = new Resource<ServingPlanView>();
  /** Index of the listed deployment whose curve is drawn. */
  #selected = $state(0);
  /** The answer to a request sent with a trace and no rate (its rate is the trace's own mean). */
  #tracedRateAnswer: ServingPlanView | undefined = $state.raw(undefined);
  #client: ApiClient;
  #defaultWorkload: () => string;

  constructor(client: ApiClient, defaultWorkload: () => string = () => '') {
    this.#client = client;
    this.#defaultWorkload = defaultWorkload;
  }

  get workload(): string {
    return this.#workload || this.#defaultWorkload();
  }

  set workload(name: string) {
    this.#workload = name;
  }

  /** The deployments listed: those that meet the SLO, else the closest one alone; [] before an answer. */
  get listed(): ServingDeploymentView[] {
    const v = this.result.value;
    if (!v) return [];
    return v.deployments.length > 0 ? v.deployments : v.closest ? [v.closest] : [];
  }

  /** An answer came back and nothing met the SLO. */
  get noneMeets(): boolean {
    return this.result.value !== undefined && this.result.value.deployments.length === 0;
  }

  get selected(): number {
    return Math.min(this.#selected, Math.max(0, this.listed.length - 1));
  }

  select(i: number): void {
    this.#selected = i;
  }

  get deployment(): ServingDeploymentView | null {
    return this.listed[this.selected] ?? null;
  }

  /** The chosen deployment's latency-vs-rate curve, its caps, breaking rate and band; null before an answer. */
  get chart(): ServingChart | null {
    const d = this.deployment;
    const v = this.result.value;
    if (!d || !v) return null;
    return {
      points: curvePoints(d.curve),
      slo: chartSlo(v.slo),
      breakRate: d.breaksAt,
      band: d.band ? { low: d.band.low, high: d.band.high } : null,
    };
  }

  /** The answer's rate is the trace's own mean (the request sent a trace and no rate). */
  get rateOfTrace(): boolean {
    return this.result.value !== undefined && this.result.value === this.#tracedRateAnswer;
  }

  /** Where the prices came from ("Prices are defaults from SOURCE, DATE ..."); null before an answer. */
  get pricesNote(): string | null {
    return this.result.value ? pricesNote(this.result.value.prices) : null;
  }

  /** The length field's one-line error (the CLI parser's words), null when it is empty or good. */
  lengthError(field: LengthField): string | null {
    const v = lengthFieldValue(field === 'prompt' ? this.prompt : this.output, field);
    return v.ok ? null : v.error;
  }

  /** Takes a trace file chosen in the browser as its text, within what the request carries. */
  async chooseTrace(file: { name: string; size: number; text(): Promise<string> }): Promise<void> {
    this.trace = null;
    this.traceError = null;
    if (file.size > SERVING_TRACE_MAX_BYTES) {
      this.traceError = `${file.name} is ${formatBytes(file.size)}, over the ${SERVING_TRACE_MAX_BYTES / 2 ** 20} MiB the app sends: cut it to its first rows (a plan replays only its first 200), or run pipedejavu serve-plan --trace FILE`;
      return;
    }
    if (file.size === 0) {
      this.traceError = `${file.name} is empty: write one JSON row a request, or a ShareGPT JSON array`;
      return;
    }
    this.trace = { fileName: file.name, text: await file.text() };
  }

  clearTrace(): void {
    this.trace = null;
    this.traceError = null;
  }

  /** The datasheet GPUs the picker shows: those the search matches, and those already chosen. */
  shownGpus(all: readonly DatasheetGpuView[]): DatasheetGpuView[] {
    return all.filter((g) => gpuMatchesSearch(g, this.gpuSearch) || this.gpus[g.name] !== undefined);
  }

  toggleGpu(name: string): void {
    const { [name]: was, ...rest } = this.gpus;
    this.gpus = was ? rest : { ...this.gpus, [name]: { perReplica: 0, price: '' } };
  }

  /** At most `n` GPUs a replica (an emptied field, NaN, is any). */
  setPerReplica(name: string, n: number): void {
    const c = this.gpus[name];
    if (c) this.gpus = { ...this.gpus, [name]: { ...c, perReplica: Number.isNaN(n) ? 0 : n } };
  }

  setPrice(name: string, price: string): void {
    const c = this.gpus[name];
    if (c) this.gpus = { ...this.gpus, [name]: { ...c, price } };
  }

  async run(): Promise<void> {
    const r = servingPlanRequest({
      workload: this.workload,
      engine: this.engine,
      rate: this.rate,
      prompt: this.prompt,
      output: this.output,
      burst: this.burst,
      trace: this.trace,
      weights: this.weights,
      kvCache: this.kvCache,
      slo: this.slo,
      gpus: this.gpus,
      top: this.top,
    });
    if (!r.ok) {
      this.formError = r.error;
      return;
    }
    this.formError = null;
    this.#selected = 0;
    const v = await this.result.load(() => this.#client.call('serving:plan', r.request));
    if (v && r.request.rate === undefined) this.#tracedRateAnswer = v;
  }
}
