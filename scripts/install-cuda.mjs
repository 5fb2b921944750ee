#!/usr/bin/env node
// Opt-in: download ONNX Runtime's CUDA execution provider (Linux x64, CUDA 12) from
// NuGet into node_modules/onnxruntime-node. Needs internet; run once per install:
//   npm run install-cuda
// At run time the CUDA EP also needs the system's CUDA 12 runtime, cuBLAS and cuDNN 9.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

if (`${process.platform}/${process.arch}` !== 'linux/x64') {
  console.error(
    `pipedejavu: error: ONNX Runtime ships its CUDA provider for linux/x64 only (this is ${process.platform}/${process.arch})`,
  );
  process.exit(1);
}
const require = createRequire(import.meta.url);
const ortDir = path.dirname(require.resolve('onnxruntime-node/package.json'));
const result = spawnSync(process.execPath, [path.join(ortDir, 'script', 'install.js')], {
  stdio: 'inherit',
  env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'cuda12', npm_config_onnxruntime_node_install: 'cuda12' },
});
if (result.status !== 0) {
  console.error(
    'pipedejavu: error: installing the CUDA execution provider failed (is NuGet reachable from this machine?)',
  );
  process.exit(result.status ?? 1);
}
console.log(
  'ONNX Runtime CUDA execution provider installed; `pipedejavu probe` and `profile --device cuda:N` can use it now.',
);
