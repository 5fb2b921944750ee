/**
 * Imported workloads (ONNX models resolved to nodes and layers) by name. Adding a
 * workload under an existing name replaces it in one transaction.
 */
import { constants, deflateSync, inflateSync } from 'node:zlib';
import type { DescribedModel } from '../../core/catalog/hf-model.js';
import type { Workload } from '../../core/workload/types.js';
import { describedFromJson, describedToJson } from './described-model-json.js';
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
  /** A Hugging Face model's description (schema 6 on): its architecture and stored weights; null for other workloads. */
  described: DescribedModel | null;
}

interface Row {
  id: number;
  name: string;
  source: string;
  file_path: string | null;
  content_hash: string | null;
  graph_json: string;
  graph_gz: Uint8Array | null;
  node_count: number | null;
  layer_count: number | null;
  described_json: string | null;
  created_at: string;
}

/** The stored graph's JSON: deflated (schema 4 on), or as text (rows written before). */
function graphText(r: Row): string {
  return r.graph_gz !== null ? inflateSync(r.graph_gz).toString('utf8') : r.graph_json;
}

/** A row's fields other than its graph. */
function metaOf(r: Row): Omit<StoredWorkload, 'workload' | 'described'> {
  return {
    id: r.id,
    name: r.name,
    source: r.source,
    filePath: r.file_path,
    contentHash: r.content_hash,
    createdAt: r.created_at,
  };
}

const corrupt = (r: Row): StoreError =>
  new StoreError('corrupt-row', `stored workload "${r.name}" is corrupt; add it again`);

function graphOf(r: Row): Workload {
  let workload: Workload;
  try {
    workload = JSON.parse(graphText(r)) as Workload;
  } catch {
    throw corrupt(r);
  }
  if (!Array.isArray(workload.nodes) || !Array.isArray(workload.layers)) throw corrupt(r);
  return workload;
}

/** The stored description, checked: a damaged one is as corrupt as a damaged graph. */
function describedOf(r: Row): DescribedModel | null {
  if (r.described_json === null) return null;
  const d = describedFromJson(r.described_json);
  if (!d) throw corrupt(r);
  return d;
}

function toStored(r: Row): StoredWorkload {
  return { ...metaOf(r), workload: graphOf(r), described: describedOf(r) };
}

export type WorkloadSummary = Omit<StoredWorkload, 'workload' | 'described'> & { nodes: number; layers: number };

const countsOf = (w: Workload): { nodes: number; layers: number } => ({
  nodes: w.nodes.length,
  layers: w.layers.length,
});

/** The graph's JSON deflated at the fastest level: a 100 MB graph becomes a few MB in a few hundred ms. */
function deflated(w: Workload): Buffer {
  return deflateSync(JSON.stringify(w), { level: constants.Z_BEST_SPEED });
}

export class WorkloadRepo {
  constructor(
    private readonly db: Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Stores `w` under its name, with a Hugging Face model's description when it is one; what was
   * stored is not read back (a large graph would be held twice).
   */
  save(
    w: Workload,
    filePath: string | null,
    contentHash: string | null,
    described: DescribedModel | null = null,
  ): Omit<StoredWorkload, 'workload' | 'described'> {
    const createdAt = this.now().toISOString();
    const id = writeTransaction(this.db, () => {
      this.db.prepare('DELETE FROM workloads WHERE name = ?').run(w.name);
      return this.db
        .prepare(
          `INSERT INTO workloads (name, source, file_path, content_hash, graph_json, graph_gz, node_count, layer_count,
                                  described_json, created_at)
           VALUES (?, ?, ?, ?, 'null', ?, ?, ?, ?, ?)`,
        )
        .run(
          w.name,
          w.source,
          filePath,
          contentHash,
          deflated(w),
          w.nodes.length,
          w.layers.length,
          described ? describedToJson(described) : null,
          createdAt,
        )
        .lastInsertRowid;
    });
    return { id: Number(id), name: w.name, source: w.source, filePath, contentHash, createdAt };
  }

  /** Whether a workload of this name is stored (its graph is not read). */
  has(name: string): boolean {
    return (
      this.db.prepare<[string], { one: number }>('SELECT 1 AS one FROM workloads WHERE name = ?').get(name) !==
      undefined
    );
  }

  get(name: string): StoredWorkload | null {
    const r = this.db.prepare<[string], Row>('SELECT * FROM workloads WHERE name = ?').get(name);
    return r ? toStored(r) : null;
  }

  list(): WorkloadSummary[] {
    return this.db
      .prepare<[], Row>(
        `SELECT id, name, source, file_path, content_hash, created_at, node_count, layer_count, NULL AS described_json,
                CASE WHEN node_count IS NULL THEN graph_json END AS graph_json,
                CASE WHEN node_count IS NULL THEN graph_gz END AS graph_gz
         FROM workloads ORDER BY name`,
      )
      .all()
      .map((r) => {
        // Counts stored beside the graph (schema 4 on); older rows are read whole.
        const counts =
          r.node_count !== null && r.layer_count !== null
            ? { nodes: r.node_count, layers: r.layer_count }
            : countsOf(graphOf(r));
        return { ...metaOf(r), ...counts };
      });
  }

  remove(name: string): boolean {
    return this.db.prepare('DELETE FROM workloads WHERE name = ?').run(name).changes > 0;
  }
}
