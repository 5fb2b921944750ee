/**
 * One name and one count per node across commands (issue #44): predict-model and measure-model
 * name their node rows by the model file's nodes, with ONNX Runtime's executed names beside, so
 * the two tables join on NODE; "nodes" is the file's count in workload add, workload list,
 * predict-model and measure-model (real ORT).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { seededDb } from '../../helpers/seeded-store.js';

const MODEL = 'test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx';
const ON_CPU = ['--input', 'x=1x3x48x192', '--device', 'cpu', '--threads', '1'];

/** The first column of the table under the line starting with `title`. */
function nodeColumn(stdout: string, title: string): string[] {
  const lines = stdout.split('\n');
  const at = lines.findIndex((l) => l.startsWith(title));
  expect(at).toBeGreaterThanOrEqual(0);
  const body = lines.slice(at + 3);
  const end = body.findIndex((l) => l.trim() === '' || l.startsWith('warning:'));
  return body.slice(0, end < 0 ? undefined : end).map((l) => l.split(/\s+/)[0] ?? '');
}

describe('node names and counts across commands', () => {
  it('predict-model and measure-model join on the file’s node names; every command counts the same nodes', async () => {
    const db = path.join(tempDir(), 'w.db');
    seededDb(db).close();
    expect((await cli(['train', '--db', db, '--predictor', 'analytical'])).code).toBe(0);
    const added = await cli(['workload', 'add', MODEL, '--input', 'x=1x3x48x192', '--db', db]);
    expect(added.code).toBe(0);
    const count = Number(/: (\d+) nodes in/.exec(added.stdout)?.[1]);
    expect(count).toBeGreaterThan(100);

    const listed = JSON.parse((await cli(['workload', 'list', '--db', db, '--json'])).stdout) as unknown;
    expect(JSON.stringify(listed)).toContain(`"nodes":${count}`);

    const pj = await cli(['predict-model', MODEL, ...ON_CPU, '--db', db, '--json']);
    expect(pj.code).toBe(0);
    const fileNodes = new Set((JSON.parse(pj.stdout) as { nodes: { name: string }[] }).nodes.map((n) => n.name));
    expect(fileNodes.size).toBe(count);

    const p = await cli(['predict-model', MODEL, ...ON_CPU, '--db', db]);
    const m = await cli(['measure-model', MODEL, ...ON_CPU, '--db', db]);
    expect(p.code).toBe(0);
    expect(m.code).toBe(0);
    for (const out of [p.stdout, m.stdout]) {
      expect(out).toContain(`Nodes of the file (${count};`);
      expect(out).toMatch(/EXECUTED AS/);
      // "N nodes" is never the executed graph's count: that one is "executed nodes".
      expect(out).not.toMatch(/\(\d+ nodes\)/);
    }
    const predicted = nodeColumn(p.stdout, 'Nodes of the file');
    const measured = nodeColumn(m.stdout, 'Nodes of the file');
    expect(measured.length).toBeGreaterThan(5);
    expect([...predicted, ...measured].filter((name) => !fileNodes.has(name))).toEqual([]);

    const mj = JSON.parse((await cli(['measure-model', MODEL, ...ON_CPU, '--db', db, '--json'])).stdout) as {
      fileNodes: { name: string }[];
      fileNodeCount: number;
    };
    expect(mj.fileNodeCount).toBe(count);
    for (const n of mj.fileNodes) expect(fileNodes.has(n.name)).toBe(true);
  });
});
