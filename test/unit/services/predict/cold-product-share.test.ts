/** What of a weight read a many-row product does not hide, as a profile measures it (stream-rate.ts). */
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import { profiledAttentionUs } from '../../../../src-main/services/predict/decode-attention-time.js';
import {
  cacheReadRates,
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

describe("a profile's rows of decode attention over caches from memory", () => {
  /** TinyLlama's attention at 2,048 cached tokens: 4 KV heads, groups of 8, width 64; 2 MiB a cache operand. */
  const scores = { B: 4, M: 8, N: 2048, K: 64 };
  const MiB2 = 4 * 64 * 2048 * 4;
  /** GPT-2's: 12 heads of one query row each, 3 MiB a cache operand. */
  const gpt2 = { B: 12, M: 1, N: 1024, K: 64 };
  const MiB3 = 12 * 64 * 1024 * 4;
  const rows: [Record<string, number>, number][] = [
    [gemvChain, 32 * READ_US],
    // 64 products over 2 MiB caches at 6.4 GB/s; 42 over 3 MiB at 16 GB/s
    [{ ...scores, distinct: 64 }, (64 * MiB2) / 6.4e3],
    [{ ...gpt2, distinct: 42 }, (42 * MiB3) / 16e3],
  ];

  it('gives the rate grouped products read their cache at; a one-row row is neither one nor a GEMV stream', () => {
    const db = trainedStore();
    const device = pickDevice(db, 'cpu', 1);
    store(db, rows);
    const rates = cacheReadRates(db, device);
    expect(rates).toHaveLength(1);
    expect(rates[0]?.matrixBytes).toBe(MiB2);
    expect(rates[0]?.gbps).toBeCloseTo(6.4, 6);
    // The one-row attention products do not stand for the weights' matrix-vector stream.
    expect(decodeBandwidthGBps(db, device, undefined, MiB4)).toBeCloseTo(20, 2);
  });

  it('prices a product over the cache at no less than its cache bytes at that rate', () => {
    const shape = { layers: 2, hidden: 2048, heads: 32, kvHeads: 4, params: 1e8, expertParams: 0 };
    const decoder = { ...shape, gatheredParams: 0, experts: 0, topK: 0, nodesPerStep: 100 };
    const at = { batch: 1, dataflow: 'read-once' as const, dtype: 'fp32' as const, bandwidthGBps: 20 };
    const at64 = trainedStore();
    store(at64, rows);
    const at32 = trainedStore();
    store(at32, [[{ ...scores, distinct: 64 }, (64 * MiB2) / 3.2e3]]);
    const attention = (db: Database): number =>
      profiledAttentionUs(db, pickDevice(db, 'cpu', 1), decoder, 2048, at) ?? Number.NaN;
    // Both caches of each layer (2 MiB each, 8 query rows) at the rate, the profile's products faster.
    expect(attention(at32) - attention(at64)).toBeCloseTo(2 * 2 * (MiB2 / 3.2e3 - MiB2 / 6.4e3), 3);
  });
});
