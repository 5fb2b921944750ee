/** Profiling this machine's devices: the form, the running job, stored runs and rooflines. */
import type { ApiClient } from '../../../src-main/api/client.js';
import type {
  ProfileEstimateView,
  ProfileResultView,
  RooflineView,
  RunView,
} from '../../../src-main/api/view-models.js';
import { parseThreads } from '../lib/forms.js';
import { JobTracker, type JobHub } from './jobs.svelte.js';
import { Resource } from './resource.svelte.js';

/** What a finished profile job answers. */
export type ProfileResult = ProfileResultView;

export type Suite = 'quick' | 'standard' | 'thorough';

/** ONNX Runtime, PyTorch (a Python with torch on this machine), or both. */
export type ProfileBackend = 'ort' | 'torch' | 'all';

export class ProfileState {
  readonly runs = new Resource<RunView[]>();
  readonly roofline = new Resource<RooflineView[]>();
  /** What the profile in the form is expected to take here (the CLI's start-line estimate). */
  readonly estimate = new Resource<ProfileEstimateView>();
  readonly job: JobTracker<ProfileResult>;
  device = $state('cpu');
  suite: Suite = $state('quick');
  threads = $state('');
  backend: ProfileBackend = $state('ort');
  formError: string | null = $state(null);
  #client: ApiClient;

  constructor(client: ApiClient, hub: JobHub, onProfiled: () => void) {
    this.#client = client;
    this.job = new JobTracker<ProfileResult>(hub, 'profile', async () => {
      await this.refresh();
      onProfiled();
    });
  }

  refresh(): Promise<unknown> {
    return Promise.all([
      this.runs.load(() => this.#client.call('profile:runs', {})),
      this.roofline.load(() => this.#client.call('profile:roofline', {})),
      this.loadEstimate(),
    ]);
  }

  /** The estimate of the profile the form describes; none while its threads do not parse. */
  loadEstimate(): Promise<unknown> {
    const threads = parseThreads(this.threads);
    if (typeof threads === 'string') return Promise.resolve();
    const req = {
      device: this.device,
      suite: this.suite,
      ...(threads ? { threads } : {}),
      ...(this.backend !== 'ort' ? { backend: this.backend } : {}),
    };
    return this.estimate.load(() => this.#client.call('profile:estimate', req));
  }

  /** Device keys with a measured roofline here. */
  get profiledDevices(): string[] {
    return [...new Set((this.roofline.value ?? []).map((r) => r.deviceKey))];
  }

  async start(): Promise<void> {
    const threads = parseThreads(this.threads);
    if (typeof threads === 'string') {
      this.formError = threads;
      return;
    }
    this.formError = null;
    await this.job.start(() =>
      this.#client.call('profile:start', {
        device: this.device,
        suite: this.suite,
        ...(threads ? { threads } : {}),
        ...(this.backend !== 'ort' ? { backend: this.backend } : {}),
      }),
    );
  }
}
