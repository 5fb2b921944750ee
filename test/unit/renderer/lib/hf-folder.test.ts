/**
 * The Workloads view's Hugging Face folder picker: config.json's text and each weights file's
 * header read from the picked files (never past the header), sent with workload:add, and the
 * folder then a stored workload of the real app core.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../src-main/api/client.js';
import { createAppCore } from '../../../../src-main/app/app-core.js';
import { folderName, readHfFolder } from '../../../../src-renderer/src/lib/hf-folder.js';
import { WorkloadsState } from '../../../../src-renderer/src/state/workloads.svelte.js';
import { JobHub } from '../../../../src-renderer/src/state/jobs.svelte.js';
import { tempDir } from '../../../helpers/cli.js';
import { LLAMA_31_8B } from '../../../helpers/hf-configs.js';
import { llamaTensors, safetensorsHeader, type LlamaShape } from '../../../helpers/safetensors.js';

const TINY = {
  ...LLAMA_31_8B,
  hidden_size: 128,
  intermediate_size: 256,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 4,
  head_dim: 32,
  vocab_size: 500,
};

/** A picked file at `rel` under the folder, as a webkitdirectory input gives it. */
function picked(rel: string, bytes: Uint8Array | string): File {
  const f = new File([bytes], rel.split('/').pop() ?? rel);
  Object.defineProperty(f, 'webkitRelativePath', { value: rel });
  return f;
}

/** A safetensors file whose data area is garbage (0xee): only the header may be read. */
function weights(rel: string, lengthSaid?: bigint): File {
  const { header, dataBytes } = safetensorsHeader(llamaTensors(TINY as unknown as LlamaShape));
  const json = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(lengthSaid ?? BigInt(json.length));
  return picked(rel, Buffer.concat([len, json, Buffer.alloc(dataBytes, 0xee)]));
}

describe('a picked Hugging Face folder', () => {
  it('reads config.json and the weights headers, leaving out adapters and subfolders', async () => {
    const files = [
      picked('tiny/config.json', JSON.stringify(TINY)),
      weights('tiny/model-00002-of-00002.safetensors'),
      weights('tiny/model-00001-of-00002.safetensors'),
      weights('tiny/adapter_model.safetensors'),
      weights('tiny/sub/model.safetensors'),
      picked('tiny/tokenizer.json', '{}'),
    ];
    expect(folderName(files)).toBe('tiny');
    const r = await readHfFolder(files);
    expect(JSON.parse(r.config)).toEqual(TINY);
    expect(r.safetensors.map((s) => s.fileName)).toEqual([
      'model-00001-of-00002.safetensors',
      'model-00002-of-00002.safetensors',
    ]);
    const first = r.safetensors[0];
    expect(first?.bytes).toBe(files[2]?.size);
    expect(first?.header.includes('\uFFFD')).toBe(false);
    expect(Object.keys(JSON.parse(first?.header ?? '{}') as object)).toContain('model.embed_tokens.weight');
  });

  it('refuses a folder without config.json and a header longer than its file, before sending', async () => {
    await expect(readHfFolder([weights('x/model.safetensors')])).rejects.toThrow(/has no config\.json/);
    const lying = [picked('x/config.json', '{}'), weights('x/model.safetensors', 10n ** 12n)];
    await expect(readHfFolder(lying)).rejects.toThrow(/over the \d+ a header may take/);
  });

  it('is added through the Workloads state and then listed and selected', async () => {
    const core = createAppCore({
      dbPath: path.join(tempDir('pdjv-ui-hf-'), 'db.sqlite'),
      transport: 'http',
      inProcessJobs: true,
    });
    try {
      const client = createApiClient({
        kind: 'http',
        invoke: (channel, payload) => core.dispatch(channel, payload),
        subscribe: (listener) => core.jobs.subscribe(listener),
      });
      const ws = new WorkloadsState(client, new JobHub(client));
      ws.folder = [picked('my-tiny/config.json', JSON.stringify(TINY)), weights('my-tiny/model.safetensors')];
      await ws.addFolder();
      expect(ws.adding.error).toBeNull();
      expect(ws.folder).toEqual([]);
      expect(ws.list.value?.map((w) => w.name)).toEqual(['my-tiny']);
      expect(ws.selected).toBe('my-tiny');
    } finally {
      core.close();
    }
  });
});
