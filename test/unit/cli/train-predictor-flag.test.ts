import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { seededDb } from '../../helpers/seeded-store.js';

function seeded(): string {
  const db = path.join(tempDir(), 'seeded.db');
  seededDb(db).close();
  return db;
}

function trainedNames(stdout: string): string[] {
  return (JSON.parse(stdout) as { trained: { name: string }[] }).trained.map((t) => t.name);
}

describe('pipedejavu train --predictor', () => {
  it('trains the predictor it names, quietly', async () => {
    const r = await cli(['train', '--db', seeded(), '--predictor', 'linear', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(trainedNames(r.stdout)).toEqual(['linear']);
  });

  it('still takes --model, with one deprecation line on stderr', async () => {
    const r = await cli(['train', '--db', seeded(), '--model', 'linear', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('--model is deprecated: use --predictor\n');
    expect(trainedNames(r.stdout)).toEqual(['linear']);
  });

  it('names the flag given when the predictor is unknown', async () => {
    const db = seeded();
    expect((await cli(['train', '--db', db, '--predictor', 'magic'])).stderr).toMatch(
      /^pipedejavu: error: --predictor takes /,
    );
    const old = await cli(['train', '--db', db, '--model', 'magic']);
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(/^--model is deprecated: use --predictor\npipedejavu: error: --model takes /);
  });

  it('refuses both flags at once', async () => {
    const r = await cli(['train', '--db', seeded(), '--predictor', 'linear', '--model', 'forest']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('pipedejavu: error: --model is the old name of --predictor: give one\n');
  });

  it('lists --predictor in its help and --model as deprecated', async () => {
    const r = await cli(['train', '--help']);
    expect(r.stdout).toMatch(/Usage: pipedejavu train \[--predictor /);
    expect(r.stdout).toMatch(/--model NAME\s+deprecated: use --predictor/);
  });
});

describe('pipedejavu predictor export --predictor', () => {
  it('takes --model as a deprecated alias too', async () => {
    const db = seeded();
    expect((await cli(['train', '--db', db, '--predictor', 'linear'])).code).toBe(0);
    const out = path.join(tempDir(), 'p.onnx');
    const r = await cli([
      'predictor',
      'export',
      '--db',
      db,
      '--format',
      'onnx',
      '--model',
      'linear',
      '--out',
      out,
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('--model is deprecated: use --predictor\n');
    const summary = JSON.parse(r.stdout) as { predictor: string; model: string };
    expect(summary.predictor).toBe('linear');
    // The old key stays, deprecated, for scripts that read it.
    expect(summary.model).toBe('linear');
  });
});
