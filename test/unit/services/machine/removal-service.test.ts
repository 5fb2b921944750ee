/** Removing an imported machine or a stored workload (with a model file kept for it). */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { listMachines } from '../../../../src-main/services/machine/machine-service.js';
import { removeImportedMachine, removeWorkload } from '../../../../src-main/services/machine/removal-service.js';
import { addWorkload, listWorkloads } from '../../../../src-main/services/workload/workload-service.js';
import { tempDir } from '../../../helpers/cli.js';
import { threeMachines } from '../service-stores.js';

const ONNX = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');
const INPUTS = { inputs: { x: [1, 3, 48, 192] } };

describe('removeImportedMachine', () => {
  it('removes an imported machine named by id or label, never this one', () => {
    const db = threeMachines();
    expect(removeImportedMachine(db, 'imported00000002')).toEqual({ id: 'imported00000002', label: 'box' });
    expect(removeImportedMachine(db, 'box')).toEqual({ id: 'imported00000001', label: 'box' });
    expect(listMachines(db).map((m) => m.id)).toEqual(['local0000000001']);
    expect(() => removeImportedMachine(db, 'box')).toThrow('no machine "box" in the store (see pipedejavu machines)');
    expect(() => removeImportedMachine(db, 'lab-ws-01')).toThrow(
      'lab-ws-01 is this machine; it is not removed (probing records it again)',
    );
  });
});

describe('removeWorkload', () => {
  it('removes the workload, and its model file only when it was kept in the uploads folder', () => {
    const db = openDatabase(':memory:');
    const uploads = path.join(tempDir('pdjv-removal-'), 'models');
    mkdirSync(uploads);
    const kept = path.join(uploads, 'cls.onnx');
    copyFileSync(ONNX, kept);
    addWorkload(db, kept, INPUTS);
    addWorkload(db, ONNX, { ...INPUTS, name: 'fixture' });
    expect(removeWorkload(db, 'cls', uploads)).toEqual({ name: 'cls' });
    expect(existsSync(kept)).toBe(false);
    expect(removeWorkload(db, 'fixture', uploads)).toEqual({ name: 'fixture' });
    expect(existsSync(ONNX)).toBe(true);
    expect(listWorkloads(db)).toEqual([]);
    expect(() => removeWorkload(db, 'cls')).toThrow('no workload "cls" (see pipedejavu workload list)');
  });
});
