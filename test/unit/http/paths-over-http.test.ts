/**
 * Over HTTP a request never names a file on the server: every channel that takes a workload
 * (or a path) refuses a path with one fixed line before touching the filesystem, so the
 * answer is the same for a file that exists, a text file, a folder and nothing at all
 * (workload:add's path one line, a workload that is not a catalog or stored name another).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../src-main/app/app-core.js';
import { PATHS_REFUSED_OVER_HTTP, WORKLOAD_REFUSED_OVER_HTTP } from '../../../src-main/app/handlers/workload-spec.js';
import { tempDir } from '../../helpers/cli.js';
import { machineLab } from '../../helpers/machine-lab.js';

const ONNX = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');

let core: AppCore;
let ids: string[];
let paths: string[];

beforeAll(async () => {
  ({ core, ids } = await machineLab('pdjv-paths-'));
  const dir = tempDir('pdjv-paths-files-');
  const model = path.join(dir, 'real.onnx');
  writeFileSync(model, readFileSync(ONNX));
  const text = path.join(dir, 'notes.onnx');
  writeFileSync(text, 'just some text\n');
  mkdirSync(path.join(dir, 'folder.onnx'));
  paths = [
    model,
    text,
    path.join(dir, 'folder.onnx'),
    path.join(dir, 'missing.onnx'),
    '/etc/passwd',
    '/etc/shadow',
    '/nonexistent/file.onnx',
    'relative/model.onnx',
    'cwd-model.onnx',
    '../../x.gguf',
  ];
});

afterAll(() => core.close());

/** Every request of the API that takes a workload or a path, for one path. */
function requests(p: string): [string, unknown][] {
  return [
    ['workload:predict', { workload: p, mode: 'inference' }],
    ['workload:add', { fileName: 'm.onnx', path: p }],
    ['workload:measure', { workload: p }],
    ['machine:compare', { machines: ids.slice(0, 2), workload: p }],
    ['plan:create', { workload: p, batch: 1, devices: 'all', mode: 'inference' }],
  ];
}

describe('paths over HTTP', () => {
  it('are refused with one fixed line, the same for existing and missing files, on every channel', async () => {
    expect(PATHS_REFUSED_OVER_HTTP.split('\n')).toHaveLength(1);
    for (const p of paths) {
      for (const [channel, req] of requests(p)) {
        const r = await core.dispatch(channel, req);
        const message = channel === 'workload:add' ? PATHS_REFUSED_OVER_HTTP : WORKLOAD_REFUSED_OVER_HTTP;
        expect({ channel, p, r }).toEqual({ channel, p, r: { ok: false, error: { code: 'user', message } } });
      }
    }
    // Nothing was started (only the lab's two imports are jobs), so no job can tell either.
    expect(core.jobs.list().map((j) => j.kind)).toEqual(['import', 'import']);
  });

  it('still take catalog and stored workload names', async () => {
    const r = await core.dispatch('plan:create', {
      workload: 'bert-base',
      batch: 1,
      devices: 'all',
      mode: 'inference',
    });
    expect(r.ok).toBe(true);
  });
});
