/** Execution-time predictors: training, evaluation and the last report. */
import type { ApiClient } from '../../../src-main/api/client.js';
import type { EvaluationView, PredictorView, TrainResultView } from '../../../src-main/api/view-models.js';
import { JobTracker, type JobHub } from './jobs.svelte.js';
import { Resource } from './resource.svelte.js';

export class PredictorState {
  readonly list = new Resource<PredictorView[]>();
  readonly report = new Resource<EvaluationView | null>();
  readonly train: JobTracker<TrainResultView>;
  readonly evaluate: JobTracker<EvaluationView>;
  k = $state(5);
  sklearn = $state(false);
  protocol = $state('grouped-kfold');
  /** Predictors shown in the scatter; empty means all. */
  hidden: string[] = $state([]);
  #client: ApiClient;

  constructor(client: ApiClient, hub: JobHub) {
    this.#client = client;
    this.train = new JobTracker<TrainResultView>(hub, 'train', async () => {
      await this.refresh();
    });
    this.evaluate = new JobTracker<EvaluationView>(hub, 'evaluate', async (t) => {
      if (t.result) this.report.set(t.result);
      await this.list.load(() => this.#client.call('predictor:list', {}));
    });
  }

  refresh(): Promise<unknown> {
    return Promise.all([
      this.list.load(() => this.#client.call('predictor:list', {})),
      this.report.load(() => this.#client.call('predictor:report', {})),
    ]);
  }

  startTrain(): Promise<void> {
    return this.train.start(() => this.#client.call('predictor:train', {}));
  }

  startEvaluate(): Promise<void> {
    return this.evaluate.start(() =>
      this.#client.call('predictor:evaluate', { k: this.k, ...(this.sklearn ? { sklearn: true } : {}) }),
    );
  }

  toggle(name: string): void {
    this.hidden = this.hidden.includes(name) ? this.hidden.filter((n) => n !== name) : [...this.hidden, name];
  }
}
