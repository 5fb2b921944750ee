import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { FEATURE_NAMES, featureVector, floorUs } from '../../../../src-main/core/predictor/features.js';
import type { OpQuery } from '../../../../src-main/core/predictor/types.js';
import { storedPredictorNamed } from '../../../../src-main/services/predict/predictor-service.js';
import { loadTrainingData } from '../../../../src-main/services/predict/training-data.js';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { cli, tempDir } from '../../../helpers/cli.js';
import { seededDb } from '../../../helpers/seeded-store.js';

/** The two inputs of an exported model for some queries (its contract: predictor-export.ts). */
function featureRows(queries: readonly OpQuery[]): {
  features: Float32Array;
  floorUs: Float32Array;
} {
  const f = FEATURE_NAMES.length;
  const features = new Float32Array(queries.length * f);
  const floor = new Float32Array(queries.length);
  queries.forEach((q, i) => {
    features.set(featureVector(q, q.device), i * f);
    floor[i] = floorUs(q, q.device);
  });
  return { features, floorUs: floor };
}

describe('pipedejavu predictor export --format onnx', () => {
  it.each(['forest', 'linear'])(
    'writes a %s model that ONNX Runtime runs, matching the in-app predictions',
    async (model) => {
      const dir = tempDir();
      const db = path.join(dir, 's.db');
      seededDb(db).close();
      expect((await cli(['train', '--db', db, '--predictor', model])).code).toBe(0);
      const out = path.join(dir, `${model}.onnx`);
      const r = await cli(['predictor', 'export', '--format', 'onnx', '--predictor', model, '--out', out, '--db', db]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`Wrote the ${model} predictor`));

      const store = openDatabase(db);
      const predictor = storedPredictorNamed(store, model)!.predictor;
      const queries = loadTrainingData(store).samples;
      store.close();
      const expected = predictor.predict(queries).map((p) => p.timeUs);
      const { features, floorUs } = featureRows(queries);
      const session = await ort.InferenceSession.create(readFileSync(out));
      const result = await session.run({
        features: new ort.Tensor('float32', features, [queries.length, FEATURE_NAMES.length]),
        floor_us: new ort.Tensor('float32', floorUs, [queries.length, 1]),
      });
      const got = result.time_us!.data as Float32Array;
      expect(got.length).toBe(queries.length);
      expected.forEach((e, i) => expect(Math.abs((got[i] as number) - e) / e).toBeLessThan(1e-4));
      await session.release();
    },
  );

  it('refuses what it cannot do, in one line', async () => {
    const db = path.join(tempDir(), 's.db');
    seededDb(db).close();
    const none = await cli(['predictor', 'export', '--out', '/tmp/x.onnx', '--db', db]);
    expect(none.stderr).toBe(
      'pipedejavu: error: no trained forest predictor: run `pipedejavu train --predictor forest` first\n',
    );
    expect((await cli(['predictor', 'export', '--format', 'pmml', '--out', 'x', '--db', db])).stderr).toMatch(
      /--format takes onnx/,
    );
    expect((await cli(['predictor', 'import', '--db', db])).stderr).toMatch(/unknown subcommand "import"/);
    expect((await cli(['predictor', 'export', '--db', db])).stderr).toMatch(/--out FILE is required/);
  });
});
