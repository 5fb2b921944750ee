/** The app's Workloads view: a workload on every profiled device of a machine, straight through the service. */
import { describe, expect, it } from 'vitest';
import { MachineRepo } from '../../../../src-main/adapters/store/machine-repo.js';
import { devicesFromProbe, linksFromProbe } from '../../../../src-main/core/domain/devices.js';
import { predictOnMachine } from '../../../../src-main/services/predict/model-prediction-service.js';
import type { OptimizingRunner } from '../../../../src-main/services/measure/executed-graph-service.js';
import { serverProbe } from '../../../helpers/sample-probe.js';
import { trainedStore } from '../service-stores.js';

/** A runner a catalog model never needs (it has no file to optimize); it counts starts and closes. */
function idleRunner(): OptimizingRunner & { close(): Promise<void>; closed: number } {
  const runner = {
    closed: 0,
    start: () => Promise.reject(new Error('a catalog model needs no runner')),
    optimize: () => Promise.reject(new Error('a catalog model needs no runner')),
    close: async () => {
      runner.closed++;
    },
  };
  return runner;
}

describe('predictOnMachine', () => {
  it('predicts on every profiled device of this machine with the preferred predictor, then closes the runner', async () => {
    const db = trainedStore(['roofline', 'linear']);
    const runners: ReturnType<typeof idleRunner>[] = [];
    const r = await predictOnMachine(
      db,
      () => {
        const runner = idleRunner();
        runners.push(runner);
        return runner;
      },
      { workload: 'gpt2-small', mode: 'inference', seq: 64 },
    );
    expect(r.predictor).toBe('linear');
    expect(r.workload.name).toBe('gpt2-small');
    expect(r.workload.bindings.batch).toBe(1);
    expect(r.predictions.map((p) => [p.device.deviceKey, p.device.threads])).toEqual([
      ['cpu', 1],
      ['cpu', 16],
    ]);
    for (const p of r.predictions) {
      expect(p.prediction.totalUs).toBeGreaterThan(0);
      expect(p.prediction.layers).toHaveLength(r.workload.layers.length);
    }
    expect(runners.map((x) => x.closed)).toEqual([1]);
  });

  it('starts no runner for a machine with nothing profiled, and says so', async () => {
    const db = trainedStore(['roofline']);
    const p = serverProbe('box', 1);
    new MachineRepo(db).insertImportedMachine({
      id: 'imported00000001',
      probe: p,
      devices: devicesFromProbe(p),
      links: linksFromProbe(p),
      contentHash: 'hash',
      provenance: {},
    });
    let started = 0;
    const run = predictOnMachine(
      db,
      () => {
        started++;
        return idleRunner();
      },
      { workload: 'gpt2-small', mode: 'inference', machineId: 'box' },
    );
    await expect(run).rejects.toThrow('box has no profiled device yet: run a profile first');
    expect(started).toBe(0);
  });
});
