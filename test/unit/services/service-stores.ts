/** Stores the service tests start from. */
import { MachineRepo } from '../../../src-main/adapters/store/machine-repo.js';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';
import type { Database } from '../../../src-main/adapters/store/types.js';
import { devicesFromProbe, linksFromProbe } from '../../../src-main/core/domain/devices.js';
import type { PredictorName } from '../../../src-main/core/predictor/registry.js';
import { trainPredictors } from '../../../src-main/services/predict/predictor-service.js';
import { seededDb } from '../../helpers/seeded-store.js';
import { sampleProbe, serverProbe } from '../../helpers/sample-probe.js';

/** This machine (lab-ws-01, local0000000001) and two imported servers (1 and 2 GPUs), both labelled "box". */
export function threeMachines(): Database {
  const db = openDatabase(':memory:');
  const repo = new MachineRepo(db);
  const probe = sampleProbe();
  repo.upsertLocalMachine(probe, 'local0000000001', devicesFromProbe(probe), linksFromProbe(probe));
  for (const [id, gpus] of [
    ['imported00000001', 1],
    ['imported00000002', 2],
  ] as const) {
    const p = serverProbe('box', gpus);
    repo.insertImportedMachine({
      id,
      probe: p,
      devices: devicesFromProbe(p),
      links: linksFromProbe(p),
      contentHash: `hash-${id}`,
      provenance: {},
    });
  }
  return db;
}

/** The seeded store (a CPU profiled at 1 and 16 threads) with these predictors trained. */
export function trainedStore(names: PredictorName[] = ['roofline', 'linear']): Database {
  const db = seededDb();
  trainPredictors(db, names);
  return db;
}
