/** Stored workloads as the CLI and the app list them. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import {
  addWorkload,
  listWorkloads,
  storedWorkload,
  storedWorkloads,
} from '../../../../src-main/services/workload/workload-service.js';

const ONNX = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');
const INPUTS = { inputs: { x: [1, 3, 48, 192] } };

describe('stored workloads', () => {
  it('lists what was added, by name, with counts, and gives each with its graph', () => {
    const db = openDatabase(':memory:');
    expect(listWorkloads(db)).toEqual([]);
    const b = addWorkload(db, ONNX, { ...INPUTS, name: 'b-cls' }).workload;
    addWorkload(db, ONNX, { ...INPUTS, name: 'a-cls' });
    const list = listWorkloads(db);
    expect(list.map((w) => [w.name, w.nodes, w.layers, w.filePath])).toEqual([
      ['a-cls', b.nodes.length, b.layers.length, ONNX],
      ['b-cls', b.nodes.length, b.layers.length, ONNX],
    ]);
    expect(storedWorkloads(db).map((w) => w.name)).toEqual(['a-cls', 'b-cls']);
    const stored = storedWorkload(db, 'b-cls');
    expect(stored?.workload.layers).toEqual(b.layers);
    expect(stored?.createdAt).toBe(list[1]?.createdAt);
    expect(storedWorkload(db, 'missing')).toBeNull();
  });
});
