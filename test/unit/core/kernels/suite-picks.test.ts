/** The suites' own picks (models/suite-shapes/picks.json): read, valid, and refused with the place named when not. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { networkTable } from '../../../../src-main/core/kernels/network-shapes.js';
import { parsePicksFile, pickTable, tableList } from '../../../../src-main/core/kernels/suite-picks.js';

const FILE = new URL('../../../../models/suite-shapes/picks.json', import.meta.url);

interface Picks {
  tables: Record<string, { kind: string; columns: string[]; rows: unknown[] }>;
  lists: Record<string, { kind: string; tables: string[] }>;
}

const picks = (): Picks => JSON.parse(readFileSync(FILE, 'utf8')) as Picks;

describe('suite picks (models/suite-shapes/picks.json)', () => {
  it('reads every table and list, a noted row as its values', () => {
    const file = picks();
    expect(Object.keys(parsePicksFile(file).tables)).toEqual(Object.keys(file.tables));
    expect(pickTable('convQuick', 'conv2d').rows[0]).toEqual([3, 224, 64, 7, 2, 1, 0]);
    expect(pickTable('poolGridWindows', 'poolWindow').rows).toEqual([
      [2, 2],
      [3, 2],
      [3, 1],
      [5, 1],
    ]);
  });

  it("gives a list its networks' tables in the order it names them", () => {
    const tables = tableList('recurrentQuick', 'recurrent');
    expect(tables.map((t) => t.cell)).toEqual(['LSTM', 'LSTM', 'LSTM', 'LSTM', 'GRU']);
    expect(tables[0]).toBe(networkTable('lample-ner', 'wordLstm', 'recurrent'));
    expect(tables[4]).toBe(networkTable('rnnoise', 'gru', 'recurrent'));
  });

  it.each([
    [
      'a table with columns out of order',
      (p: Picks) => void (p.tables.convQuick!.columns = ['HW', 'C', 'K', 'R', 'stride', 'groups', 'act']),
      /picks\.json tables\.convQuick\.columns: a conv2d table has columns C, HW, K/,
    ],
    [
      'a noted row with a value out of range',
      (p: Picks) => void (p.tables.convQuick!.rows[0] = { row: [3, 224, 64, 7, 2, 1, 3], note: 'ResNet stem' }),
      /picks\.json tables\.convQuick\.rows\.0\.row\.6: act 3 is out of 0\.\.1/,
    ],
    [
      'a list naming a table its network lacks',
      (p: Picks) => void (p.lists.maxPools!.tables[1] = 'u-net.maxPool'),
      /picks\.json lists\.maxPools\.tables\.1: models\/suite-shapes\/u-net\.json has no pool table maxPool/,
    ],
    [
      'a list naming a table of another kind',
      (p: Picks) => void (p.lists.conv1d!.tables[0] = 'vgg-16.convs'),
      /picks\.json lists\.conv1d\.tables\.0: models\/suite-shapes\/vgg-16\.json has no conv1d table convs/,
    ],
    [
      'a list naming a network there is no file of',
      (p: Picks) => void (p.lists.conv1d!.tables[0] = 'vgg-19.convs'),
      /picks\.json lists\.conv1d\.tables\.0: models\/suite-shapes\/vgg-19\.json has no conv1d table convs/,
    ],
    [
      'a field it does not know',
      (p: Picks) => void Object.assign(p.lists.conv1d!, { level: 1 }),
      /picks\.json lists\.conv1d: /,
    ],
  ])('refuses %s, naming the file and the place', (_, spoil, error) => {
    const file = picks();
    spoil(file);
    expect(() => parsePicksFile(file)).toThrow(error);
  });

  it('names a pick or a list asked for as another kind', () => {
    expect(() => pickTable('convQuick', 'maps')).toThrow(/picks\.json has no maps table convQuick/);
    expect(() => tableList('maxPools', 'conv1d')).toThrow(/picks\.json has no conv1d list maxPools/);
  });
});
