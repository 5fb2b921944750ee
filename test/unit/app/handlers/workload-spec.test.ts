/**
 * The gate every channel taking a workload goes through: catalog and stored names pass, asked of
 * the catalog and the store only; over HTTP nothing else does (one fixed line); in the desktop
 * app anything else must be a file this session's open dialog returned.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { checkWorkloadSpec, WORKLOAD_REFUSED_OVER_HTTP } from '../../../../src-main/app/handlers/workload-spec.js';
import { addWorkload } from '../../../../src-main/services/workload/workload-service.js';

const ONNX = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');

function store() {
  const db = openDatabase(':memory:');
  addWorkload(db, ONNX, { name: 'cls', inputs: { x: [1, 3, 48, 192] } });
  return db;
}

describe('checkWorkloadSpec', () => {
  it('over HTTP takes catalog and stored names only, and refuses the rest with one fixed line', () => {
    const deps = { db: store(), transport: 'http' as const };
    for (const ok of ['cls', 'bert-base', 'gpt2-small']) expect(() => checkWorkloadSpec(ok, deps)).not.toThrow();
    for (const bad of ['.', '..', 'config.json', 'sub', './cls', '/etc', ONNX, 'x.gguf', 'missing'])
      expect(() => checkWorkloadSpec(bad, deps)).toThrow(WORKLOAD_REFUSED_OVER_HTTP);
  });

  it('in the desktop app takes names, and a file only where the open dialog returned it', () => {
    const picked = new Set([ONNX]);
    const deps = {
      db: store(),
      transport: 'electron' as const,
      dialogs: { open: async () => null, save: async () => null, opened: (p: string) => picked.has(p) },
    };
    for (const ok of ['cls', 'bert-base', ONNX]) expect(() => checkWorkloadSpec(ok, deps)).not.toThrow();
    for (const bad of ['.', 'config.json', 'sub', './cls', '/etc/passwd'])
      expect(() => checkWorkloadSpec(bad, deps)).toThrow(/was not chosen in the open dialog/);
  });
});
