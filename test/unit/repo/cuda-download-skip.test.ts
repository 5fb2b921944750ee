/**
 * `npm ci` skips ONNX Runtime's CUDA download (README): the `.npmrc` setting and the environment
 * variable `.ci/run` sets are the two names onnxruntime-node's postinstall reads, and the README
 * quotes the warning npm 11 prints for the setting as it is.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');

describe("the skip of ONNX Runtime's CUDA download", () => {
  it('is set in .npmrc and .ci/run under the names the postinstall reads', () => {
    expect(read('.npmrc').split('\n')).toContain('onnxruntime-node-install=skip');
    expect(read('.ci/run')).toMatch(/^export ONNXRUNTIME_NODE_INSTALL=skip\b/m);
    const ort = path.dirname(createRequire(import.meta.url).resolve('onnxruntime-node/package.json'));
    const install = readFileSync(path.join(ort, 'script', 'install-utils.js'), 'utf8');
    expect(install).toMatch(
      /process\.env\.ONNXRUNTIME_NODE_INSTALL \|\| process\.env\.npm_config_onnxruntime_node_install/,
    );
    expect(install).toMatch(/case 'skip':\s+return false;/);
  });

  it("is explained in the README with npm's warning word for word", () => {
    const readme = read('README.md').replace(/\s+/g, ' ');
    expect(readme).toContain(
      '`npm warn Unknown project config "onnxruntime-node-install". This will stop working in the next major version of npm.`',
    );
    expect(readme).toContain('`ONNXRUNTIME_NODE_INSTALL=skip`');
  });
});
