/**
 * The rate a device streams weights from memory at (GB/s), read off its profile: the chains of
 * distinct matrix-vector products (weights read once per run, past the last-level cache), at the
 * size of the matrices in question. A decode step's weights ride on it (generation-service.ts), and
 * so does every weight a model reads from memory on each run (core/workload/cold-weights.ts).
 */
import type { Sample } from '../../core/predictor/types.js';
import { DTYPE_BYTES } from '../../core/domain/dtypes.js';
import type { Database } from '../../adapters/store/types.js';
import type { Mode } from '../../core/domain/mode.js';
import { GEMV_ROWS, unhiddenReadShare, unhiddenShareAt, type ColdWeights } from '../../core/workload/cold-weights.js';
import { loadTrainingData, type DeviceGroup, type TrainingData } from './training-data.js';
import { count } from '../../core/text/plural.js';
import { logLinearAt } from '../../core/util/log-linear.js';

/** Weights beyond every cache: a matrix-vector product over them streams from memory (32 MiB and more). */
const STREAMED_WEIGHT_BYTES = 32 * 2 ** 20;

/** A measured rate (GB/s) at a weight matrix's size (bytes). */
export interface StreamRate {
  matrixBytes: number;
  gbps: number;
}

/**
 * The rate at `matrixBytes` read off measured rates: log-linear between the two sizes around it,
 * the nearest one outside them; the median rate without a size.
 */
export function streamRateAt(rates: readonly StreamRate[], matrixBytes?: number): number {
  if (matrixBytes === undefined) {
    const g = rates.map((r) => r.gbps).sort((a, b) => a - b);
    return g[Math.floor((g.length - 1) / 2)] as number;
  }
  return (
    logLinearAt(
      rates.map((r) => ({ x: r.matrixBytes, y: r.gbps })),
      matrixBytes,
    ) ?? Number.NaN
  );
}

/**
 * The bandwidth a decode step's weights stream at. From the profile's chains of distinct GEMVs
 * (MatMul `distinct`: weights read once per run, together past the last-level cache, as a step
 * reads its layers), at the size of the step's weight matrices (`matrixBytes`, their mean) when
 * given. Older profiles without them: the device's largest measured matrix-vector products
 * (MatMul with at most 4 rows, 32 MiB and more), median over them. Null when the profile has
 * neither. One GEMV timed again and again reached 20.5 GB/s at one thread on this project's Zen 5
 * VM, where whole decode steps moved about 15 (bench/runs/h62-decode.md).
 */
export function decodeBandwidthGBps(
  db: Database,
  device: DeviceGroup,
  /** The machine's training data when the caller has loaded it already (a cluster: one load per machine). */
  machine?: Pick<TrainingData, 'samples' | 'streams'>,
  matrixBytes?: number,
): number | null {
  const data = machine ?? loadTrainingData(db, { machineId: device.machineId });
  const chains = streamChains(data, device);
  if (chains.length) return streamRateAt(chains, matrixBytes);
  const rates = data.samples
    .filter(
      (s) =>
        ownProfiled(s, device) &&
        s.op === 'MatMul' &&
        (s.shape.B ?? 1) * (s.shape.M ?? 0) <= 4 &&
        s.bytes >= STREAMED_WEIGHT_BYTES,
    )
    .map((s) => ({ matrixBytes: s.bytes, gbps: s.bytes / (s.timeUs * 1e3) }));
  return rates.length ? streamRateAt(rates) : null;
}

/** A rate this far below the 1-thread one is beyond the rounds' spread at 2 threads (±20-27%, docs/profiling.md). */
const SLOWER_THAN_ONE_THREAD = 1 / 1.3;

/**
 * What to tell a user whose device streams weights slower at its thread count than the same
 * machine's same engine does at one thread (its own 1-thread profile): decode runs faster at one
 * thread there. Null when it does not, or there is no 1-thread profile to compare with.
 */
export function slowerThreadsNote(
  db: Database,
  device: DeviceGroup,
  streamedGBps: number,
  matrixBytes?: number,
): string | null {
  if (device.features.kind !== 'cpu' || (device.threads ?? 1) <= 1) return null;
  const data = loadTrainingData(db, { machineId: device.machineId });
  const single = data.devices.find(
    (d) => d.deviceKey === device.deviceKey && d.executionProvider === device.executionProvider && d.threads === 1,
  );
  const chains = single ? streamChains(data, single) : [];
  if (!chains.length) return null;
  const alone = streamRateAt(chains, matrixBytes);
  if (streamedGBps >= alone * SLOWER_THAN_ONE_THREAD) return null;
  const why =
    device.executionProvider === 'torch-cpu'
      ? "; PyTorch's OpenMP pool, woken by the step's parallel ops, slows the products it runs on one thread, and OMP_WAIT_POLICY=PASSIVE gave the 1-thread speed back on the project's 2-vCPU VM (docs/profiling.md)"
      : '';
  return `${device.deviceKey} at ${count(device.threads ?? 1, 'thread')} streams a decode step's weights at ${streamedGBps.toFixed(1)} GB/s, at 1 thread at ${alone.toFixed(1)} GB/s: decode is predicted faster at --threads 1${why}`;
}

const ownProfiled = (s: Sample, device: DeviceGroup): boolean =>
  s.device.deviceId === device.deviceId && (s.origin ?? 'profile') === 'profile';

