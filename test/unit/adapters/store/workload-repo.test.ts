/**
 * Stored workloads: graphs deflated (schema 4), rows written before still read, counts listed
 * without graphs; a Hugging Face model's description kept beside its graph (schema 6), checked
 * when read back.
 */
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { MIGRATIONS, migrate } from '../../../../src-main/adapters/store/migrations.js';
import { WorkloadRepo } from '../../../../src-main/adapters/store/workload-repo.js';
import { uploadedHfModel } from '../../../../src-main/core/catalog/hf-model.js';
import { catalogWorkload, entryWorkload } from '../../../../src-main/core/catalog/index.js';
import { LLAMA_31_8B } from '../../../helpers/hf-configs.js';

const described = () => uploadedHfModel('llama', { config: JSON.stringify(LLAMA_31_8B), safetensors: [] });

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

  it('keeps a Hugging Face description beside the graph and reads it back equal', () => {
    const db = openDatabase(':memory:');
    const repo = new WorkloadRepo(db);
    const d = described();
    repo.save({ ...entryWorkload(d.entry, { seq: 8 }), name: 'llama' }, null, null, d);
    repo.save({ ...catalogWorkload('resnet50', {}), name: 'r' }, null, null);
    expect(repo.get('llama')?.described).toEqual(JSON.parse(JSON.stringify(d)));
    expect(repo.get('r')?.described).toBeNull();
    expect(repo.list().map((w) => Object.keys(w).includes('described'))).toEqual([false, false]);
  });

  it('says a damaged description is corrupt, in one line, as a damaged graph', () => {
    const db = openDatabase(':memory:');
    const repo = new WorkloadRepo(db);
    const d = described();
    repo.save({ ...entryWorkload(d.entry, { seq: 8 }), name: 'llama' }, null, null, d);
    const entry = { ...d.entry, hidden: -1 };
    for (const bad of ['not json', '{}', JSON.stringify({ ...d, entry }), JSON.stringify({ ...d, params: 'x' })]) {
      db.prepare('UPDATE workloads SET described_json = ?').run(bad);
      expect(() => repo.get('llama')).toThrow('stored workload "llama" is corrupt; add it again');
    }
    // Listing reads no description.
    expect(repo.list().map((w) => w.name)).toEqual(['llama']);
  });

  it('migrates a schema-5 store: its workloads keep their graphs and have no description', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.slice(0, 5));
    const w = { ...catalogWorkload('resnet50', {}), name: 'old' };
    db.prepare(
      `INSERT INTO workloads (name, source, file_path, content_hash, graph_json, created_at) VALUES (?, ?, NULL, NULL, ?, ?)`,
    ).run('old', w.source, JSON.stringify(w), '2026-01-01T00:00:00.000Z');
    expect(migrate(db, MIGRATIONS.slice(0, 6))).toEqual([6]);
    const repo = new WorkloadRepo(db);
    expect(repo.get('old')).toMatchObject({ described: null, workload: { name: 'old' } });
    const d = described();
    repo.save({ ...entryWorkload(d.entry, {}), name: 'new' }, null, null, d);
    expect(repo.get('new')?.described?.entry.name).toBe('llama');
  });
});
