/**
 * Over HTTP a workload is a catalog name or a stored workload's, nothing else: on every channel of
 * the contract that takes one, ".", "..", "config.json", a subfolder's name or an absolute path is
 * refused with one fixed line by the real server, while its working folder (the job runners' too)
 * holds a config.json and model folders, one of them broken. No answer gives a parameter count, the
 * folder's name or a file's content, and no job starts. A stored Hugging Face folder is read from
 * the store, never from a same-named folder in the server's working folder. A Hugging Face folder
 * uploaded as its config.json and safetensors headers (workload:add hfFolder) is then a stored name
 * like any other; a hostile one is refused with one line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, type ChannelName } from '../../../src-main/api/contract.js';
import { createAppCore, type AppCore } from '../../../src-main/app/app-core.js';
import { WORKLOAD_REFUSED_OVER_HTTP } from '../../../src-main/app/handlers/workload-spec.js';
import type { RunningServer } from '../../../src-main/http/server.js';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';
import { addWorkload } from '../../../src-main/services/workload/workload-service.js';
import { tinyLlama } from '../../helpers/hf-configs.js';
import { llamaTensors, safetensorsHeader, type LlamaShape, type TensorSpec } from '../../helpers/safetensors.js';
import { tempDir } from '../../helpers/cli.js';
import { serveCore } from '../../helpers/http-server.js';

const TOKEN = 'test-token-names-0123456789abcdef';
/** In the working folder's files: no answer may quote it. */
const SECRET = 'TOPSECRET-cwd-content';

const tiny = (hidden: number): Record<string, unknown> => ({ ...tinyLlama(hidden), _name_or_path: `org/${SECRET}` });

function folder(dir: string, name: string, text: string): void {
  mkdirSync(path.join(dir, name), { recursive: true });
  writeFileSync(path.join(dir, name, 'config.json'), text);
}

/** A valid request of each channel that takes a workload, for one workload. */
const REQUESTS: Partial<Record<ChannelName, (workload: string) => unknown>> = {
  'workload:predict': (workload) => ({ workload, mode: 'inference' }),
  'workload:fit': (workload) => ({ workload, mode: 'inference' }),
  'workload:measure': (workload) => ({ workload }),
  'machine:compare': (workload) => ({ machines: ['machine-a', 'machine-b'], workload }),
  'plan:create': (workload) => ({ workload, batch: 1, devices: 'none', mode: 'inference', virtual: ['H100 SXM5'] }),
  'serving:plan': (workload) => ({
    workload,
    rate: 1,
    slo: [{ metric: 'ttft', percentile: 'p90', ms: 1000 }],
    gpus: ['H100 SXM5'],
  }),
};

/** Every channel whose request has a `workload` field, read off the contract. */
function workloadChannels(): string[] {
  return Object.entries(CHANNELS)
    .filter(([, c]) => 'workload' in ((c.request as unknown as { shape?: object }).shape ?? {}))
    .map(([name]) => name)
    .sort();
}

const before = process.cwd();
let cwd: string;
let core: AppCore;
let server: RunningServer;
let storedParams: number;

async function post(channel: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${server.port}/api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pipedejavu-token': TOKEN },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  const root = tempDir('pdjv-names-http-');
  cwd = path.join(root, 'server-folder-NAME');
  mkdirSync(cwd);
  writeFileSync(path.join(cwd, 'config.json'), JSON.stringify(tiny(128)));
  folder(cwd, 'sub', JSON.stringify(tiny(128)));
  folder(cwd, 'broken', `${SECRET} is not JSON`);
  folder(cwd, 'tiny', JSON.stringify(tiny(256)));
  writeFileSync(path.join(cwd, 'model.onnx'), SECRET);
  // A Hugging Face folder stored as `workload add ../models/tiny` stores it, elsewhere than the server's folder.
  folder(root, 'models/tiny', JSON.stringify(tiny(64)));
  const dbPath = path.join(root, 'store', 'db.sqlite');
  mkdirSync(path.dirname(dbPath));
  const db = openDatabase(dbPath);
  const added = addWorkload(db, path.join(root, 'models', 'tiny'), { seq: 8 });
  storedParams = added.workload.nodes.reduce((s, n) => s + n.params, 0);
  db.close();
  // The server and its job runners work in the folder full of bait.
  process.chdir(cwd);
  core = createAppCore({ dbPath, transport: 'http' });
  server = await serveCore(core, { token: TOKEN, rendererDir: path.join(root, 'renderer') });
});

afterAll(async () => {
  await server.close();
  core.close();
  process.chdir(before);
});

