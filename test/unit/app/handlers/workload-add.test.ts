/** workload:add refuses what `pipedejavu workload add` refuses: a stored name without replace, a catalog name. */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../../src-main/app/app-core.js';
import { tempDir } from '../../../helpers/cli.js';

const ONNX = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');

let core: AppCore | null = null;
afterEach(() => {
  core?.close();
  core = null;
});

describe('workload:add', () => {
  it('gives an error result for a stored name unless replace, and for a catalog name', async () => {
    core = createAppCore({
      dbPath: path.join(tempDir('pdjv-app-'), 'db.sqlite'),
      transport: 'http',
      inProcessJobs: true,
    });
    const { dispatch, deps } = core;
    const req = {
      fileName: 'cls.onnx',
      dataBase64: readFileSync(ONNX).toString('base64'),
      inputs: { x: [1, 3, 48, 192] },
    };
    expect(await dispatch('workload:add', req)).toMatchObject({ ok: true, value: { name: 'cls' } });
    const again = await dispatch('workload:add', req);
    expect(again).toMatchObject({
      ok: false,
      error: { code: 'user', message: expect.stringMatching(/^a workload named "cls" is stored already/) },
    });
    // The refused upload is not left behind.
    expect(readdirSync(path.join(deps.dataDir, 'models'))).toEqual(['cls.onnx']);
    expect(await dispatch('workload:add', { ...req, replace: true })).toMatchObject({ ok: true });
    expect(await dispatch('workload:add', { ...req, name: 'gpt2-small' })).toEqual({
      ok: false,
      error: {
        code: 'user',
        message: '"gpt2-small" is the name of a catalog model, which would hide this workload; give another name',
      },
    });
  });

  it('keeps base64 bytes larger than one decoded piece exactly, with line breaks, and refuses empty bytes', async () => {
    core = createAppCore({
      dbPath: path.join(tempDir('pdjv-app-'), 'db.sqlite'),
      transport: 'http',
      inProcessJobs: true,
    });
    const { dispatch, deps } = core;
    // 1.3 MB: its base64 spans two of the pieces decoded at a time.
    const bytes = readFileSync(path.resolve('test/fixtures/onnx/silero-vad-16k-op15.onnx'));
    // Wrapped at 76 characters as MIME does: the pieces decoded stay aligned.
    const wrapped = (bytes.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
    const req = { fileName: 'vad.onnx', dataBase64: wrapped, inputs: { input: [1, 512], state: [2, 1, 128] } };
    expect(await dispatch('workload:add', req)).toMatchObject({ ok: true, value: { name: 'vad' } });
    expect(readFileSync(path.join(deps.dataDir, 'models', 'vad.onnx')).equals(bytes)).toBe(true);
    expect(await dispatch('workload:add', { fileName: 'e.onnx', dataBase64: '====' })).toEqual({
      ok: false,
      error: { code: 'user', message: 'e.onnx is empty' },
    });
    expect(readdirSync(path.join(deps.dataDir, 'models'))).toEqual(['vad.onnx']);
  });
});
