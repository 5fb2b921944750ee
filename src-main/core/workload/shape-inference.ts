/**
 * Static shape inference over a parsed ONNX graph: binds the inputs' symbolic dims, then walks
 * the nodes in topological order, giving every tensor its dims, type and (for small constants
 * and folded shape computations) its values. Shapes that cannot be known statically (NonZero,
 * subgraphs, ops without a rule) are left unknown with a warning, and so is everything
 * computed from them, unless the file's value_info gives a static shape. Graphs ONNX Runtime
 * optimized for its CPU provider (com.microsoft fusions, com.microsoft.nchwc blocked layout:
 * shape-inference-nchwc.ts) are read too: their blocked tensors get their true channel counts. Pure.
 */
import { quoted } from '../text/shown.js';
import { UsageError, UserError } from '../errors.js';
import { count } from '../text/plural.js';
import type { OnnxModel, OnnxNode, OnnxValueInfo } from '../onnx/onnx-parser.js';
import { NodeContext, ShapeUnknown, type ShapeRule, type InferredTensor } from './shape-inference-context.js';
import { MS_RULES, NN_RULES } from './shape-inference-nn.js';
import { annotateBlockedChannels, hasNchwc, NCHWC_DOMAIN, nchwcBlockSize, nchwcRule } from './shape-inference-nchwc.js';
import { TENSOR_RULES } from './shape-inference-ops.js';

export type { InferredTensor } from './shape-inference-context.js';

export interface ShapeBindings {
  /** Symbolic dims by name (dim_param): {batch: 1, sequence: 128}. */
  dims?: Record<string, number>;
  /** Whole input shapes by input name, for dims the exporter left unnamed: {x: [1, 3, 640, 640]}. */
  inputs?: Record<string, number[]>;
  /**
   * True channel counts of tensors ONNX Runtime keeps in its blocked NCHWc layout, by tensor
   * name (executed-graph.ts nchwcChannelHints), for those the graph itself does not tell.
   */
  nchwcChannels?: Record<string, number>;
}

export interface ShapeResult {
  /** Every tensor the graph names (initializers, inputs, node outputs). */
  tensors: Map<string, InferredTensor>;
  /** Every symbolic dim of the inputs, with the value it was bound to. */
  bindings: Record<string, number>;
  warnings: string[];
  /** Indices (into graph.nodes) of nodes some of whose outputs have unknown shapes. */
  unknownNodes: Set<number>;
  /** The NCHWc block size the graph was optimized for (8 or 16); null when it has no NCHWc ops. */
  nchwcBlock: number | null;
}

const DEFAULT_RULES: Record<string, ShapeRule> = { ...TENSOR_RULES, ...NN_RULES };

/**
 * The shape rule for a node, or undefined when there is none. `nchwcBlock` is the NCHWc block
 * size of the graph (shape-inference-nchwc.ts nchwcBlockSize), for com.microsoft.nchwc ops.
 */
function shapeRule(node: OnnxNode, nchwcBlock = 16): ShapeRule | undefined {
  if (node.domain === '') return DEFAULT_RULES[node.opType];
  if (node.domain === 'com.microsoft') return MS_RULES[node.opType] ?? DEFAULT_RULES[node.opType];
  if (node.domain === NCHWC_DOMAIN) return nchwcRule(node.opType, nchwcBlock);
  return undefined;
}

/** Ops whose outputs are known statically once their input's shape is: not data, so not activations. */
const SHAPE_OPS = new Set(['Shape', 'Size']);

export function inferShapes(model: OnnxModel, bind: ShapeBindings = {}): ShapeResult {
  const g = model.graph;
  const tensors = new Map<string, InferredTensor>();
  const warnings: string[] = [];
  for (const t of g.initializers) {
    tensors.set(t.name, { dims: t.dims, dtype: t.dataType, value: t.values ?? undefined, constant: true });
  }
  const bindings = bindInputs(
    g.inputs.filter((v) => !tensors.has(v.name)),
    bind,
    tensors,
    warnings,
  );
  const declared = new Map<string, OnnxValueInfo>();
  for (const v of [...g.valueInfo, ...g.outputs]) declared.set(v.name, v);

  const nchwcBlock = hasNchwc(g) ? nchwcBlockSize(g) : null;
  const unknownNodes = new Set<number>();
  const noRule = new Map<string, number>();
  const mismatches: string[] = [];
  g.nodes.forEach((node, index) => {
    const infos = node.inputs.map((name) => (name ? tensors.get(name) : undefined));
    const rule = shapeRule(node, nchwcBlock ?? undefined);
    let outs: InferredTensor[] = [];
    if (!rule) {
      const key = node.domain ? `${node.domain}.${node.opType}` : node.opType;
      noRule.set(key, (noRule.get(key) ?? 0) + 1);
    } else {
      try {
        outs = rule(new NodeContext(node, model.opset, infos));
      } catch (e) {
        if (!(e instanceof ShapeUnknown)) throw e;
        if (!e.propagated) warnings.push(`${nodeLabel(node)}: ${e.message}; its outputs' shapes are unknown`);
      }
    }
    const given = node.inputs.filter((n) => n !== '');
    const allConstant = given.length > 0 && given.every((n) => tensors.get(n)?.constant === true);
    node.outputs.forEach((name, i) => {
      if (!name) return;
      let info = outs[i];
      if (info?.dims) {
        const d = declaredDims(declared.get(name), bindings);
        if (d && d.join(',') !== info.dims.join(',') && mismatches.length < 3) {
          mismatches.push(`${name}: inferred [${info.dims}], file says [${d}]`);
        }
      } else {
        unknownNodes.add(index);
        const v = declared.get(name);
        const d = declaredDims(v, bindings);
        info = { dims: d, dtype: info?.dtype || v?.elemType || infos[0]?.dtype || 0 };
      }
      if (node.opType === 'Constant' || (SHAPE_OPS.has(node.opType) && info.dims) || (allConstant && info.dims)) {
        info = { ...info, constant: true };
      }
      tensors.set(name, info);
    });
  });
  for (const [op, count] of noRule) {
    warnings.push(`no shape rule for ${op} (${count} node${count > 1 ? 's' : ''}): their outputs' shapes are unknown`);
  }
  if (mismatches.length > 0) {
    warnings.push(`inferred shapes differ from the shapes the file records (${mismatches.join('; ')})`);
  }
  if (nchwcBlock !== null) annotateBlockedChannels(g.nodes, tensors, nchwcBlock, bind.nchwcChannels);
  return { tensors, bindings, warnings, unknownNodes, nchwcBlock };
}

