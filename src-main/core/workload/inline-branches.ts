/**
 * If nodes replaced by the branch that runs, so that the nodes inside it (an LSTM in a
 * PyTorch export's If, say) are costed, reported and mapped like any other node.
 *
 * An If's condition is usually a shape test (is the batch 1? is the state given?) that
 * shape inference folds; the branch it picks is inlined. When the condition is only known
 * at run time, the branch with more nodes is inlined and the If says so (`unknownBranchNote`).
 * Nested Ifs come up to the top with their branch and are inlined in the next round.
 *
 * The If itself stays as a marker node: it still runs in ONNX Runtime (it launches the
 * branch), reads its condition and writes nothing; its outputs are written by the branch's
 * nodes, renamed. The marker's `inlined` attribute names the branch, `condition` says
 * whether it was known. Loop and Scan bodies are not inlined (their trip count is data). Pure.
 */
import type { OnnxAttribute, OnnxGraph, OnnxModel, OnnxNode } from '../onnx/onnx-parser.js';
import { topologicalOrder } from '../onnx/parse-order.js';
import { inferShapes, type ShapeBindings } from './shape-inference.js';

/** Rounds of inlining (each goes one level of nesting deeper). */
const MAX_ROUNDS = 16;

type BranchName = 'then_branch' | 'else_branch';

/** An If node whose branches are still attached. */
function branchesOf(n: OnnxNode): Record<BranchName, OnnxGraph> | null {
  if (n.opType !== 'If' || n.domain !== '') return null;
  const then = n.attributes.get('then_branch');
  const otherwise = n.attributes.get('else_branch');
  if (then?.type !== 'GRAPH' || otherwise?.type !== 'GRAPH') return null;
  const t = then.graphs[0];
  const e = otherwise.graphs[0];
  return t && e ? { then_branch: t, else_branch: e } : null;
}

/** The note for an inlined If whose condition was not known statically; null otherwise. */
export function unknownBranchNote(n: OnnxNode): string | null {
  const branch = n.attributes.get('inlined');
  const condition = n.attributes.get('condition');
  if (branch?.type !== 'STRING' || condition?.type !== 'STRING' || condition.value !== 'unknown') return null;
  const name = n.name ? `"${n.name}"` : `(condition ${n.inputs[0] ?? '?'})`;
  return `If ${name}: its condition is known only at run time; costed as its ${branch.value} (the larger branch)`;
}

/** Nodes that do work: Constants are folded before a run. */
const workNodes = (g: OnnxGraph): number => g.nodes.filter((n) => n.opType !== 'Constant').length;

/** The model with every If whose branches it can see replaced by the branch that runs. */
export function inlineBranches(model: OnnxModel, bind: ShapeBindings = {}): OnnxModel {
  let graph = model.graph;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (!graph.nodes.some((n) => branchesOf(n))) break;
    graph = inlineRound({ ...model, graph }, bind);
  }
  return graph === model.graph ? model : { ...model, graph };
}

/**
 * One round: every If whose condition shape inference knows is inlined; when there is none,
 * every If (conditions that depend on data never become known), each as its larger branch.
 */
function inlineRound(model: OnnxModel, bind: ShapeBindings): OnnxGraph {
  const g = model.graph;
  const values = inferShapes(model, bind).tensors;
  const conditionOf = (n: OnnxNode): boolean | null => {
    const v = values.get(n.inputs[0] ?? '')?.value;
    return v?.length === 1 ? v[0] !== 0 : null;
  };
  const anyKnown = g.nodes.some((n) => branchesOf(n) && conditionOf(n) !== null);
  const taken = new Set([...g.inputs, ...g.initializers].map((t) => t.name));
  for (const n of g.nodes) for (const o of n.outputs) if (o) taken.add(o);
  const nodes: OnnxNode[] = [];
  const initializers = [...g.initializers];
  const valueInfo = [...g.valueInfo];
  for (const n of g.nodes) {
    const branches = branchesOf(n);
    const condition = branches ? conditionOf(n) : null;
    if (!branches || (anyKnown && condition === null)) {
      nodes.push(n);
      continue;
    }
    const pick: BranchName =
      condition === null
        ? workNodes(branches.else_branch) > workNodes(branches.then_branch)
          ? 'else_branch'
          : 'then_branch'
        : condition
          ? 'then_branch'
          : 'else_branch';
    const body = renamed(branches[pick], n, taken);
    nodes.push(marker(n, pick, condition !== null), ...body.nodes);
    initializers.push(...body.initializers);
    valueInfo.push(...body.valueInfo);
  }
  return { ...g, nodes: topologicalOrder(nodes), initializers, valueInfo };
}

function marker(n: OnnxNode, branch: BranchName, known: boolean): OnnxNode {
  const attributes = new Map<string, OnnxAttribute>([
    ['inlined', { type: 'STRING', value: branch }],
    ['condition', { type: 'STRING', value: known ? 'known' : 'unknown' }],
  ]);
  return { ...n, inputs: n.inputs.slice(0, 1), outputs: [], attributes };
}

/**
 * A branch's nodes and tensors as they sit in the outer graph: its outputs renamed to the
 * If's, its own names that clash with the outer graph's prefixed with the If's name, and an
 * Identity for an output the branch passes through from outside.
 */
function renamed(branch: OnnxGraph, ifNode: OnnxNode, taken: Set<string>): OnnxGraph {
  const rename = new Map<string, string>();
  const produced = new Set<string>(branch.initializers.map((t) => t.name));
  for (const n of branch.nodes) for (const o of n.outputs) if (o) produced.add(o);
  const prefix = ifNode.name || ifNode.outputs.find((o) => o) || 'If';
  for (const name of produced) {
    if (taken.has(name)) rename.set(name, `${prefix}/${name}`);
  }
  const passThrough: OnnxNode[] = [];
  branch.outputs.forEach((o, i) => {
    const target = ifNode.outputs[i];
    if (!target) return;
    if (produced.has(o.name) && !branch.initializers.some((t) => t.name === o.name)) rename.set(o.name, target);
    else passThrough.push(identity(rename.get(o.name) ?? o.name, target, `${prefix}/output_${i}`));
  });
  for (const name of rename.values()) taken.add(name);
  const to = (name: string): string => rename.get(name) ?? name;
  const nodes = branch.nodes.map((n) => ({
    ...n,
    inputs: n.inputs.map(to),
    outputs: n.outputs.map(to),
    ...(ifNode.name ? { branchOf: ifNode.name } : {}),
  }));
  return {
    ...branch,
    nodes: [...nodes, ...passThrough],
    initializers: branch.initializers.map((t) => ({ ...t, name: to(t.name) })),
    valueInfo: [...branch.valueInfo, ...branch.outputs].map((v) => ({ ...v, name: to(v.name) })),
  };
}

function identity(from: string, to: string, name: string): OnnxNode {
  return { opType: 'Identity', domain: '', name, inputs: [from], outputs: [to], attributes: new Map() };
}
