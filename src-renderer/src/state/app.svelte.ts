/** The renderer's state: the client, the job hub, one state class per view, the current view. */
import type { ApiClient } from '../../../src-main/api/client.js';
import { downloadText } from '../lib/files.js';
import type { AppInfo } from '../../../src-main/api/view-models.js';
import { BRIDGE_KEY, type PreloadBridge } from '../../../src-main/api/bridge.js';
import { isViewId, viewFromHash, type ViewId } from '../lib/nav.js';
import { JobHub, snapshotOf, type JobTracker } from './jobs.svelte.js';
import { LibraryState } from './library.svelte.js';
import { PlansState } from './plans.svelte.js';
import { PredictorState } from './predictor.svelte.js';
import { ProfileState } from './profile.svelte.js';
import { Resource } from './resource.svelte.js';
import { ServingState } from './serving.svelte.js';
import { Theme } from './theme.svelte.js';
import { WorkloadsState } from './workloads.svelte.js';
import { WorkstationState } from './workstation.svelte.js';

export class AppState {
  readonly client: ApiClient;
  readonly hub: JobHub;
  readonly theme = new Theme();
  readonly info = new Resource<AppInfo>();
  readonly workstation: WorkstationState;
  readonly profile: ProfileState;
  readonly predictor: PredictorState;
  readonly workloads: WorkloadsState;
  readonly plans: PlansState;
  readonly serving: ServingState;
  readonly library: LibraryState;
  view: ViewId = $state(viewFromHash(window.location.hash));

  constructor(client: ApiClient) {
    this.client = client;
    this.hub = new JobHub(client);
    this.library = new LibraryState(
      client,
      () => void this.workstation.load(),
      (fileName, text) => downloadText(fileName, text),
    );
    this.workstation = new WorkstationState(client, () => void this.library.refresh());
    this.profile = new ProfileState(client, this.hub, () => {
      void this.workstation.load();
      void this.library.refresh();
    });
    this.predictor = new PredictorState(client, this.hub);
    this.workloads = new WorkloadsState(client, this.hub);
    // Until the user chooses, plans default to the profiled local devices and the first workload.
    this.plans = new PlansState(client, this.hub, () => ({
      localDevices: this.profile.profiledDevices,
      workload: this.workloads.list.value?.[0]?.name ?? this.workloads.catalog.value?.[0]?.name ?? '',
    }));
    // Until the user chooses, the Serving view sizes the first catalog model that takes tokens.
    this.serving = new ServingState(
      client,
      () => this.workloads.catalog.value?.find((c) => c.input === 'tokens')?.name ?? '',
    );
  }

  async init(): Promise<void> {
    this.hub.connect();
    window.addEventListener('hashchange', () => {
      this.view = viewFromHash(window.location.hash);
    });
    // The desktop app's Go menu (Ctrl+1..7).
    const bridge = (window as unknown as Record<string, PreloadBridge | undefined>)[BRIDGE_KEY];
    bridge?.onMenuNavigate((view) => {
      if (isViewId(view)) this.go(view);
    });
    await Promise.all([
      this.info.load(() => this.client.call('app:info', {})),
      this.workstation.load(),
      this.library.refresh(),
      this.#resumeJobs(),
    ]);
  }

  go(view: ViewId): void {
    this.view = view;
    const hash = `#/${view}`;
    if (window.location.hash !== hash) window.history.replaceState(window.history.state, '', hash);
  }

  /** After a reload, follow the jobs still running on the server. */
  async #resumeJobs(): Promise<void> {
    let jobs;
    try {
      jobs = await this.client.call('job:list', {});
    } catch {
      return;
    }
    const trackers: Record<string, JobTracker<unknown> | undefined> = {
      profile: this.profile.job as JobTracker<unknown>,
      train: this.predictor.train as JobTracker<unknown>,
      evaluate: this.predictor.evaluate as JobTracker<unknown>,
      plan: this.plans.job as JobTracker<unknown>,
      measure: this.workloads.measure as JobTracker<unknown>,
    };
    for (const j of jobs) {
      const t = trackers[j.kind];
      if (j.state === 'running' && t && !t.running) t.attach(j.id, snapshotOf(j));
    }
  }
}
