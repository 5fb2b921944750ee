/** The networks' layer tables of models/suite-shapes/: every file read, valid, and true to its network. */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { convOutSize } from '../../../../src-main/core/kernels/cost.js';
import {
  NETWORKS,
  networkTable,
  parseNetworkFile,
  type NetworkFile,
} from '../../../../src-main/core/kernels/network-shapes.js';

const DIR = fileURLToPath(new URL('../../../../models/suite-shapes/', import.meta.url));

type Table = NetworkFile['tables'][string];

/** Every table of every network, named network.table. */
const TABLES: [string, Table][] = Object.entries(NETWORKS).flatMap(([network, file]) =>
  Object.entries(file.tables).map(([name, table]): [string, Table] => [`${network}.${name}`, table]),
);

/** The rows of a table as records of its columns. */
const records = (table: Table): Record<string, number>[] =>
  table.rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c, row[i] as number])));

const vgg = (): Record<string, unknown> => JSON.parse(JSON.stringify(NETWORKS['vgg-16'])) as Record<string, unknown>;

describe('network shapes (models/suite-shapes/)', () => {
  it("reads every file of the folder, each named for its network (picks.json is the suites' own)", () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.json') && f !== 'picks.json');
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual(Object.keys(NETWORKS).sort());
    for (const [name, file] of Object.entries(NETWORKS)) {
      expect(file.network).toBe(name);
      expect(file.sources.length, name).toBeGreaterThan(0);
      expect(Object.keys(file.tables).length, name).toBeGreaterThan(0);
    }
  });

  it('refuses a file whose columns, values or name are wrong, naming the file and the place', () => {
    expect(() => parseNetworkFile(vgg(), 'vgg-16')).not.toThrow();
    expect(() => parseNetworkFile(vgg(), 'vgg-19')).toThrow(/vgg-19\.json: network is vgg-16, not vgg-19/);
    const swapped = vgg() as { tables: { convs: { columns: string[] } } };
    swapped.tables.convs.columns = ['HW', 'C', 'K', 'R', 'stride', 'groups', 'act'];
    expect(() => parseNetworkFile(swapped, 'vgg-16')).toThrow(/vgg-16\.json tables\.convs\.columns: .*C, HW, K/);
    const short = vgg() as { tables: { convs: { rows: number[][] } } };
    short.tables.convs.rows.push([64, 224, 64]);
    expect(() => parseNetworkFile(short, 'vgg-16')).toThrow(/tables\.convs\.rows\.9: 3 values for 7 columns/);
    const flag = vgg() as { tables: { convs: { rows: number[][] } } };
    (flag.tables.convs.rows[0] as number[])[6] = 2;
    expect(() => parseNetworkFile(flag, 'vgg-16')).toThrow(/tables\.convs\.rows\.0\.6: act 2 is out of 0\.\.1/);
    const zero = vgg() as { tables: { convs: { rows: number[][] } } };
    (zero.tables.convs.rows[0] as number[])[1] = 0;
    expect(() => parseNetworkFile(zero, 'vgg-16')).toThrow(/HW 0 is out of 1\.\./);
    expect(() => parseNetworkFile({ ...vgg(), extra: 1 }, 'vgg-16')).toThrow(/vgg-16\.json/);
  });

  it('reads a row with a note as its values, and checks the values under the note', () => {
    const noted = vgg() as { tables: { convs: { rows: unknown[] } } };
    noted.tables.convs.rows[0] = { row: [3, 224, 64, 3, 1, 1, 1], note: 'the stem' };
    expect(parseNetworkFile(noted, 'vgg-16')).toEqual(NETWORKS['vgg-16']);
    noted.tables.convs.rows[0] = { row: [3, 224, 64, 3, 1, 1, 2], note: 'the stem' };
    expect(() => parseNetworkFile(noted, 'vgg-16')).toThrow(/tables\.convs\.rows\.0\.row\.6: act 2 is out of 0\.\.1/);
    noted.tables.convs.rows[0] = { row: [3, 224, 64], note: 'the stem' };
    expect(() => parseNetworkFile(noted, 'vgg-16')).toThrow(/tables\.convs\.rows\.0\.row: 3 values for 7 columns/);
    noted.tables.convs.rows[0] = { row: [3, 224, 64, 3, 1, 1, 1], note: '' };
    expect(() => parseNetworkFile(noted, 'vgg-16')).toThrow(/vgg-16\.json tables\.convs\.rows\.0/);
  });

  it('has convs whose groups divide their channels, and unpadded 1-D convs no shorter than their kernel', () => {
    for (const [name, table] of TABLES) {
      if (table.kind !== 'conv2d' && table.kind !== 'conv1d') continue;
      for (const r of records(table)) {
        expect(r.C! % r.groups!, name).toBe(0);
        expect(r.K! % r.groups!, name).toBe(0);
        if (table.kind === 'conv1d' && r.valid === 1) expect(r.L!, name).toBeGreaterThanOrEqual(r.R!);
      }
    }
  });

  it('has pools no wider than their maps, and inverted-residual blocks that expand', () => {
    for (const [name, table] of TABLES) {
      if (table.kind === 'pool') for (const r of records(table)) expect(r.R!, name).toBeLessThanOrEqual(r.HW!);
      if (table.kind === 'invertedResidualBlocks') {
        for (const r of records(table)) expect(r.expanded!, name).toBeGreaterThanOrEqual(r.in!);
      }
    }
  });

  it('gives MobileNetV2 17 blocks and EfficientNet-B0 16, both ending at 7x7 with 320 channels (the papers)', () => {
    for (const [network, blocks] of [
      ['mobilenet-v2', 17],
      ['efficientnet-b0', 16],
    ] as const) {
      const stages = networkTable(network, 'stages', 'invertedResidualStages');
      expect(stages.rows.reduce((n, [, , repeats]) => n + repeats, 0)).toBe(blocks);
      let size = stages.input.size;
      for (const [, , n, s, k] of stages.rows) for (let i = 0; i < n; i++) size = convOutSize(size, k, i === 0 ? s : 1);
      expect(size).toBe(7);
      expect(stages.rows.at(-1)?.[1]).toBe(320);
    }
  });

  it('chains MobileNetV3-Small: each block takes the channels and map size the one before gave', () => {
    const blocks = networkTable('mobilenet-v3-small', 'blocks', 'invertedResidualBlocks').rows;
    const [stem] = networkTable('mobilenet-v3-small', 'stem', 'conv2d').rows;
    let [channels, size] = [stem?.[2], convOutSize(stem?.[1] ?? 0, stem?.[3] ?? 0, stem?.[4] ?? 1)];
    for (const [cin, , out, k, stride, at] of blocks) {
      expect([cin, at]).toEqual([channels, size]);
      [channels, size] = [out, convOutSize(at, k, stride)];
    }
  });

  it('names a table it lacks, or one of another kind', () => {
    expect(() => networkTable('vgg-16', 'convs', 'pool')).toThrow(/vgg-16\.json has no pool table convs/);
  });
});
