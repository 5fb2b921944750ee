/**
 * What a replica held over time, step by step (the KV cache's tokens, the requests queued), and the
 * same downsampled to a few hundred points a chart or a table can show: each point is one equal
 * slice of the run with the time-weighted mean and the largest value in it, so a peak narrower than
 * a slice still shows in `max`. Pure.
 */
import { floatColumn } from './columns.js';

export interface SeriesPoint {
  /** Start of the slice, from the first arrival (µs). */
  atUs: number;
  /** Time-weighted mean over the slice (0 where the replica sat idle), and the largest value in it. */
  mean: number;
  max: number;
}

export interface Series {
  /** Width of each slice (µs): a value is placed within this much of its time. */
  sliceUs: number;
  points: SeriesPoint[];
  /** The largest value of the whole run. */
  peak: number;
}

/** At most this many points per series. */
export const SERIES_POINTS = 200;

export class Timeline {
  private readonly at = floatColumn();
  private readonly dur = floatColumn();
  private readonly kv = floatColumn();
  private readonly queue = floatColumn();

  /** The replica held `kv` tokens and `queue` requests waited from `at` for `dur` (µs). */
  record(at: number, dur: number, kv: number, queue: number): void {
    this.at.push(at);
    this.dur.push(dur);
    this.kv.push(kv);
    this.queue.push(queue);
  }

  series(which: 'kv' | 'queue', start: number, end: number, points = SERIES_POINTS): Series {
    return downsample(this.at.values(), this.dur.values(), (which === 'kv' ? this.kv : this.queue).values(), {
      start,
      end,
      points,
    });
  }
}

/** Values held over [at, at + dur) as `points` equal slices of [start, end). */
function downsample(
  at: Float64Array,
  dur: Float64Array,
  values: Float64Array,
  range: { start: number; end: number; points: number },
): Series {
  const span = Math.max(0, range.end - range.start);
  const n = span > 0 ? Math.max(1, range.points) : 0;
  const slice = n > 0 ? span / n : 0;
  const area = new Float64Array(n);
  const max = new Float64Array(n);
  let peak = 0;
  for (let i = 0; i < at.length; i++) {
    const v = values[i] as number;
    peak = Math.max(peak, v);
    if (n === 0) continue;
    const a = (at[i] as number) - range.start;
    const b = a + (dur[i] as number);
    const first = Math.min(n - 1, Math.max(0, Math.floor(a / slice)));
    const last = Math.min(n - 1, Math.max(first, Math.ceil(b / slice) - 1));
    for (let s = first; s <= last; s++) {
      const overlap = Math.min(b, (s + 1) * slice) - Math.max(a, s * slice);
      if (overlap > 0) area[s] = (area[s] as number) + v * overlap;
      max[s] = Math.max(max[s] as number, v);
    }
  }
  const points: SeriesPoint[] = [];
  for (let s = 0; s < n; s++) {
    points.push({ atUs: s * slice, mean: (area[s] as number) / slice, max: max[s] as number });
  }
  return { sliceUs: slice, points, peak };
}
