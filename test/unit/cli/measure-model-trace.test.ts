/** `measure-model --trace FILE`: ONNX Runtime's own trace of the model kept for Perfetto (real ORT). */
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir, words } from '../../helpers/cli.js';
import { seededDb } from '../../helpers/seeded-store.js';

const MODEL = 'test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx';

function store(): string {
  const db = path.join(tempDir(), 'w.db');
  seededDb(db).close();
  return db;
}

const measure = (db: string, ...extra: string[]): string[] => [
  ...words`measure-model ${MODEL} --input x=1x3x48x192 --device cpu --threads 1 --db ${db}`,
  ...extra,
];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  cat?: string;
}

/** The file as a Chrome trace: an array of events, or {traceEvents: [...]}. */
function chromeTrace(file: string): TraceEvent[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as TraceEvent[] | { traceEvents: TraceEvent[] };
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  expect(Array.isArray(events)).toBe(true);
  for (const e of events) {
    expect(typeof e.name).toBe('string');
    expect(typeof e.ph).toBe('string');
    expect(typeof e.ts).toBe('number');
  }
  return events;
}

describe('measure-model --trace', () => {
  it('lists --trace in its help', async () => {
    const r = await cli(['measure-model', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--trace FILE/);
    expect(r.stdout).toMatch(/Perfetto/);
  });

  it('writes ORT’s trace of the model, names it in --json, and says so in the text output', async () => {
    const db = store();
    const dir = tempDir();
    const file = path.join(dir, 'cls.json');
    const r = await cli(measure(db, '--trace', file, '--json'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout) as {
      medianMs: number;
      nodes: { name: string }[];
      trace: { file: string; runs: number; events: number };
    };
    expect(m.trace.file).toBe(file);
    expect(readdirSync(dir)).toEqual(['cls.json']);
    const events = chromeTrace(file);
    expect(events).toHaveLength(m.trace.events);
    expect(events.filter((e) => e.name === 'model_run')).toHaveLength(m.trace.runs);
    expect(events.some((e) => e.ph === 'X' && e.cat === 'Node')).toBe(true);
    const names = new Set(events.map((e) => e.name));
    // The measured nodes are the model's, as the trace names them.
    expect(m.nodes.length).toBeGreaterThan(10);
    for (const n of m.nodes) expect(names.has(`${n.name}_kernel_time`)).toBe(true);

    // Text: the trace's path, and that the times come from the untraced runs. An existing file is replaced.
    const text = await cli(measure(db, '--trace', file));
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`Trace: ${file} (the ORT trace of `);
    expect(text.stdout).toMatch(/The end-to-end times above come from the untraced runs\.\n?$/);
    expect(readdirSync(dir)).toEqual(['cls.json']);
    expect(chromeTrace(file).length).toBeGreaterThan(0);
  });

  it('says in one line why the trace cannot be written, and leaves nothing behind', async () => {
    const db = store();
    const dir = tempDir();
    mkdirSync(path.join(dir, 'sub'));
    const missing = path.join(dir, 'nope', 't.json');
    const a = await cli(measure(db, '--trace', missing));
    expect(a.code).toBe(1);
    expect(a.stderr).toBe(
      `pipedejavu: error: cannot write ${missing}: its directory ${path.join(dir, 'nope')} does not exist\n`,
    );
    const b = await cli(measure(db, '--trace', path.join(dir, 'sub')));
    expect(b.code).toBe(1);
    expect(b.stderr).toBe(`pipedejavu: error: cannot write ${path.join(dir, 'sub')}: it is a directory\n`);
    const c = await cli(measure(db, '--trace', ''));
    expect(c.code).toBe(2);
    expect(c.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(readdirSync(dir)).toEqual(['sub']);
    expect(readdirSync(path.join(dir, 'sub'))).toEqual([]);
  });
});