function nodeLabel(n: OnnxNode): string {
  return n.name ? `${n.opType} node "${n.name}"` : `${n.opType} node (output ${n.outputs[0] ?? '?'})`;
}

/** A value_info's dims when all of them are known (numbers or bound symbols), else null. */
function declaredDims(v: OnnxValueInfo | undefined, bindings: Record<string, number>): number[] | null {
  if (!v?.dims) return null;
  const out: number[] = [];
  for (const d of v.dims) {
    const x = typeof d === 'number' ? d : d === null ? undefined : bindings[d];
    if (x === undefined || x < 0) return null;
    out.push(x);
  }
  return out;
}

function formatShape(dims: readonly (number | string | null)[]): string {
  return dims.map((d) => (typeof d === 'number' && d >= 0 ? String(d) : 'N')).join('x');
}

/**
 * Gives each graph input (initializers excluded) its static dims: whole-input bindings first,
 * then symbolic dims by name. Throws a UserError naming any dim left unbound.
 */
function bindInputs(
  inputs: readonly OnnxValueInfo[],
  bind: ShapeBindings,
  tensors: Map<string, InferredTensor>,
  warnings: string[],
): Record<string, number> {
  const given = bind.dims ?? {};
  const whole = bind.inputs ?? {};
  checkBindings(inputs, given, whole);
  const bindings = symbolsOfWholeInputs(inputs, given, whole);
  const open = openDimsMessage(inputs, given, bindings, whole);
  if (open) throw new UserError(open);
  for (const v of inputs) {
    if (!v.isTensor) {
      warnings.push(`input "${v.name}" is not a tensor (a sequence or map); what uses it has unknown shapes`);
      tensors.set(v.name, { dims: null, dtype: 0 });
      continue;
    }
    const fixed = whole[v.name];
    tensors.set(v.name, { dims: fixed ? [...fixed] : boundDims(v, given, bindings), dtype: v.elemType });
  }
  warnUnusedDims(inputs, given, bindings, warnings);
  return bindings;
}

/** --dim values are positive integers; --input names an input and gives non-negative dims. */
function checkBindings(
  inputs: readonly OnnxValueInfo[],
  given: Record<string, number>,
  whole: Record<string, readonly number[]>,
): void {
  for (const [name, v] of Object.entries(given)) {
    if (!Number.isSafeInteger(v) || v < 1) throw new UsageError(`--dim ${name}=${v}: a dim must be a positive integer`);
  }
  const names = inputs.map((i) => i.name);
  for (const [name, dims] of Object.entries(whole)) {
    if (!names.includes(name)) {
      throw new UsageError(`--input: the model has no input named ${quoted(name)} (its inputs: ${names.join(', ')})`);
    }
    if (dims.some((d) => !Number.isSafeInteger(d) || d < 0)) {
      throw new UsageError(`--input ${name}=${dims.join('x')}: dims must be non-negative integers`);
    }
  }
}

/** Whole-input bindings checked against the file's dims, and the symbols they fix. */
function symbolsOfWholeInputs(
  inputs: readonly OnnxValueInfo[],
  given: Record<string, number>,
  whole: Record<string, readonly number[]>,
): Record<string, number> {
  const bindings: Record<string, number> = {};
  const setSymbol = (sym: string, value: number, input: string): void => {
    const prev = bindings[sym] ?? given[sym];
    if (prev !== undefined && prev !== value) {
      throw new UsageError(`dim "${sym}" is bound to ${prev} but --input ${input} makes it ${value}`);
    }
    bindings[sym] = value;
  };
  for (const v of inputs) {
    const dims = whole[v.name];
    if (!dims) continue;
    if (v.dims && v.dims.length !== dims.length) {
      throw new UsageError(
        `--input ${v.name}=${dims.join('x')} has ${dims.length} dims; the model's input has ${v.dims.length} (${formatShape(v.dims)})`,
      );
    }
    v.dims?.forEach((d, axis) => {
      const value = dims[axis] ?? 0;
      if (typeof d === 'number' && d > 0 && d !== value) {
        throw new UsageError(`--input ${v.name}=${dims.join('x')}: axis ${axis} of the model's input is fixed at ${d}`);
      }
      if (typeof d === 'string') setSymbol(d, value, v.name);
    });
  }
  return bindings;
}

