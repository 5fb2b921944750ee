/** Finding a stored machine by id or label, or this one: the lookup every use case shares. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import {
  findMachine,
  findMachineDetail,
  listMachines,
  localMachineId,
  machineFor,
} from '../../../../src-main/services/machine/machine-service.js';
import { threeMachines as store } from '../service-stores.js';

describe('findMachine', () => {
  it('finds a machine by id or by label, and this machine when none is named', () => {
    const db = store();
    expect(findMachine(db, 'imported00000002')?.id).toBe('imported00000002');
    expect(findMachine(db, 'lab-ws-01')?.id).toBe('local0000000001');
    expect(findMachine(db)?.source).toBe('local');
    expect(localMachineId(db)).toBe('local0000000001');
    expect(findMachine(db, 'nowhere')).toBeNull();
  });

  it('gives the first listed of machines sharing a label', () => {
    const db = store();
    const first = listMachines(db).find((m) => m.label === 'box');
    expect(findMachine(db, 'box')?.id).toBe(first?.id);
  });

  it('finds nothing in an empty store', () => {
    const db = openDatabase(':memory:');
    expect(findMachine(db)).toBeNull();
    expect(localMachineId(db)).toBeNull();
    expect(findMachineDetail(db)).toBeNull();
  });
});

describe('findMachineDetail and machineFor', () => {
  it('gives the summary with the devices and links of the machine', () => {
    const db = store();
    const found = findMachineDetail(db, 'imported00000002');
    expect(found?.summary).toMatchObject({ id: 'imported00000002', source: 'imported', deviceCount: 3 });
    expect(found?.detail.devices.map((d) => d.key)).toEqual(['cpu', 'cuda:0', 'cuda:1']);
    expect(machineFor(db, 'lab-ws-01').id).toBe('local0000000001');
    expect(machineFor(db, undefined).id).toBe('local0000000001');
  });

  it('says which machine is missing, or that none was recorded', () => {
    expect(() => machineFor(store(), 'nowhere')).toThrow('no machine "nowhere" in the store');
    expect(() => machineFor(openDatabase(':memory:'), undefined)).toThrow(
      'no machine recorded yet: run `pipedejavu profile` first',
    );
  });
});
