/**
 * The layer tables of published networks the suites measure: models/suite-shapes/*.json, one file
 * per network, validated here (models/README.md describes the format). The JSON is imported
 * (bundled by esbuild, inlined by Vite) because the core reads no files. Which tables a suite
 * measures, at which level and batch, is suite-prior.ts's recipe; the tables the suites pick
 * themselves (picks.json, suite-picks.ts) have the same kinds. Pure.
 */
import { z } from 'zod';
import centernet from '../../../models/suite-shapes/centernet.json' with { type: 'json' };
import conformerM from '../../../models/suite-shapes/conformer-m.json' with { type: 'json' };
import convTasnet from '../../../models/suite-shapes/conv-tasnet.json' with { type: 'json' };
import dccrn from '../../../models/suite-shapes/dccrn.json' with { type: 'json' };
import dcgan from '../../../models/suite-shapes/dcgan.json' with { type: 'json' };
import densenet121 from '../../../models/suite-shapes/densenet-121.json' with { type: 'json' };
import efficientnetB0 from '../../../models/suite-shapes/efficientnet-b0.json' with { type: 'json' };
import fcn8s from '../../../models/suite-shapes/fcn-8s.json' with { type: 'json' };
import fpn from '../../../models/suite-shapes/fpn.json' with { type: 'json' };
import hifiGan from '../../../models/suite-shapes/hifi-gan.json' with { type: 'json' };
import inceptionV3 from '../../../models/suite-shapes/inception-v3.json' with { type: 'json' };
import lampleNer from '../../../models/suite-shapes/lample-ner.json' with { type: 'json' };
import maskRcnn from '../../../models/suite-shapes/mask-rcnn.json' with { type: 'json' };
import mobilenetV2 from '../../../models/suite-shapes/mobilenet-v2.json' with { type: 'json' };
import mobilenetV3Large from '../../../models/suite-shapes/mobilenet-v3-large.json' with { type: 'json' };
import mobilenetV3Small from '../../../models/suite-shapes/mobilenet-v3-small.json' with { type: 'json' };
import ptbLstm from '../../../models/suite-shapes/ptb-lstm.json' with { type: 'json' };
import resnet18 from '../../../models/suite-shapes/resnet-18.json' with { type: 'json' };
import resnet50 from '../../../models/suite-shapes/resnet-50.json' with { type: 'json' };
import rnnoise from '../../../models/suite-shapes/rnnoise.json' with { type: 'json' };
import shufflenetV2 from '../../../models/suite-shapes/shufflenet-v2.json' with { type: 'json' };
import simpleBaselines from '../../../models/suite-shapes/simple-baselines.json' with { type: 'json' };
import tacotron2 from '../../../models/suite-shapes/tacotron-2.json' with { type: 'json' };
import tcResnet8 from '../../../models/suite-shapes/tc-resnet8.json' with { type: 'json' };
import uNet from '../../../models/suite-shapes/u-net.json' with { type: 'json' };
import vgg16 from '../../../models/suite-shapes/vgg-16.json' with { type: 'json' };
import wav2vec2 from '../../../models/suite-shapes/wav2vec2.json' with { type: 'json' };
import whisperTiny from '../../../models/suite-shapes/whisper-tiny.json' with { type: 'json' };
import yolov5s from '../../../models/suite-shapes/yolov5s.json' with { type: 'json' };

/** Each network's file, by the name the file is called. */
const FILES = {
  centernet,
  'conformer-m': conformerM,
  'conv-tasnet': convTasnet,
  dccrn,
  dcgan,
  'densenet-121': densenet121,
  'efficientnet-b0': efficientnetB0,
  'fcn-8s': fcn8s,
  fpn,
  'hifi-gan': hifiGan,
  'inception-v3': inceptionV3,
  'lample-ner': lampleNer,
  'mask-rcnn': maskRcnn,
  'mobilenet-v2': mobilenetV2,
  'mobilenet-v3-large': mobilenetV3Large,
  'mobilenet-v3-small': mobilenetV3Small,
  'ptb-lstm': ptbLstm,
  'resnet-18': resnet18,
  'resnet-50': resnet50,
  rnnoise,
  'shufflenet-v2': shufflenetV2,
  'simple-baselines': simpleBaselines,
  'tacotron-2': tacotron2,
  'tc-resnet8': tcResnet8,
  'u-net': uNet,
  'vgg-16': vgg16,
  wav2vec2,
  'whisper-tiny': whisperTiny,
  yolov5s,
} as const;

export type NetworkName = keyof typeof FILES;

