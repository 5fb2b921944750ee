/** measure-model reads the load around its own timing on the CPU and says when it was poor (real ORT). */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KernelRunner } from '../../../../src-main/adapters/ort/kernel-runner.js';
import { measureModel } from '../../../../src-main/services/measure/measure-model-service.js';
import { seededDb } from '../../../helpers/seeded-store.js';
import { fakeHost } from '../../../helpers/fake-host.js';

const cls = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');
const inputs = { x: [1, 3, 48, 192] };

/** A 2-CPU host whose other work keeps `others` CPUs busy in every reading window. */
const host = (others: number) => fakeHost(() => others);

describe('measure-model under load', () => {
  const runner = new KernelRunner({ runnerPath: 'dist/kernel-runner.js' });
  afterAll(() => runner.close());

  it('warns when other work kept the CPUs busy around its timing, and not on a quiet host', async () => {
    const db = seededDb();
    const busy = host(1.6);
    const loaded = await measureModel(db, runner, cls, { inputs, device: 'cpu', threads: 1, conditions: busy });
    // The window before waited its 20 s budget out (in fake time), then one window after.
    expect(busy.windows()).toBe(22);
    expect(loaded.warnings).toContain(
      'measured while other work kept 1.6 CPUs busy around it: this time may read slow; measure again when the machine is quiet',
    );
    const calm = host(0.05);
    const quiet = await measureModel(db, runner, cls, { inputs, device: 'cpu', threads: 1, conditions: calm });
    expect(calm.windows()).toBe(2);
    expect(quiet.warnings.some((w) => w.startsWith('measured while'))).toBe(false);
  });
});
