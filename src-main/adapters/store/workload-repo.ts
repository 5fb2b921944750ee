/**
 * Imported workloads (ONNX models resolved to nodes and layers) by name. Adding a
 * workload under an existing name replaces it in one transaction.
 */
import type { Workload } from '../../core/workload/types.js';
import { StoreError } from './errors.js';
import type { Database } from './types.js';
import { writeTransaction } from './write-transaction.js';

export interface StoredWorkload {
  id: number;
  name: string;
  source: string;
  filePath: string | null;
  contentHash: string | null;
  createdAt: string;
  workload: Workload;
}

interface Row {
  id: number;
  name: string;
  source: string;
  file_path: string | null;
  content_hash: string | null;
  graph_json: string;
  created_at: string;
}

function toStored(r: Row): StoredWorkload {
  let workload: Workload;
  try {
    workload = JSON.parse(r.graph_json) as Workload;
  } catch {
    throw new StoreError('corrupt-row', `stored workload "${r.name}" is corrupt; add it again`);
  }
  if (!Array.isArray(workload.nodes) || !Array.isArray(workload.layers)) {
    throw new StoreError('corrupt-row', `stored workload "${r.name}" is corrupt; add it again`);
  }
  return {
    id: r.id,
    name: r.name,
    source: r.source,
    filePath: r.file_path,
    contentHash: r.content_hash,
    createdAt: r.created_at,
    workload,
  };
}

export type WorkloadSummary = Omit<StoredWorkload, 'workload'> & { nodes: number; layers: number };

export class WorkloadRepo {
  constructor(
    private readonly db: Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  save(w: Workload, filePath: string | null, contentHash: string | null): StoredWorkload {
    const json = JSON.stringify(w);
    writeTransaction(this.db, () => {
      this.db.prepare('DELETE FROM workloads WHERE name = ?').run(w.name);
      this.db
        .prepare(
          'INSERT INTO workloads (name, source, file_path, content_hash, graph_json, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(w.name, w.source, filePath, contentHash, json, this.now().toISOString());
    });
    const saved = this.get(w.name);
    if (!saved) throw new StoreError('not-found', `workload "${w.name}" was not stored`);
    return saved;
  }

  get(name: string): StoredWorkload | null {
    const r = this.db.prepare<[string], Row>('SELECT * FROM workloads WHERE name = ?').get(name);
    return r ? toStored(r) : null;
  }

  list(): WorkloadSummary[] {
    return this.db
      .prepare<[], Row>('SELECT * FROM workloads ORDER BY name')
      .all()
      .map((r) => {
        const s = toStored(r);
        return {
          id: s.id,
          name: s.name,
          source: s.source,
          filePath: s.filePath,
          contentHash: s.contentHash,
          createdAt: s.createdAt,
          nodes: s.workload.nodes.length,
          layers: s.workload.layers.length,
        };
      });
  }

  remove(name: string): boolean {
    return this.db.prepare('DELETE FROM workloads WHERE name = ?').run(name).changes > 0;
  }
}
