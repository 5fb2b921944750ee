/**
 * What the suites pick themselves (models/suite-shapes/picks.json, validated here): rows of their
 * own chosen across networks (`tables`, of network-shapes.ts's kinds, each row's note saying where
 * it comes from) and lists of the networks' tables a suite measures, in that order (`lists`).
 * suite-shapes.ts and suite-prior.ts read them; the order of rows and tables is the order a
 * profile runs its kernels. Imported as JSON because the core reads no files. Pure.
 */
import { z } from 'zod';
import file from '../../../models/suite-shapes/picks.json' with { type: 'json' };
import {
  NETWORKS,
  parseShapeFile,
  shapeFile,
  TABLE_KINDS,
  TableNameSchema,
  tableOfKind,
  TableSchema,
  type NetworkFile,
  type Table,
  type TableKind,
} from './network-shapes.js';

const NAME = 'picks';

const PicksFileSchema = z.strictObject({
  about: z.string().min(1),
  tables: z.record(TableNameSchema, TableSchema),
  lists: z.record(
    TableNameSchema,
    z.strictObject({
      kind: z.enum(TABLE_KINDS),
      about: z.string().min(1),
      /** network.table, each a table of the list's kind. */
      tables: z.array(z.string().regex(/^[a-z0-9][a-z0-9-]*\.[a-z][A-Za-z0-9]*$/)).min(1),
    }),
  ),
});

type PicksFile = z.infer<typeof PicksFileSchema>;

/** The table `ref` (network.table) names, which must be of `kind`; `where` starts an error. */
function listedTable<K extends TableKind>(ref: string, kind: K, where = ''): Table<K> {
  const [network = '', table = ''] = ref.split('.');
  const networks: Readonly<Record<string, NetworkFile | undefined>> = NETWORKS;
  return tableOfKind(networks[network]?.tables[table], kind, `${where}${shapeFile(network)}`, table);
}

/** Validates the picks file: its tables as a network's are, and every listed table there, of the list's kind. */
export function parsePicksFile(picks: unknown): PicksFile {
  const parsed = parseShapeFile(PicksFileSchema, picks, NAME);
  for (const [name, list] of Object.entries(parsed.lists)) {
    list.tables.forEach((ref, i) => listedTable(ref, list.kind, `${shapeFile(NAME)} lists.${name}.tables.${i}: `));
  }
  return parsed;
}

const PICKS = parsePicksFile(file);

/** A table of the picks, of the given kind (a programming error when it is of another). */
export function pickTable<K extends TableKind>(name: keyof (typeof file)['tables'], kind: K): Table<K> {
  return tableOfKind(PICKS.tables[name], kind, shapeFile(NAME), name);
}

/** The networks' tables a list of the picks names, in its order. */
export function tableList<K extends TableKind>(name: keyof (typeof file)['lists'], kind: K): Table<K>[] {
  const list = PICKS.lists[name];
  if (list?.kind !== kind) throw new Error(`${shapeFile(NAME)} has no ${kind} list ${name}`);
  return list.tables.map((ref) => listedTable(ref, kind));
}
