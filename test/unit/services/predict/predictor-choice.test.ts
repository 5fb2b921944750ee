/** Which stored predictor a prediction or a plan uses: the named one, else the most accurate kind trained. */
import { describe, expect, it } from 'vitest';
import { chooseStoredPredictor } from '../../../../src-main/services/predict/predictor-service.js';
import { PREDICTOR_PREFERENCE } from '../../../../src-main/core/predictor/predictor-names.js';
import { seededDb } from '../../../helpers/seeded-store.js';
import { trainedStore } from '../service-stores.js';

describe('chooseStoredPredictor', () => {
  it('takes the most accurate kind trained when none is named', () => {
    expect(PREDICTOR_PREFERENCE).toEqual(['forest', 'analytical', 'linear', 'roofline']);
    expect(chooseStoredPredictor(trainedStore(['roofline'])).name).toBe('roofline');
    expect(chooseStoredPredictor(trainedStore(['roofline', 'linear'])).name).toBe('linear');
    expect(chooseStoredPredictor(trainedStore(['linear', 'analytical'])).name).toBe('analytical');
  });

  it('takes the named one, and says how to train a missing one', () => {
    const db = trainedStore(['roofline', 'linear']);
    const roofline = chooseStoredPredictor(db, 'roofline');
    expect(roofline.name).toBe('roofline');
    expect(typeof roofline.predictor.predict).toBe('function');
    expect(() => chooseStoredPredictor(db, 'forest')).toThrow(
      'no trained forest predictor: run pipedejavu train --predictor forest',
    );
  });

  it('reads only the chosen predictor: an outdated linear one stops neither roofline nor the default', () => {
    const db = trainedStore(['roofline', 'linear', 'analytical']);
    db.prepare(
      'UPDATE predictors SET predictor_json = \'{"name":"linear","version":0}\' WHERE name = \'linear\'',
    ).run();
    expect(chooseStoredPredictor(db, 'roofline').name).toBe('roofline');
    expect(chooseStoredPredictor(db).name).toBe('analytical');
    expect(() => chooseStoredPredictor(db, 'linear')).toThrow(
      /stored linear predictor .* cannot be loaded: .*run pipedejavu train/,
    );
  });

  it('says to train first when nothing is trained', () => {
    expect(() => chooseStoredPredictor(seededDb())).toThrow('no trained predictor yet: run `pipedejavu train` first');
    expect(() => chooseStoredPredictor(seededDb(), 'linear')).toThrow(
      'no trained predictor yet: run `pipedejavu train` first',
    );
  });
});