describe('workload names over HTTP', () => {
  it('covers every channel of the contract that takes a workload', () => {
    expect(workloadChannels()).toEqual(Object.keys(REQUESTS).sort());
  });

  it('refuses anything but a catalog or stored name with one fixed line, telling nothing of the server folder', async () => {
    expect(WORKLOAD_REFUSED_OVER_HTTP.split('\n')).toHaveLength(1);
    const specs = [
      '.',
      '..',
      'config.json',
      'sub',
      'broken',
      'model.onnx',
      './tiny',
      'sub/config.json',
      cwd,
      path.join(cwd, 'config.json'),
      path.join(cwd, 'broken'),
      'no-such-model',
    ];
    for (const [channel, request] of Object.entries(REQUESTS)) {
      for (const spec of specs) {
        const r = await post(channel, request(spec));
        expect({ channel, spec, status: r.status, answer: JSON.parse(r.text) as unknown }).toEqual({
          channel,
          spec,
          status: 200,
          answer: { ok: false, error: { code: 'user', message: WORKLOAD_REFUSED_OVER_HTTP } },
        });
        for (const told of [SECRET, path.basename(cwd), '"params"', 'config.json'])
          expect({ channel, spec, leaks: r.text.includes(told) }).toEqual({ channel, spec, leaks: false });
      }
    }
    // Refused before anything ran: no job was started, so no job can tell either.
    expect(JSON.parse((await post('job:list', {})).text)).toEqual({ ok: true, value: [] });
  }, 60_000);

  it('reads a stored Hugging Face folder from the store, not the same-named folder in the working folder', async () => {
    const r = await post('workload:fit', { workload: 'tiny', mode: 'inference' });
    const answer = JSON.parse(r.text) as { ok: boolean; value: { model: string; params: number } };
    expect(answer).toMatchObject({ ok: true, value: { model: 'tiny' } });
    expect(answer.value.params).toBe(storedParams);
    expect(r.text).not.toContain(path.basename(cwd));
    expect(r.text).not.toContain(SECRET);
  }, 60_000);

  it('takes a catalog name while a same-named folder sits in the working folder', async () => {
    mkdirSync(path.join(cwd, 'gpt2-small'));
    writeFileSync(path.join(cwd, 'gpt2-small', 'config.json'), `${SECRET}`);
    const r = await post('workload:fit', { workload: 'gpt2-small', mode: 'inference' });
    expect(JSON.parse(r.text)).toMatchObject({ ok: true, value: { model: 'gpt2-small' } });
    expect(r.text).not.toContain(SECRET);
  }, 60_000);
});

/** A safetensors file as the app's folder picker sends it: its name, whole size and header text. */
function sent(fileName: string, tensors: readonly TensorSpec[]): { fileName: string; bytes: number; header: string } {
  const { header, dataBytes } = safetensorsHeader(tensors);
  const text = JSON.stringify(header);
  return { fileName, bytes: 8 + Buffer.byteLength(text) + dataBytes, header: text };
}

async function answer(
  channel: string,
  body: unknown,
): Promise<{ ok: boolean; value?: unknown; error?: { message: string } }> {
  return JSON.parse((await post(channel, body)).text) as { ok: boolean; value?: unknown; error?: { message: string } };
}

async function finished(jobId: string): Promise<{ state: string; error: string | null }> {
  for (;;) {
    const job = (await answer('job:get', { jobId })).value as { state: string; error: string | null };
    if (job.state !== 'running') return job;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a Hugging Face folder uploaded over HTTP', () => {
  const config = { ...tiny(128), _name_or_path: 'org/up' };
  const weights = sent('model.safetensors', llamaTensors(config as unknown as LlamaShape));

  it('is added as its config.json and safetensors headers, then fitted and planned by its name', async () => {
    const added = await answer('workload:add', {
      fileName: 'up-folder',
      hfFolder: { config: JSON.stringify(config), safetensors: [weights] },
    });
    expect(added).toMatchObject({ ok: true, value: { name: 'up-folder' } });
    const fit = await answer('workload:fit', { workload: 'up-folder', mode: 'inference' });
    expect(fit).toMatchObject({ ok: true, value: { model: 'up-folder' } });
    const predicted = await answer('workload:predict', { workload: 'up-folder', mode: 'inference' });
    expect(predicted.error?.message ?? '').not.toBe(WORKLOAD_REFUSED_OVER_HTTP);
    const plan = await answer('plan:create', REQUESTS['plan:create']?.('up-folder'));
    expect(plan).toMatchObject({ ok: true, value: { jobId: expect.any(String) } });
    expect(await finished((plan.value as { jobId: string }).jobId)).toMatchObject({ state: 'done', error: null });
  }, 60_000);

  it('refuses each hostile folder with one line', async () => {
    const many = Array.from(
      { length: 200_000 },
      (_, i) => `"t${i}":{"dtype":"F16","shape":[1],"data_offsets":[${2 * i},${2 * i + 2}]}`,
    );
    const header = `{${many.join(',')}}`;
    const cases: [unknown, RegExp][] = [
      [{ config: 'not json', safetensors: [] }, /^bad\/config\.json is not JSON \(/],
      [
        { config: JSON.stringify({ model_type: 'nope' }), safetensors: [] },
        /model_type "nope" is not supported; supported: /,
      ],
      [
        {
          config: JSON.stringify(config),
          safetensors: [{ fileName: 'many.safetensors', bytes: 8 + header.length + 400_000, header }],
        },
        /^bad\/many\.safetensors: its safetensors header holds more than 100,000 tensors/,
      ],
      [
        { config: JSON.stringify(config), safetensors: [{ ...weights, bytes: weights.bytes - 2 }] },
        /^bad\/model\.safetensors: tensor ".+" data_offsets .* fall outside the data area .*: the header lies$/,
      ],
      [
        { config: JSON.stringify(config), safetensors: [{ ...weights, fileName: '../model.safetensors' }] },
        /fileName: a \.safetensors file name/,
      ],
      [
        { config: JSON.stringify(config), safetensors: [{ ...weights, fileName: 'a\nb.safetensors' }] },
        /fileName: a \.safetensors file name/,
      ],
    ];
    for (const [hfFolder, expected] of cases) {
      const r = await answer('workload:add', { fileName: 'bad', hfFolder });
      expect(r.ok).toBe(false);
      const message = r.error?.message ?? '';
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toMatch(expected);
    }
    expect((await answer('workload:list', {})).value).not.toContainEqual(expect.objectContaining({ name: 'bad' }));
  }, 60_000);
});
