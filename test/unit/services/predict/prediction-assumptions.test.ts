/** What predict-model states it assumed: the sequence by the one default rule, or the image; nothing for an ONNX graph. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { predictionAssumptions } from '../../../../src-main/services/predict/prediction-assumptions.js';

const db = openDatabase(':memory:');

describe('predictionAssumptions', () => {
  it('names the sequence a decoder was built at, marked default unless asked, with its context', () => {
    const a = predictionAssumptions(db, 'llama-3.1-8b', {}, { bindings: { batch: 1, seq: 8192 } });
    expect(a).toMatchObject({
      sequence: { value: 8192, asked: false },
      modelContext: 131072,
      image: null,
      batch: { value: 1, asked: false },
      dtype: 'bf16',
    });
    const asked = predictionAssumptions(
      db,
      'llama-3.1-8b',
      { seq: 512, dtype: 'fp16' },
      { bindings: { batch: 1, seq: 512 } },
    );
    expect(asked).toMatchObject({ sequence: { value: 512, asked: true }, dtype: 'fp16', weights: 'fp16' });
  });

  it('names an image model’s side instead, and nothing for an ONNX graph', () => {
    const r = predictionAssumptions(db, 'resnet50', { batch: 8 }, { bindings: { batch: 8, image: 224 } });
    expect(r).toMatchObject({ sequence: null, image: { value: 224, asked: false }, batch: { value: 8, asked: true } });
    expect(predictionAssumptions(db, 'model.onnx', {}, { bindings: { batch: 1 } })).toBeNull();
  });
});
