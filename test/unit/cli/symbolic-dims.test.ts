/** A model with several unbound symbolic dims: every command names them all at once, with the flags. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';

// Its input x is N x 3 x N x N: three symbolic dims.
const MODEL = 'test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx';
const DIMS = ['p2o.DynamicDimension.0', 'p2o.DynamicDimension.1', 'p2o.DynamicDimension.2'];

describe('unbound symbolic dims are listed at once', () => {
  it.each([
    ['workload add', ['workload', 'add', MODEL]],
    ['predict-model', ['predict-model', MODEL, '--device', 'cpu']],
    ['plan', ['plan', '--workload', MODEL]],
  ])('%s: one line with a --dim for each', async (_name, args) => {
    const r = await cli([...args, '--db', path.join(tempDir(), 'd.db')]);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`bind them with ${DIMS.map((d) => `--dim ${d}=VALUE`).join(' ')}`);
  });

  it('the flags it names, given, are enough', async () => {
    const db = path.join(tempDir(), 'd.db');
    const values = [1, 48, 192];
    const r = await cli([
      'workload',
      'add',
      MODEL,
      ...DIMS.flatMap((d, i) => ['--dim', `${d}=${values[i]}`]),
      '--db',
      db,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