/**
 * Each kind of table and its columns. conv2d: [C, H = W, K, R = S, stride, groups, act]; conv1d
 * over L positions; convTranspose over H x W (W = 0: 1-D over H); act 1 = an activation fused
 * into the conv, valid 1 = unpadded; level = the first suite that measures the row (0 quick,
 * 1 standard, 2 thorough). Inverted-residual stages are MobileNetV2's table rows (expansion t,
 * out channels c, repeats n, first stride s, kernel k), blocks one row per block. The last five
 * kinds are the picks' (suite-picks.ts): a linear layer's N outputs of K inputs, attention heads
 * of headDim, a pool window, a rows x cols matrix, heads' q x kv attention scores.
 */
const TABLE_COLUMNS = {
  conv2d: ['C', 'HW', 'K', 'R', 'stride', 'groups', 'act'],
  conv1d: ['C', 'L', 'K', 'R', 'stride', 'groups', 'act', 'valid', 'level'],
  convTranspose: ['C', 'H', 'W', 'K', 'R', 'stride', 'level'],
  invertedResidualStages: ['t', 'c', 'n', 's', 'k'],
  invertedResidualBlocks: ['in', 'expanded', 'out', 'kernel', 'stride', 'size'],
  recurrent: ['seq', 'batch', 'input', 'hidden'],
  pool: ['C', 'HW', 'R', 'stride'],
  maps: ['C', 'HW'],
  linear: ['N', 'K'],
  attentionHeads: ['heads', 'headDim'],
  poolWindow: ['R', 'stride'],
  matrix: ['rows', 'cols'],
  attentionScores: ['heads', 'q', 'kv'],
} as const;

export type TableKind = keyof typeof TABLE_COLUMNS;

/** The kinds, for a schema. */
export const TABLE_KINDS = Object.keys(TABLE_COLUMNS) as [TableKind, ...TableKind[]];

/** A column a kind may add after its own: blocks may say which have squeeze-excite. */
const OPTIONAL_COLUMN: Partial<Record<TableKind, string>> = { invertedResidualBlocks: 'squeezeExcite' };

/** The values a column holds: flags 0 or 1, a suite level 0-2, W 0 (a 1-D transposed conv); else counts from 1. */
function columnRange(kind: TableKind, column: string): readonly [number, number] {
  if (column === 'act' || column === 'valid' || column === 'squeezeExcite') return [0, 1];
  if (column === 'level') return [0, 2];
  return [kind === 'convTranspose' && column === 'W' ? 0 : 1, Number.MAX_SAFE_INTEGER];
}

const Row = z.array(z.number().int());

/** A row, or a row with a note saying where it comes from (for readers: the suites read the row). */
const NotedRow = z.union([Row, z.strictObject({ row: Row, note: z.string().min(1) })]);
const rowValues = (row: z.infer<typeof NotedRow>): number[] => (Array.isArray(row) ? row : row.row);

const tableBase = {
  about: z.string().min(1),
  columns: z.array(z.string()),
  rows: z.array(NotedRow).min(1),
};
const count = z.number().int().positive();
/** A table's name in a file: `convs`, `maxPools`. */
export const TableNameSchema = z.string().regex(/^[a-z][A-Za-z0-9]*$/);

/** One table: its kind, what it holds, the kind's columns and its rows (a row may carry a note); parsed, rows are values. */
export const TableSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('conv2d'), ...tableBase }),
    z.strictObject({ kind: z.literal('conv1d'), ...tableBase }),
    z.strictObject({ kind: z.literal('convTranspose'), ...tableBase }),
    z.strictObject({
      kind: z.literal('invertedResidualStages'),
      /** The stages' input: channels and map size. */
      input: z.strictObject({ channels: count, size: count }),
      ...tableBase,
    }),
    z.strictObject({ kind: z.literal('invertedResidualBlocks'), ...tableBase }),
    z.strictObject({ kind: z.literal('recurrent'), cell: z.enum(['LSTM', 'GRU']), ...tableBase }),
    z.strictObject({ kind: z.literal('pool'), op: z.enum(['MaxPool', 'AveragePool']), ...tableBase }),
    z.strictObject({ kind: z.literal('maps'), ...tableBase }),
    z.strictObject({ kind: z.literal('linear'), ...tableBase }),
    z.strictObject({ kind: z.literal('attentionHeads'), ...tableBase }),
    z.strictObject({ kind: z.literal('poolWindow'), ...tableBase }),
    z.strictObject({ kind: z.literal('matrix'), ...tableBase }),
    z.strictObject({ kind: z.literal('attentionScores'), ...tableBase }),
  ])
  .superRefine((table, ctx) => {
    const own: readonly string[] = TABLE_COLUMNS[table.kind];
    const optional = OPTIONAL_COLUMN[table.kind];
    const named = table.columns.join(', ');
    if (named !== own.join(', ') && (optional === undefined || named !== [...own, optional].join(', '))) {
      const also = optional ? ` (and optionally ${optional})` : '';
      ctx.addIssue({
        code: 'custom',
        path: ['columns'],
        message: `a ${table.kind} table has columns ${own.join(', ')}${also}`,
      });
      return;
    }
    table.rows.forEach((noted, i) => {
      const [row, at] = [rowValues(noted), Array.isArray(noted) ? ['rows', i] : ['rows', i, 'row']];
      if (row.length !== table.columns.length) {
        ctx.addIssue({ code: 'custom', path: at, message: `${row.length} values for ${table.columns.length} columns` });
        return;
      }
      row.forEach((v, j) => {
        const column = table.columns[j] as string;
        const [lo, hi] = columnRange(table.kind, column);
        if (v < lo || v > hi)
          ctx.addIssue({ code: 'custom', path: [...at, j], message: `${column} ${v} is out of ${lo}..${hi}` });
      });
    });
  })
  .transform((table) => ({ ...table, rows: table.rows.map(rowValues) }));

