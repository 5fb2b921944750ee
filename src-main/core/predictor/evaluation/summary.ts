/**
 * The evaluation in a screenful: per predictor its error on held-out measurements (MAPE and
 * the shares within ±10 % and ±25 %), and per device the predictor that does best there. Made
 * from the test predictions of one protocol (grouped k-fold: every measurement predicted by
 * predictors trained without it and without shapes near it). Pure.
 */
import { physicalDeviceCount, type MachineDeviceId } from '../../domain/device-id.js';
import { count } from '../../text/plural.js';
import { ape } from './metrics.js';
import { table } from './format.js';
import type { ProtocolName, ScatterRow } from './types.js';

export interface PredictorAccuracy {
  predictor: string;
  /** Test predictions. */
  n: number;
  /** Mean absolute percentage error, %. */
  mape: number;
  /** Share of predictions within ±10 % of the measured time, %. */
  within10: number;
  /** Share within ±25 %, %. */
  within25: number;
}

export interface DeviceBest {
  /** The device's id (`device.deviceId`). */
  device: MachineDeviceId;
  /** The predictor with the lowest MAPE on this device's measurements. */
  best: string;
  mape: number;
  within25: number;
  n: number;
}

export interface EvaluationSummary {
  protocol: ProtocolName;
  folds: number;
  samples: number;
  /** Best first (lowest MAPE). */
  predictors: PredictorAccuracy[];
  /** In the order of the device ids. */
  devices: DeviceBest[];
}

const TOLERANCE = 1e-12;

function accuracy(predictor: string, rows: readonly ScatterRow[]): PredictorAccuracy {
  const apes = rows.map((r) => ape(r.actualUs, r.predictedUs));
  const n = apes.length;
  const share = (limit: number): number => (n ? (100 * apes.filter((e) => e <= limit + TOLERANCE).length) / n : NaN);
  return {
    predictor,
    n,
    mape: n ? (100 * apes.reduce((a, e) => a + e, 0)) / n : NaN,
    within10: share(0.1),
    within25: share(0.25),
  };
}

function groupBy<K>(rows: readonly ScatterRow[], key: (r: ScatterRow) => K): Map<K, ScatterRow[]> {
  const out = new Map<K, ScatterRow[]>();
  for (const r of rows) {
    const list = out.get(key(r));
    if (list) list.push(r);
    else out.set(key(r), [r]);
  }
  return out;
}

const byMape = (a: PredictorAccuracy, b: PredictorAccuracy): number =>
  a.mape - b.mape || (a.predictor < b.predictor ? -1 : 1);

/** The summary of one protocol's test predictions (every predictor's rows, not the capped scatter). */
export function summarizeEvaluation(
  protocol: ProtocolName,
  folds: number,
  rows: readonly ScatterRow[],
): EvaluationSummary {
  const mine = rows.filter((r) => r.protocol === protocol);
  const predictors = [...groupBy(mine, (r) => r.predictor)].map(([p, list]) => accuracy(p, list)).sort(byMape);
  const devices = [...groupBy(mine, (r) => r.device)]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .flatMap(([device, list]) => {
      const [best] = [...groupBy(list, (r) => r.predictor)].map(([p, l]) => accuracy(p, l)).sort(byMape);
      return best ? [{ device, best: best.predictor, mape: best.mape, within25: best.within25, n: best.n }] : [];
    });
  const samples = new Set(mine.map((r) => r.index)).size;
  return { protocol, folds, samples, predictors, devices };
}

const pct = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(1)}%` : '-');

/** The summary as text: two tables and what "held out" means; `deviceName` names a device id for people. */
export function formatSummary(s: EvaluationSummary, deviceName: (id: string) => string = (id) => id): string {
  const lines = [
    `Predictor accuracy on held-out measurements: ${count(s.samples, 'measurement')} on ${count(physicalDeviceCount(s.devices.map((d) => d.device)), 'device')}`,
    '',
    table([
      ['PREDICTOR', 'MAPE', 'WITHIN ±10%', 'WITHIN ±25%', 'N'],
      ...s.predictors.map((p) => [p.predictor, pct(p.mape), pct(p.within10), pct(p.within25), String(p.n)]),
    ]),
    '',
    'Best predictor per device',
    table([
      ['DEVICE', 'BEST', 'MAPE', 'WITHIN ±25%', 'N'],
      ...s.devices.map((d) => [deviceName(d.device), d.best, pct(d.mape), pct(d.within25), String(d.n)]),
    ]),
    '',
    `Held out: every figure is from ${s.protocol} (${count(s.folds, 'fold')}): each measurement is predicted by`,
    'predictors trained without it and without shapes near it. MAPE = mean |predicted - measured| / measured.',
    '`pipedejavu evaluate --verbose` shows every protocol (unseen shapes, left-out families and devices),',
    'per op family and per size.',
  ];
  return lines.join('\n');
}
