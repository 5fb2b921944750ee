/** Stored workloads: graphs deflated (schema 4), rows written before still read, counts listed without graphs. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { WorkloadRepo } from '../../../../src-main/adapters/store/workload-repo.js';
import { catalogWorkload } from '../../../../src-main/core/catalog/index.js';

describe('WorkloadRepo', () => {
  it('stores a graph deflated, reads it back equal, and lists its counts', () => {
    const db = openDatabase(':memory:');
    const repo = new WorkloadRepo(db, () => new Date('2026-11-27T00:00:00Z'));
    const w = { ...catalogWorkload('bert-base', {}), name: 'bert' };
    const saved = repo.save(w, '/models/bert.onnx', 'abc');
    expect(saved).toMatchObject({ name: 'bert', filePath: '/models/bert.onnx', createdAt: '2026-11-27T00:00:00.000Z' });
    expect(repo.get('bert')?.workload).toEqual(JSON.parse(JSON.stringify(w)));
    const row = db.prepare('SELECT graph_json, length(graph_gz) AS gz, node_count FROM workloads').get() as {
      graph_json: string;
      gz: number;
      node_count: number;
    };
    expect(row.graph_json).toBe('null');
    expect(row.gz).toBeLessThan(JSON.stringify(w).length / 4);
    expect(repo.list()).toEqual([
      expect.objectContaining({ name: 'bert', nodes: w.nodes.length, layers: w.layers.length }),
    ]);
  });

  it('reads and lists a row written before schema 4 (graph as JSON text, no counts)', () => {
    const db = openDatabase(':memory:');
    const w = { ...catalogWorkload('resnet50', {}), name: 'old' };
    db.prepare(
      `INSERT INTO workloads (name, source, file_path, content_hash, graph_json, created_at) VALUES (?, ?, NULL, NULL, ?, ?)`,
    ).run('old', w.source, JSON.stringify(w), '2026-01-01T00:00:00.000Z');
    const repo = new WorkloadRepo(db);
    expect(repo.get('old')?.workload.nodes).toHaveLength(w.nodes.length);
    expect(repo.list()).toEqual([expect.objectContaining({ name: 'old', nodes: w.nodes.length })]);
  });

  it('says a damaged graph is corrupt, in one line', () => {
    const db = openDatabase(':memory:');
    const repo = new WorkloadRepo(db);
    repo.save({ ...catalogWorkload('resnet50', {}), name: 'r' }, null, null);
    db.prepare('UPDATE workloads SET graph_gz = ?').run(Buffer.from('not deflate'));
    expect(() => repo.get('r')).toThrow('stored workload "r" is corrupt; add it again');
  });
});
