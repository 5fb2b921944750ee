/**
 * The channels that work on user files (a model to add, a workload to predict or compare,
 * the stored graphs to list or remove)
 * hand that work to the job executor (the job-runner child in the app), and answer with what
 * it answers: the main thread never parses a user's model.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../../src-main/app/app-core.js';
import type { JobExecutor } from '../../../../src-main/app/jobs/job-manager.js';
import { createUploadStore } from '../../../../src-main/adapters/files/upload-store.js';
import { tempDir } from '../../../helpers/cli.js';

let core: AppCore | null = null;
afterEach(() => {
  core?.close();
  core = null;
});

/** An executor that records what it was given and fails each job with one line. */
function recorder(): { executor: JobExecutor; started: { kind: string; request: unknown }[] } {
  const started: { kind: string; request: unknown }[] = [];
  return {
    started,
    executor: {
      start(kind, request, onMessage) {
        started.push({ kind, request });
        queueMicrotask(() => onMessage({ type: 'failed', message: `ran ${kind} in the runner`, cancelled: false }));
        return { cancel: () => undefined };
      },
    },
  };
}

describe('work on user files', () => {
  it('runs in the job executor: workload:predict, machine:compare, workload:add, workload:list, workload:remove', async () => {
    const { executor, started } = recorder();
    const uploads = createUploadStore();
    core = createAppCore({
      dbPath: path.join(tempDir('pdjv-runner-'), 'db.sqlite'),
      transport: 'http',
      executor,
      uploads,
    });
    const predict = await core.dispatch('workload:predict', { workload: 'bert-base', mode: 'inference' });
    expect(predict).toEqual({ ok: false, error: { code: 'user', message: 'ran predict in the runner' } });
    const compare = await core.dispatch('machine:compare', { machines: ['a', 'b'], workload: 'bert-base' });
    expect(compare).toEqual({ ok: false, error: { code: 'user', message: 'ran compare in the runner' } });
    const add = await core.dispatch('workload:add', { fileName: 'm.onnx', dataBase64: 'AAAA' });
    expect(add).toEqual({ ok: false, error: { code: 'user', message: 'ran workload-add in the runner' } });
    const folder = await core.dispatch('workload:add', { fileName: 'llama', hfFolder: { config: '{}', safetensors: [] } });
    expect(folder).toEqual({ ok: false, error: { code: 'user', message: 'ran workload-add-hf in the runner' } });
    const list = await core.dispatch('workload:list', {});
    expect(list).toEqual({ ok: false, error: { code: 'user', message: 'ran workload-list in the runner' } });
    const remove = await core.dispatch('workload:remove', { name: 'big' });
    expect(remove).toEqual({ ok: false, error: { code: 'user', message: 'ran workload-remove in the runner' } });
    expect(started.map((s) => s.kind)).toEqual([
      'predict',
      'compare',
      'workload-add',
      'workload-add-hf',
      'workload-list',
      'workload-remove',
    ]);
    expect(started[0]?.request).toMatchObject({ workload: 'bert-base', mode: 'inference' });
    // These answers are the request's own: they are not listed as jobs of the Jobs view.
    expect(core.jobs.list()).toEqual([]);
    uploads.close();
  });
});