/**
 * The device's chains of distinct matrix-vector products (GEMV_ROWS rows at most; thicker chains are
 * a prompt's products): the rate at each matrix size; empty in older profiles.
 */
function streamChains(data: Pick<TrainingData, 'streams'>, device: DeviceGroup): StreamRate[] {
  return data.streams
    .filter((s) => ownProfiled(s, device) && (s.shape.B ?? 1) === 1 && (s.shape.M ?? 1) <= GEMV_ROWS)
    .map((s) => ({
      matrixBytes: (s.shape.K ?? 0) * (s.shape.N ?? 0) * DTYPE_BYTES[s.dtype],
      gbps: s.bytes / (s.timeUs * 1e3),
    }));
}

/**
 * How a prediction prices weights a run reads from memory: `true` (the default) as the profile
 * measured it, `'floor'` as a floor only (the read hidden behind a product's arithmetic, as
 * before the profile measured what it hides), `false` not at all (in cache, as profiled).
 * Benchmarks compare the three.
 */
export type ColdWeightsOption = boolean | 'floor';

/** coldWeightsOn as `option` asks for it; null where weights are priced in cache. */
export function coldWeightsAs(
  db: Database,
  device: DeviceGroup,
  mode: Mode,
  option: ColdWeightsOption = true,
): ColdWeights | null {
  if (option === false) return null;
  const cold = coldWeightsOn(db, device, mode);
  return cold && option === 'floor' ? { ...cold, unhiddenShare: () => 0 } : cold;
}

/**
 * Where a CPU's weights come from on each run of an inference (core/workload/cold-weights.ts): its
 * last-level cache and its streaming rates; null on a GPU, in training, or where the profile has no
 * chains or the probe no cache size.
 */
export function coldWeightsOn(
  db: Database,
  device: DeviceGroup,
  mode: Mode,
  data?: Pick<TrainingData, 'streams' | 'samples'>,
): ColdWeights | null {
  const f = device.features;
  const cache = f.l3Bytes ?? f.l2Bytes;
  if (mode !== 'inference' || f.kind !== 'cpu' || !cache) return null;
  const machine = data ?? loadTrainingData(db, { machineId: device.machineId });
  const chains = streamChains(machine, device);
  if (!chains.length) return null;
  const streamGBps = (bytes: number): number => streamRateAt(chains, bytes);
  const shares = coldProductShares(machine, device, streamGBps);
  return {
    lastLevelCacheBytes: cache,
    streamGBps,
    unhiddenShare: (bytes) => unhiddenShareAt(shares, bytes),
  };
}

/**
 * The share of a many-row product's weight read its arithmetic does not hide on this device and
 * engine, at each weight size the profile measured it (core/workload/cold-weights.ts): its chain of
 * such products over distinct weights past the cache against the same product timed alone, over
 * the read at the streaming rate. Empty where the profile has neither (profiles before them).
 */
function coldProductShares(
  data: Pick<TrainingData, 'streams' | 'samples'>,
  device: DeviceGroup,
  streamGBps: (matrixBytes: number) => number,
): { bytes: number; share: number }[] {
  const out: { bytes: number; share: number }[] = [];
  for (const chain of data.streams) {
    const { B, M, N, K } = chain.shape;
    if (!ownProfiled(chain, device) || (B ?? 1) !== 1 || !M || M <= GEMV_ROWS || !N || !K) continue;
    const warm = data.samples.find(
      (s) =>
        ownProfiled(s, device) &&
        s.op === 'MatMul' &&
        s.dtype === chain.dtype &&
        (s.shape.B ?? 1) === 1 &&
        s.shape.M === M &&
        s.shape.N === N &&
        s.shape.K === K,
    );
    if (!warm) continue;
    const bytes = K * N * DTYPE_BYTES[chain.dtype];
    const coldUs = chain.timeUs / (chain.shape['distinct'] ?? 1);
    out.push({ bytes, share: unhiddenReadShare(coldUs, warm.timeUs, bytes / (streamGBps(bytes) * 1e3)) });
  }
  return out;
}

/**
 * The rates a decode step's attention products of more than one query row (a grouped-query step:
 * MLAS packs the cache operand before it multiplies) run at over a KV cache read from memory (GB/s
 * of cache), at each size of one product's cache operand the profile measured: its rows of batched
 * products over distinct caches (K^T and V in turn, past the last-level cache), bytes over time.
 * On the project's Zen 4 VM they read their cache at 6.4-7.2 GB/s at one thread whatever the
 * shape, where the weights' matrix-vector products stream at 18-20 (docs/profiling.md). Empty in
 * profiles before these rows.
 */
export function cacheReadRates(db: Database, device: DeviceGroup): StreamRate[] {
  const machine = loadTrainingData(db, { machineId: device.machineId });
  const out: StreamRate[] = [];
  for (const row of machine.streams) {
    const { B, M, N, K } = row.shape;
    const products = row.shape['distinct'] ?? 0;
    if (!ownProfiled(row, device) || !B || B < 2 || !M || M < 2 || !N || !K || products < 2) continue;
    const matrixBytes = B * K * N * DTYPE_BYTES[row.dtype];
    out.push({ matrixBytes, gbps: (products * matrixBytes) / (row.timeUs * 1e3) });
  }
  return out;
}
