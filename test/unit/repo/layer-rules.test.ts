/**
 * The layering rule is enforced by eslint.config.js: each folder of src-main may import only the
 * layers beneath it, and the renderer only src-main/api. These tests lint deliberately wrong
 * imports and see them refused, and check the renderer's .svelte files, which ESLint does not parse.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT });

async function restrictedImports(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

// [file in the layer, an import it must not make, an import it may make]
const CASES: [string, string, string][] = [
  ['src-main/core/planner/x.ts', '../../adapters/store/profile-repo.js', '../domain/device.js'],
  ['src-main/core/planner/x.ts', 'node:fs', '../domain/device.js'],
  ['src-main/api/x.ts', '../services/plan-service.js', '../core/domain/device.js'],
  ['src-main/adapters/store/x.ts', '../../services/plan-service.js', '../../core/domain/device.js'],
  ['src-main/adapters/store/x.ts', '../../api/contract.js', './profile-repo.js'],
  ['src-main/services/x.ts', '../app/dispatch.js', '../adapters/store/profile-repo.js'],
  ['src-main/services/x.ts', '../cli/main.js', '../core/domain/device.js'],
  ['src-main/services/x.ts', '../http/server.js', '../core/domain/device.js'],
  ['src-main/app/x.ts', '../cli/main.js', '../services/plan-service.js'],
  ['src-main/app/x.ts', 'electron', '../api/contract.js'],
  ['src-main/app/x.ts', '../electron/main.js', '../adapters/store/profile-repo.js'],
  ['src-main/services/x.ts', '../electron/main.js', '../services/machine-service.js'],
  ['src-main/http/x.ts', '../electron/main.js', '../app/dispatch.js'],
  ['src-main/electron/x.ts', '../http/server.js', '../app/app-core.js'],
  ['src-main/cli/x.ts', '../electron/main.js', '../http/server.js'],
  ['src-renderer/src/x.ts', '../../src-main/services/plan-service.js', '../../src-main/api/client.js'],
  ['src-renderer/src/x.ts', 'node:fs', './lib/format.js'],
];

describe('layer rules', () => {
  it.each(CASES)('%s may not import %s but may import %s', async (file, wrong, right) => {
    expect(await restrictedImports(file, `import { x } from '${wrong}';\nexport const y = x;\n`)).toHaveLength(1);
    expect(await restrictedImports(file, `import { x } from '${right}';\nexport const y = x;\n`)).toEqual([]);
  });

  it('the renderer’s .svelte files import nothing of src-main but its api', () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.svelte')) {
          for (const m of readFileSync(p, 'utf8').matchAll(/from\s+'([^']+)'/g)) {
            const spec = m[1] as string;
            if (/(^|\/)src-main\/(?!api\/)/.test(spec) || spec.startsWith('node:')) offenders.push(`${p}: ${spec}`);
          }
        }
      }
    };
    walk(path.join(ROOT, 'src-renderer/src'));
    expect(offenders).toEqual([]);
  });
});
