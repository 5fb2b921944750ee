/** What of a weight read a many-row product does not hide, as a profile measures it (stream-rate.ts). */
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import {
  coldWeightsAs,
  coldWeightsOn,
  decodeBandwidthGBps,
} from '../../../../src-main/services/predict/stream-rate.js';
import { pickDevice } from '../../../../src-main/services/workload/workload-service.js';
import { storeMatMuls } from '../../../helpers/seeded-store.js';
import { trainedStore } from '../service-stores.js';

const store = (db: Database, rows: [Record<string, number>, number][]): void => storeMatMuls(db, 1, rows);

const MiB4 = 4 * 2 ** 20;
/** A 1024 x 1024 fp32 weight streamed at 20 GB/s: 209.7 µs. */
const READ_US = MiB4 / 20e3;
const gemvChain = { B: 1, M: 1, N: 1024, K: 1024, distinct: 32 };
const coldChain = { B: 1, M: 32, N: 1024, K: 1024, distinct: 32 };
const warm = { B: 1, M: 32, N: 1024, K: 1024 };

describe("a profile's chain of many-row products over weights from memory", () => {
  it('gives the share of the read the product does not hide: cold less warm, over the read', () => {
    const db = trainedStore();
    const device = pickDevice(db, 'cpu', 1);
    store(db, [
      [gemvChain, 32 * READ_US],
      [coldChain, 32 * (600 + 0.75 * READ_US)],
      [warm, 600],
    ]);
    const cold = coldWeightsOn(db, device, 'inference');
    expect(cold).not.toBeNull();
    expect(cold?.unhiddenShare(MiB4)).toBeCloseTo(0.75, 3);
    // One weight size measured: it stands for every other.
    expect(cold?.unhiddenShare(64 * MiB4)).toBeCloseTo(0.75, 3);
    // The many-row chain is not a stream: the decode rate is the GEMV chain's alone.
    expect(decodeBandwidthGBps(db, device, undefined, MiB4)).toBeCloseTo(20, 2);
    // As a floor only, the share is left out; not at all, nothing.
    expect(coldWeightsAs(db, device, 'inference', 'floor')?.unhiddenShare(MiB4)).toBe(0);
    expect(coldWeightsAs(db, device, 'inference', false)).toBeNull();
    expect(coldWeightsAs(db, device, 'inference')?.unhiddenShare(MiB4)).toBeCloseTo(0.75, 3);
  });

  it('is 0 without the chain or without the warm product (older profiles), and never outside 0-1', () => {
    const without = trainedStore();
    store(without, [[gemvChain, 32 * READ_US]]);
    expect(coldWeightsOn(without, pickDevice(without, 'cpu', 1), 'inference')?.unhiddenShare(MiB4)).toBe(0);
    const noWarm = trainedStore();
    store(noWarm, [
      [gemvChain, 32 * READ_US],
      [coldChain, 32 * 900],
    ]);
    expect(coldWeightsOn(noWarm, pickDevice(noWarm, 'cpu', 1), 'inference')?.unhiddenShare(MiB4)).toBe(0);
    const faster = trainedStore();
    store(faster, [
      [gemvChain, 32 * READ_US],
      [coldChain, 32 * 500],
      [warm, 600],
    ]);
    expect(coldWeightsOn(faster, pickDevice(faster, 'cpu', 1), 'inference')?.unhiddenShare(MiB4)).toBe(0);
  });

  it("reads the share at a product's weight size between the sizes measured, log-linear in bytes", () => {
    const db = trainedStore();
    const device = pickDevice(db, 'cpu', 1);
    const MiB16 = 16 * 2 ** 20;
    const read16 = MiB16 / 20e3;
    store(db, [
      [gemvChain, 32 * READ_US],
      [{ ...gemvChain, N: 2048, K: 2048, distinct: 8 }, 8 * read16],
      [coldChain, 32 * (600 + 0.8 * READ_US)],
      [warm, 600],
      [{ ...coldChain, N: 2048, K: 2048, distinct: 8 }, 8 * (2400 + 0.2 * read16)],
      [{ ...warm, N: 2048, K: 2048 }, 2400],
    ]);
    const share = coldWeightsOn(db, device, 'inference')?.unhiddenShare;
    expect(share?.(MiB4)).toBeCloseTo(0.8, 3);
    expect(share?.(8 * 2 ** 20)).toBeCloseTo(0.5, 3);
    expect(share?.(MiB16)).toBeCloseTo(0.2, 3);
    expect(share?.(64 * 2 ** 20)).toBeCloseTo(0.2, 3);
    expect(share?.(2 ** 20)).toBeCloseTo(0.8, 3);
  });
});
