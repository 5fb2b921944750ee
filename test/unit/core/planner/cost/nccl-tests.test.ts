import { describe, expect, it } from 'vitest';
import { UserError } from '../../../../../src-main/core/errors.js';
import { datasheetFor } from '../../../../../src-main/core/planner/cost/datasheets.js';
import {
  busBandwidthFactor,
  fitAlphaBeta,
  fitNcclTests,
  parseNcclTests,
} from '../../../../../src-main/core/planner/cost/nccl-tests.js';

/**
 * HAND-WRITTEN, not a capture: laid out like nccl-tests' all_reduce_perf on 8 GPUs
 * (`all_reduce_perf -b 8 -e 512M -f 4 -g 8`), with times made up from an alpha-beta curve
 * (alpha ~24 µs, algbw ~206 GB/s, a slower protocol region around 32 kB-2 MB, ±2% noise);
 * algbw = size / time and busbw = algbw x 2(n−1)/n are consistent with the times.
 */
const ALL_REDUCE_8X_H100 = `# Collective test starting: all_reduce_perf
# nThread 1 nGpus 8 minBytes 8 maxBytes 536870912 step: 4(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
#
# Using devices
#  Rank  0 Group  0 Pid  41207 on dgx-h100-01 device  0 [0x18] NVIDIA H100 80GB HBM3
#  Rank  1 Group  0 Pid  41207 on dgx-h100-01 device  1 [0x2a] NVIDIA H100 80GB HBM3
#  Rank  2 Group  0 Pid  41207 on dgx-h100-01 device  2 [0x3a] NVIDIA H100 80GB HBM3
#  Rank  3 Group  0 Pid  41207 on dgx-h100-01 device  3 [0x5d] NVIDIA H100 80GB HBM3
#  Rank  4 Group  0 Pid  41207 on dgx-h100-01 device  4 [0x9a] NVIDIA H100 80GB HBM3
#  Rank  5 Group  0 Pid  41207 on dgx-h100-01 device  5 [0xab] NVIDIA H100 80GB HBM3
#  Rank  6 Group  0 Pid  41207 on dgx-h100-01 device  6 [0xba] NVIDIA H100 80GB HBM3
#  Rank  7 Group  0 Pid  41207 on dgx-h100-01 device  7 [0xdb] NVIDIA H100 80GB HBM3
#
#                                                              out-of-place                       in-place          
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       
           8             2     float     sum      -1    23.52    0.00    0.00      0    24.40    0.00    0.00      0
          32             8     float     sum      -1    23.80    0.00    0.00      0    23.72    0.00    0.00      0
         128            32     float     sum      -1    24.22    0.01    0.01      0    24.03    0.01    0.01      0
         512           128     float     sum      -1    23.84    0.02    0.04      0    24.24    0.02    0.04      0
        2048           512     float     sum      -1    24.25    0.08    0.15      0    24.05    0.09    0.15      0
        8192          2048     float     sum      -1    24.22    0.34    0.59      0    24.17    0.34    0.59      0
       32768          8192     float     sum      -1    24.49    1.34    2.34      0    23.94    1.37    2.40      0
      131072         32768     float     sum      -1    24.63    5.32    9.31      0    24.96    5.25    9.19      0
      524288        131072     float     sum      -1    27.22   19.26   33.71      0    26.52   19.77   34.59      0
     2097152        524288     float     sum      -1    36.28   57.81  101.16      0    35.97   58.31  102.04      0
     8388608       2097152     float     sum      -1    65.81  127.46  223.05      0    65.52  128.04  224.06      0
    33554432       8388608     float     sum      -1    184.1  182.30  319.02      0    187.0  179.45  314.04      0
   134217728      33554432     float     sum      -1    687.0  195.37  341.91      0    680.6  197.19  345.09      0
   536870912     134217728     float     sum      -1   2645.3  202.95  355.17      0   2638.3  203.49  356.11      0
# Out of bounds values : 0 OK
# Avg bus bandwidth    : 99.0989 
#
# Collective test concluded: all_reduce_perf
`;

/** HAND-WRITTEN: an older all_gather_perf layout (no banner, validation off: #wrong N/A), 2 ranks on two hosts. */
const ALL_GATHER_2_HOSTS = `# nThread 1 nGpus 1 minBytes 1048576 maxBytes 67108864 step: 8(factor) warmup iters: 5 iters: 20 validation: 0
#
# Using devices
#   Rank  0 Pid   9001 on     node-a device  0 [0x01] NVIDIA GeForce RTX 4090
#   Rank  1 Pid   9002 on     node-b device  0 [0x01] NVIDIA GeForce RTX 4090
#
#                                                     out-of-place                       in-place          
#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error
#        (B)    (elements)                        (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       
     1048576        131072     float    none    520.1    2.02    1.01    N/A    515.7    2.03    1.02    N/A
     8388608       1048576     float    none   3538.0    2.37    1.19    N/A   3530.2    2.38    1.19    N/A
    67108864       8388608     float    none    27642    2.43    1.21    N/A    27601    2.43    1.22    N/A
`;