/** Each symbolic dim once, in the order the inputs name them. */
function uniqueSymbols(dims: readonly (number | string | null)[]): string[] {
  return [...new Set(dims.filter((d): d is string => typeof d === 'string'))];
}

/**
 * Every dim the bindings leave open, in one line (a model with several dynamic dims is not
 * answered one dim per run): the --dim flags for all unbound symbolic dims together, and what
 * needs a whole --input (an input without a shape, or an unnamed dynamic dim). Null when all are bound.
 */
function openDimsMessage(
  inputs: readonly OnnxValueInfo[],
  given: Record<string, number>,
  bindings: Record<string, number>,
  whole: Record<string, readonly number[]>,
): string | null {
  const unbound = (d: number | string | null): boolean =>
    typeof d === 'string' && given[d] === undefined && bindings[d] === undefined;
  const open = inputs.filter((v) => v.isTensor && !whole[v.name]);
  const parts: string[] = [];
  for (const v of open) {
    if (!v.dims)
      parts.push(`input "${v.name}" has no shape in the model: give it with --input ${v.name}=AxBx... (its dims)`);
  }
  const withSymbols = open.filter((v) => v.dims?.some(unbound));
  const symbols = uniqueSymbols(withSymbols.flatMap((v) => v.dims ?? [])).filter(unbound);
  if (symbols.length > 0) {
    const one = withSymbols.length === 1 && withSymbols[0] ? withSymbols[0] : null;
    const subject = one
      ? `input "${one.name}" (dims ${formatShape(one.dims ?? [])}) has`
      : `the model's inputs (${withSymbols.map((v) => `${v.name}: ${formatShape(v.dims ?? [])}`).join(', ')}) have`;
    parts.push(
      `${subject} ${count(symbols.length, 'unbound symbolic dim')}: bind ${symbols.length === 1 ? 'it' : 'them'} with ${symbols
        .map((d) => `--dim ${d}=VALUE`)
        .join(' ')}, or give ${one ? 'the whole input' : 'whole inputs'} with ${withSymbols
        .map((v) => `--input ${v.name}=${formatShape(v.dims ?? [])}`)
        .join(' ')} (N replaced by sizes)`,
    );
  }
  for (const v of open) {
    const axis = v.dims?.findIndex((d) => d === null || (typeof d === 'number' && d < 0)) ?? -1;
    if (axis >= 0) {
      parts.push(
        `input "${v.name}" has an unnamed dynamic dim at axis ${axis}: give its whole shape with --input ${v.name}=${formatShape(v.dims ?? [])} (N replaced by sizes)`,
      );
    }
  }
  return parts.length > 0 ? parts.join('; ') : null;
}

/** An input's dims with its symbols bound (recording them in `bindings`); a UserError for any left open. */
function boundDims(v: OnnxValueInfo, given: Record<string, number>, bindings: Record<string, number>): number[] {
  if (!v.dims) {
    throw new UserError(
      `input "${v.name}" has no shape in the model: give it with --input ${v.name}=AxBx... (its dims)`,
    );
  }
  const shape = formatShape(v.dims);
  return v.dims.map((d, axis) => {
    if (typeof d === 'number' && d >= 0) return d;
    if (typeof d === 'string') {
      const value = given[d] ?? bindings[d];
      if (value === undefined) {
        throw new UserError(
          `input "${v.name}" has a symbolic dim "${d}" (dims ${shape}): bind it with --dim ${d}=VALUE, or give the whole input with --input ${v.name}=${shape} (N replaced by sizes)`,
        );
      }
      bindings[d] = value;
      return value;
    }
    throw new UserError(
      `input "${v.name}" has an unnamed dynamic dim at axis ${axis}: give its whole shape with --input ${v.name}=${shape} (N replaced by sizes)`,
    );
  });
}

function warnUnusedDims(
  inputs: readonly OnnxValueInfo[],
  given: Record<string, number>,
  bindings: Record<string, number>,
  warnings: string[],
): void {
  const unused = Object.keys(given).filter((d) => bindings[d] === undefined);
  if (unused.length === 0) return;
  const symbols = [...new Set(inputs.flatMap((v) => (v.dims ?? []).filter((d): d is string => typeof d === 'string')))];
  warnings.push(
    `--dim ${unused.join(', ')}: the model's inputs have no such dim (${symbols.length ? `its dims: ${symbols.join(', ')}` : 'it has no symbolic dims'})`,
  );
}
