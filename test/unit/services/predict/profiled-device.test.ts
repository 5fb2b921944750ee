/** The profiled device a prediction is made for: one lookup behind predict-model, predict and the benches. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { findProfiledDevice } from '../../../../src-main/services/predict/profiled-device.js';
import { predictOp } from '../../../../src-main/services/predict/predictor-service.js';
import { loadTrainingData } from '../../../../src-main/services/predict/training-data.js';
import { pickDevice } from '../../../../src-main/services/workload/workload-service.js';
import { SEEDED_MACHINE, seededDb } from '../../../helpers/seeded-store.js';
import { threeMachines, trainedStore } from '../service-stores.js';

describe('findProfiledDevice', () => {
  it('finds a device by key and thread count on this machine, with what the machine profiled', () => {
    const db = seededDb();
    const { devices } = loadTrainingData(db);
    const at16 = findProfiledDevice(db, devices, { device: 'cpu', threads: 16 });
    expect(at16.match).toMatchObject({ machineId: SEEDED_MACHINE, deviceKey: 'cpu', threads: 16 });
    expect(at16.known).toEqual(['cpu (1 thread)', 'cpu (16 threads)']);
    // No thread count asked: the most threads profiled (all cores, ORT's default), whichever stored more kernels.
    expect(findProfiledDevice(db, devices, { device: 'cpu' }).match?.threads).toBe(16);
    expect(findProfiledDevice(db, devices, { device: 'cuda:0', machine: 'lab-ws-01' }).match).toBeNull();
  });

  it('names a missing machine, or says none was recorded', () => {
    expect(() => findProfiledDevice(seededDb(), [], { device: 'cpu', machine: 'box' })).toThrow(
      'no machine "box" in the store',
    );
    expect(() => findProfiledDevice(openDatabase(':memory:'), [], { device: 'cpu' })).toThrow(
      'no machine recorded yet: run pipedejavu profile',
    );
  });
});

describe('pickDevice and predictOp keep their own messages', () => {
  it('pickDevice: the device, else what was profiled or how to profile', () => {
    const db = seededDb();
    expect(pickDevice(db, 'cpu', 16).threads).toBe(16);
    expect(() => pickDevice(db, 'cpu', 8)).toThrow(
      'device cpu at 8 threads was never profiled; profiled: cpu (1 thread), cpu (16 threads)',
    );
    expect(() => pickDevice(threeMachines(), 'cpu')).toThrow('device cpu was never profiled; run pipedejavu profile');
  });

  it('predictOp: the same lookup, told "on this machine"', () => {
    const db = trainedStore(['roofline']);
    expect(predictOp(db, { op: 'MatMul', shape: '1x64x64x64', dtype: 'fp32', device: 'cpu', threads: 1 }).device).toBe(
      `${SEEDED_MACHINE}/cpu/cpu/1t`,
    );
    expect(() => predictOp(db, { op: 'MatMul', shape: '1x64x64x64', dtype: 'fp32', device: 'webgpu:0' })).toThrow(
      'device webgpu:0 was never profiled on this machine; profiled: cpu (1 thread), cpu (16 threads)',
    );
  });
});
