/** Seeded random planning problems for the planner tests. */
import { seededRandom } from '../../../../src-main/core/random.js';
import type { Mode, PlanDevice, PlanLayer, PlanLink, PlanProblem } from '../../../../src-main/core/planner/types.js';

const GiB = 1024 ** 3;

export interface RandomProblemOptions {
  layers?: number;
  devices?: number;
  mode?: Mode;
  /** Give the devices twins (same name, memory and times) so the hybrid space has groups. */
  twins?: boolean;
  /** Memory per device as a share of the whole model's training footprint: [low, high). */
  memoryShare?: [number, number];
  batch?: number;
  /** Give each layer resident bytes per sample (a served decoder's KV cache), held for the whole batch. */
  resident?: boolean;
  /** Let most layers split tensor-parallel (heads 8 or 12, KV heads 4 or 2) and allow degrees 1, 2 and 4. */
  tensor?: boolean;
}

export function randomProblem(seed: number, opts: RandomProblemOptions = {}): PlanProblem {
  const r = seededRandom(seed);
  const between = (a: number, b: number): number => a + (b - a) * r();
  const int = (a: number, b: number): number => Math.floor(between(a, b + 1));
  const L = opts.layers ?? int(1, 8);
  const D = opts.devices ?? int(3, 4);
  const mode: Mode = opts.mode ?? (r() < 0.7 ? 'training' : 'inference');
  const batch = opts.batch ?? ([4, 6, 8, 12] as const)[int(0, 3)] ?? 8;
  const kinds: { name: string; speed: number; kind: 'cpu' | 'gpu' }[] = [];
  for (let d = 0; d < D; d++) {
    const twinOf = opts.twins && d > 0 && r() < 0.6 ? kinds[int(0, d - 1)] : undefined;
    kinds.push(twinOf ?? { name: `dev${d}`, speed: between(0.3, 3), kind: r() < 0.2 ? 'cpu' : 'gpu' });
  }
  const layers: PlanLayer[] = [];
  for (let l = 0; l < L; l++) {
    const base = between(50, 500);
    const forwardUs: Record<string, number> = {};
    const backwardUs: Record<string, number> = {};
    const perName = new Map<string, [number, number]>();
    kinds.forEach((k, d) => {
      const t = perName.get(k.name) ?? [(base / k.speed) * between(0.7, 1.3), 0];
      t[1] = t[1] || t[0] * between(1.6, 2.4);
      perName.set(k.name, t);
      forwardUs[`d${d}`] = t[0];
      backwardUs[`d${d}`] = t[1];
    });
    layers.push({
      name: `layer${l}`,
      forwardUs,
      backwardUs,
      params: Math.round(between(1e6, 2e8)),
      outBytesPerSample: Math.round(between(1e4, 4e6)),
      activationBytesPerSample: Math.round(between(1e5, 6e7)),
      // Drawn only when asked, so the other instances stay what they were.
      ...(opts.resident ? { residentBytesPerSample: Math.round(between(1e6, 8e7)) } : {}),
    });
  }
  if (opts.tensor) {
    // Drawn only when asked, so the other instances stay what they were.
    const heads = r() < 0.5 ? 8 : 12;
    const kvHeads = r() < 0.5 ? 4 : 2;
    for (const layer of layers) {
      if (r() < 0.75) layer.tensor = { divides: [heads, kvHeads], forwardAllReduces: 2, backwardAllReduces: 2 };
    }
  }
  const training = mode === 'training';
  const bytesPerParam = training ? 16 : 2;
  const footprint =
    layers.reduce(
      (s, l) => s + l.params * bytesPerParam + (l.activationBytesPerSample + (l.residentBytesPerSample ?? 0)) * batch,
      0,
    ) +
    0.5 * GiB;
  const [lo, hi] = opts.memoryShare ?? [0.15, 1.1];
  const memOf = new Map<string, number>();
  const devices: PlanDevice[] = kinds.map((k, d) => {
    const mem = memOf.get(k.name) ?? Math.round(footprint * between(lo, hi));
    memOf.set(k.name, mem);
    return { id: `d${d}`, name: k.name, kind: k.kind, machine: 'm0', memoryBytes: mem, estimate: 'profiled' };
  });
  const links: PlanLink[] = [];
  for (let a = 0; a < D; a++) {
    for (let b = a + 1; b < D; b++) {
      links.push({ a: `d${a}`, b: `d${b}`, alphaUs: between(2, 20), gbps: between(2, 60), kind: 'test' });
    }
  }
  return {
    layers,
    devices,
    links,
    mode,
    batch,
    bytesPerParam,
    zeroStage: training ? (int(0, 3) as 0 | 1 | 2 | 3) : 0,
    overheadBytes: Math.round(between(0, 0.3) * GiB),
    ...(opts.tensor ? { tensorDegrees: [1, 2, 4] } : {}),
  };
}

/**
 * A small random cluster: `machines` machines of `perMachine` like GPUs, `kinds` kinds of machine
 * alternating, a fast link inside a machine (NVLink-like, 100 GB/s) and `networkGBps` between.
 */
export function randomCluster(
  seed: number,
  opts: { machines: number; perMachine: number; kinds: number; layers: number; networkGBps: number },
): PlanProblem {
  const { machines, perMachine, kinds } = opts;
  const base = randomProblem(seed, {
    layers: opts.layers,
    devices: machines * perMachine,
    twins: true,
    batch: 4,
    mode: 'training',
  });
  const template = base.devices.slice(0, kinds);
  const of = (i: number): PlanDevice => template[Math.floor(i / perMachine) % kinds] as PlanDevice;
  const devices = base.devices.map((d, i) => ({
    ...d,
    name: of(i).name,
    memoryBytes: of(i).memoryBytes,
    kind: 'gpu' as const,
    machine: `m${Math.floor(i / perMachine)}`,
  }));
  const layers = base.layers.map((l) => ({
    ...l,
    forwardUs: Object.fromEntries(devices.map((d, i) => [d.id, l.forwardUs[of(i).id] ?? 0])),
    backwardUs: Object.fromEntries(devices.map((d, i) => [d.id, l.backwardUs[of(i).id] ?? 0])),
  }));
  const links: PlanLink[] = devices.flatMap((a, i) =>
    devices
      .slice(i + 1)
      .map((b) =>
        a.machine === b.machine
          ? { a: a.id, b: b.id, kind: 'NVLINK', alphaUs: 4, gbps: 100 }
          : { a: a.id, b: b.id, kind: 'NETWORK', alphaUs: 10, gbps: opts.networkGBps },
      ),
  );
  return { ...base, devices, layers, links };
}