const NetworkFileSchema = z.strictObject({
  /** The file's name without .json. */
  network: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  title: z.string().min(1),
  /** Citations of the tables' numbers. */
  sources: z.array(z.string().min(1)).min(1),
  tables: z.record(TableNameSchema, TableSchema),
});

export type NetworkFile = z.infer<typeof NetworkFileSchema>;

/** Where a file of models/suite-shapes/ is, as errors name it. */
export const shapeFile = (name: string): string => `models/suite-shapes/${name}.json`;

/** `file` as `schema` reads it, or an error naming the file and the place of the first issue. */
export function parseShapeFile<S extends z.ZodType>(schema: S, file: unknown, name: string): z.output<S> {
  const parsed = schema.safeParse(file);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  throw new Error(`${shapeFile(name)}${path ? ` ${path}` : ''}: ${issue?.message ?? 'invalid'}`);
}

/** Validates one network's file; `name` is what the file is called. */
export function parseNetworkFile(file: unknown, name: string): NetworkFile {
  const parsed = parseShapeFile(NetworkFileSchema, file, name);
  if (parsed.network !== name) throw new Error(`${shapeFile(name)}: network is ${parsed.network}, not ${name}`);
  return parsed;
}

/** Every network's file, validated, by name. */
export const NETWORKS: Readonly<Record<NetworkName, NetworkFile>> = Object.freeze(
  Object.fromEntries(Object.entries(FILES).map(([name, file]) => [name, parseNetworkFile(file, name)])) as Record<
    NetworkName,
    NetworkFile
  >,
);

/** One row of each kind of table, as the recipe reads it. */
export interface TableRow {
  conv2d: readonly [C: number, HW: number, K: number, R: number, stride: number, groups: number, act: number];
  conv1d: readonly [
    C: number,
    L: number,
    K: number,
    R: number,
    stride: number,
    groups: number,
    act: number,
    valid: number,
    level: number,
  ];
  convTranspose: readonly [C: number, H: number, W: number, K: number, R: number, stride: number, level: number];
  invertedResidualStages: readonly [t: number, c: number, n: number, s: number, k: number];
  invertedResidualBlocks: readonly [
    cin: number,
    expanded: number,
    out: number,
    kernel: number,
    stride: number,
    size: number,
    squeezeExcite?: number,
  ];
  recurrent: readonly [seq: number, batch: number, input: number, hidden: number];
  pool: readonly [C: number, HW: number, R: number, stride: number];
  maps: readonly [C: number, HW: number];
  linear: readonly [N: number, K: number];
  attentionHeads: readonly [heads: number, headDim: number];
  poolWindow: readonly [R: number, stride: number];
  matrix: readonly [rows: number, cols: number];
  attentionScores: readonly [heads: number, q: number, kv: number];
}

type AnyTable = NetworkFile['tables'][string];

/** A table of one kind, its rows typed as the kind's. */
export type Table<K extends TableKind> = Omit<Extract<AnyTable, { kind: K }>, 'rows'> & {
  rows: readonly TableRow[K][];
};

/** `table` (`name` in the file `where`) as a table of `kind`, which it must be. */
export function tableOfKind<K extends TableKind>(
  table: AnyTable | undefined,
  kind: K,
  where: string,
  name: string,
): Table<K> {
  if (table?.kind !== kind) throw new Error(`${where} has no ${kind} table ${name}`);
  // The schema checked that every row has the kind's columns.
  return table as unknown as Table<K>;
}

/** The names of a network's tables. */
export type TableName<N extends NetworkName> = keyof (typeof FILES)[N]['tables'] & string;

/** A network's table of the given kind (a programming error when it has none). */
export function networkTable<N extends NetworkName, K extends TableKind>(
  network: N,
  table: TableName<N>,
  kind: K,
): Table<K> {
  return tableOfKind(NETWORKS[network].tables[table], kind, shapeFile(network), table);
}
