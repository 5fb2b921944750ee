/**
 * What a plan's figures rest on, named: the sequence (a served decoder's prompt and output), the
 * batch, the dtype and weights, and the engine or training stack. `plan` prints it as its first
 * line (assumptionsLine), `plan --json` and the app's Plans view carry it (`assumptions`). Pure.
 */
import type { Dtype } from '../domain/measurement.js';
import type { EngineName } from '../engines/engine-names.js';
import type { FinetuneStack } from '../workload/finetune.js';
import type { AttentionKernel } from './memory/attention-memory.js';
import type { TrainingStack } from './stacks/stack-names.js';

/** A number the plan rests on, and whether the request gave it (false: a default did). */
export interface Assumed {
  value: number;
  asked: boolean;
}

export interface PlanAssumptionsView {
  /** Tokens per sequence a text model is built at (a served decoder: its prompt); null for an image model or an ONNX graph. */
  sequence: Assumed | null;
  /** The text model's own context, the most tokens it takes; null when there is none. */
  modelContext: number | null;
  /** A served decoder's output tokens per request; null otherwise. */
  output: Assumed | null;
  /** An image model's side in pixels; null otherwise. */
  image: Assumed | null;
  /** Sequences (serving) or samples (training) per step, as searched. */
  batch: Assumed;
  /** The dtype the weight GEMMs compute in. */
  dtype: Dtype;
  /** How the weights are held: a served format (q4_k, fp8, ...), 'nf4' under QLoRA, else the dtype. */
  weights: string;
  /** Training: mixed-precision Adam ('adam'), or the fine-tuning stack whose memory rules apply; null otherwise. */
  stack: { name: 'adam' | FinetuneStack; title: string } | null;
  /**
   * Training a transformer: the attention kernel its activations are counted for (memory/attention-memory.ts),
   * and the stacks that run it; absent or null otherwise.
   */
  attention?: { kernel: AttentionKernel; title: string; source: string } | null;
  /**
   * Full training: the stack its search and exports follow (`plan --stack`, stacks/), or 'any'
   * (none asked: every layout the four run), with what it assumes in a line; absent otherwise.
   */
  trainingStack?: { name: TrainingStack | 'any'; title: string; assumes: string } | null;
  /** Serving a decoder: the engine and the version whose rules price it ('ideal': the kernel roofline); null otherwise. */
  engine: { name: EngineName | 'ideal'; title: string; version: string | null } | null;
}

/** Mixed-precision Adam as the training memory counts it. */
export const ADAM_STACK = { name: 'adam', title: 'mixed-precision Adam (16 bytes a parameter)' } as const;

const n = (x: number): string => x.toLocaleString('en-US');

/** "8,192 tokens (the model's default, of its 131,072)" or "2,048 tokens" (asked): a sequence, or `fit`'s context. */
export function sequenceText(s: Assumed, context: number | null): string {
  if (s.asked) return `${n(s.value)} tokens`;
  const of = context !== null && context > s.value ? `, of its ${n(context)}` : '';
  return `${n(s.value)} tokens (the model's default${of})`;
}

const marked = (a: Assumed, text: string): string => (a.asked ? text : `${text} (default)`);

/** "prompt 1,024 + 256 output tokens (defaults)", marking what a default gave. */
function servedText(prompt: Assumed, output: Assumed): string {
  const text = `prompt ${n(prompt.value)} + ${n(output.value)} output tokens`;
  if (prompt.asked && output.asked) return text;
  if (!prompt.asked && !output.asked) return `${text} (defaults)`;
  return `${text} (${prompt.asked ? 'output' : 'prompt'}: default)`;
}

/** The parts of the line that say what was run: the engine, or the training stack. */
function runText(a: PlanAssumptionsView): string[] {
  if (a.engine)
    return [
      a.engine.name === 'ideal'
        ? 'no engine (the kernel roofline)'
        : `engine ${a.engine.title}${a.engine.version ? ` ${a.engine.version}` : ''}`,
    ];
  if (!a.stack) return [];
  const training = a.trainingStack
    ? [a.trainingStack.name === 'any' ? 'any training stack' : `stack ${a.trainingStack.title}`]
    : [];
  return [
    a.stack.name === 'adam' ? a.stack.title : `stack ${a.stack.title}`,
    ...(a.attention ? [a.attention.title] : []),
    ...training,
  ];
}

/**
 * "Assumes: sequence 8,192 tokens (the model's default, of its 131,072), batch 8 (default), bf16,
 * mixed-precision Adam (16 bytes a parameter)"; serving: "Assumes: prompt 1,024 + 256 output tokens
 * (defaults), batch 1 (default), q4_k weights, bf16 compute, engine llama.cpp b4500".
 */
export function assumptionsLine(a: PlanAssumptionsView): string {
  const parts: string[] = [];
  if (a.sequence && a.output) parts.push(servedText(a.sequence, a.output));
  else if (a.sequence) parts.push(`sequence ${sequenceText(a.sequence, a.modelContext)}`);
  if (a.image) parts.push(marked(a.image, `image ${a.image.value} px`));
  if (!a.sequence && !a.image) parts.push("the graph's own shapes");
  parts.push(marked(a.batch, `batch ${n(a.batch.value)}`));
  parts.push(a.weights === a.dtype ? a.dtype : `${a.weights} weights, ${a.dtype} compute`);
  parts.push(...runText(a));
  return `Assumes: ${parts.join(', ')}`;
}

/** "Stack Megatron-LM (Megatron-Core): TP+PP+DP at ZeRO-0/1/3; ...": what a training plan's stack runs and assumes; [] otherwise. */
export function stackLines(a: Pick<PlanAssumptionsView, 'trainingStack'>): string[] {
  const s = a.trainingStack;
  if (!s) return [];
  return [s.name === 'any' ? `Stack: any (--stack to pick one): ${s.assumes}` : `Stack ${s.title}: ${s.assumes}`];
}