describe('nccl-tests output', () => {
  it('parses the all_reduce table, the op and the ranks', () => {
    const r = parseNcclTests(ALL_REDUCE_8X_H100);
    expect(r.op).toBe('all_reduce');
    expect(r.rows).toHaveLength(14);
    expect(r.avgBusbwGBps).toBeCloseTo(99.0989, 6);
    expect(r.ranks).toHaveLength(8);
    expect(r.ranks[3]).toEqual({
      rank: 3,
      host: 'dgx-h100-01',
      device: 3,
      busId: '0x5d',
      name: 'NVIDIA H100 80GB HBM3',
    });
    expect(datasheetFor(r.ranks[0]?.name ?? '')?.id).toBe('h100-sxm5-80gb');
    expect(r.rows[12]).toEqual({
      op: 'all_reduce',
      sizeBytes: 134217728,
      count: 33554432,
      type: 'float',
      redop: 'sum',
      root: -1,
      timeUs: 687.0,
      algbwGBps: 195.37,
      busbwGBps: 341.91,
      wrong: 0,
      inPlace: { timeUs: 680.6, algbwGBps: 197.19, busbwGBps: 345.09, wrong: 0 },
    });
  });

  it('has busbw = algbw x 2(n-1)/n in the sample, as nccl-tests defines it', () => {
    const r = parseNcclTests(ALL_REDUCE_8X_H100);
    for (const row of r.rows.filter((x) => x.algbwGBps > 10)) {
      expect(row.busbwGBps / row.algbwGBps).toBeCloseTo(busBandwidthFactor('all_reduce', 8), 2);
    }
  });

  it('parses an older layout without root, with #wrong N/A, naming the op from the caller', () => {
    const r = parseNcclTests(ALL_GATHER_2_HOSTS, { op: 'all_gather' });
    expect(r.op).toBe('all_gather');
    expect(r.ranks.map((x) => x.host)).toEqual(['node-a', 'node-b']);
    expect(r.rows[2]).toMatchObject({ sizeBytes: 67108864, redop: 'none', root: null, timeUs: 27642, wrong: null });
    expect(parseNcclTests(ALL_GATHER_2_HOSTS).op).toBe('unknown');
  });

  it('rejects output without result rows', () => {
    expect(() => parseNcclTests('# nThread 1 nGpus 8\n# Avg bus bandwidth : 0\n')).toThrow(UserError);
  });
});

describe('alpha-beta fit', () => {
  it('recovers alpha and beta of exact points with either weighting', () => {
    const pts = [1e3, 1e5, 1e7, 1e9].map((s) => ({ sizeBytes: s, timeUs: 20 + s / 50e3 }));
    for (const weighting of ['relative', 'none'] as const) {
      const f = fitAlphaBeta(pts, { weighting });
      expect(f?.alphaUs).toBeCloseTo(20, 6);
      expect(f?.gbps).toBeCloseTo(50, 6);
      expect(f?.maxRelError).toBeLessThan(1e-9);
    }
    expect(fitAlphaBeta([{ sizeBytes: 8, timeUs: 20 }])).toBeNull();
  });

  it('fits the sample: latency ~24 µs, bandwidth ~206 GB/s; a ring link ~360 GB/s (busbw)', () => {
    const f = fitNcclTests(parseNcclTests(ALL_REDUCE_8X_H100));
    expect(f).not.toBeNull();
    expect(f!.ranks).toBe(8);
    expect(f!.fit.alphaUs).toBeGreaterThan(22);
    expect(f!.fit.alphaUs).toBeLessThan(27);
    expect(f!.fit.gbps).toBeGreaterThan(190);
    expect(f!.fit.gbps).toBeLessThan(215);
    expect(f!.fit.maxRelError).toBeLessThan(0.25);
    expect(f!.link.gbps).toBeCloseTo(f!.fit.gbps * 1.75, 9);
    expect(f!.link.alphaUs).toBeCloseTo(f!.fit.alphaUs / 14, 9);
  });

  it('says which line and which number is wrong: not a number, not positive', () => {
    const why = (text: string): string => {
      try {
        parseNcclTests(text, { source: 'nccl.txt' });
      } catch (e) {
        return e instanceof UserError ? e.message : `not a UserError: ${String(e)}`;
      }
      return 'accepted';
    };
    const lines = ALL_REDUCE_8X_H100.split('\n');
    const row = lines.findIndex((l) => /^\s+32\s+8\s+float/.test(l));
    const withRow = (f: (l: string) => string): string => lines.map((l, i) => (i === row ? f(l) : l)).join('\n');
    const at = `nccl.txt line ${row + 1}`;
    expect(why(withRow((l) => l.replace('23.80', '  nan')))).toBe(`${at}: time "nan" is not a number`);
    expect(why(withRow((l) => l.replace('23.80', ' -nan')))).toBe(`${at}: time "-nan" is not a number`);
    expect(why(withRow((l) => l.replace('23.80', ' 0.00')))).toBe(`${at}: time "0.00" is not a positive number`);
    expect(why(withRow((l) => l.replace('23.80', '-5.00')))).toBe(`${at}: time "-5.00" is not a positive number`);
    expect(why(withRow((l) => l.replace('23.72', '  inf')))).toBe(`${at}: in-place time "inf" is not a number`);
    expect(why(withRow((l) => l.replace(/0\.00(\s+0\s+23\.72)/, 'NaN $1')))).toBe(`${at}: busbw "NaN" is not a number`);
    expect(why(ALL_REDUCE_8X_H100)).toBe('accepted');
    // Without a source, the line still says where.
    expect(() => parseNcclTests(withRow((l) => l.replace('23.80', '  nan')))).toThrow(
      `nccl-tests line ${row + 1}: time "nan" is not a number`,
    );
  });

  it('inverts the ring formulas for all_gather (n-1)/n', () => {
    const f = fitNcclTests(parseNcclTests(ALL_GATHER_2_HOSTS, { op: 'all_gather' }));
    expect(f!.link.gbps).toBeCloseTo(f!.fit.gbps * 0.5, 9);
    expect(f!.link.alphaUs).toBeCloseTo(f!.fit.alphaUs, 9);
  });
});
