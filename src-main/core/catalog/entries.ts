/**
 * The built-in catalog: the model descriptions of models/*.json, validated. The JSON is imported
 * (bundled by esbuild, inlined by Vite) because the core reads no files. Pure.
 */
import bert from '../../../models/bert.json' with { type: 'json' };
import gpt2 from '../../../models/gpt2.json' with { type: 'json' };
import llama from '../../../models/llama.json' with { type: 'json' };
import llama3 from '../../../models/llama3.json' with { type: 'json' };
import mistral from '../../../models/mistral.json' with { type: 'json' };
import qwen from '../../../models/qwen.json' with { type: 'json' };
import resnet from '../../../models/resnet.json' with { type: 'json' };
import vit from '../../../models/vit.json' with { type: 'json' };
import { parseModelFile, type CatalogEntry } from './schema.js';

function load(): CatalogEntry[] {
  const entries = [
    ...parseModelFile(gpt2, 'models/gpt2.json'),
    ...parseModelFile(llama, 'models/llama.json'),
    ...parseModelFile(llama3, 'models/llama3.json'),
    ...parseModelFile(qwen, 'models/qwen.json'),
    ...parseModelFile(mistral, 'models/mistral.json'),
    ...parseModelFile(bert, 'models/bert.json'),
    ...parseModelFile(resnet, 'models/resnet.json'),
    ...parseModelFile(vit, 'models/vit.json'),
  ];
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.name)) throw new Error(`model catalog: ${e.name} is described twice`);
    seen.add(e.name);
  }
  return entries;
}

/** Every built-in model, in catalog order. */
export const CATALOG: readonly CatalogEntry[] = Object.freeze(load());
