/**
 * A machine is its label in every CLI output that names it (issue #44: its hash in one place and
 * its label in another); its id only where one is typed (`machines`). Devices read "label · CPU,
 * 1 thread". Real ORT for the model commands.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { SEEDED_MACHINE, seededDb } from '../../helpers/seeded-store.js';

const MODEL = 'test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx';
const ON_CPU = ['--device', 'cpu', '--threads', '1'];
const NAME = /lab-ws-01 · CPU, 1 thread\b/;

describe('machines by their label', () => {
  const db = path.join(tempDir(), 'w.db');
  seededDb(db).close();

  it('predict, predict-model and measure-model name the device by its machine’s label, not its id', async () => {
    expect((await cli(['train', '--db', db, '--predictor', 'analytical'])).code).toBe(0);
    const runs = [
      await cli(['predict', '--op', 'Softmax', '--shape', '256x512', ...ON_CPU, '--db', db]),
      await cli(['predict-model', MODEL, '--input', 'x=1x3x48x192', ...ON_CPU, '--db', db]),
      await cli(['measure-model', MODEL, '--input', 'x=1x3x48x192', ...ON_CPU, '--db', db]),
      await cli([
        'predict-model',
        'gpt2-small',
        '--mode',
        'generate',
        '--prompt',
        '16',
        '--tokens',
        '4',
        ...ON_CPU,
        '--db',
        db,
      ]),
    ];
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(NAME);
      expect(r.stdout).not.toContain(SEEDED_MACHINE);
    }
  });

  it('machines shows the label first and the id to type beside it', async () => {
    const r = await cli(['machines', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^lab-ws-01 \\(id ${SEEDED_MACHINE}\\)`, 'm'));
  });
});
