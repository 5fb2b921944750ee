/**
 * Whether an engine holds a decoder on n of one GPU with room for the KV cache a context needs:
 * the engine's own memory (engine-memory.ts: its share of each GPU, its reserve and activations,
 * the weights as it stores them, its LM head and embedding included), tried in the layouts it runs
 * over n GPUs: one tensor-parallel group of n (where n divides the heads), or n pipeline stages of
 * blocks as even as they go. `fit` lists a GPU or a split only where this holds, so the row's time
 * is priced on a GPU the engine runs it on. Pure.
 */
import type { TransformerEntry } from '../catalog/schema.js';
import type { GpuDatasheet } from '../planner/cost/datasheets.js';
import type { WeightFormat } from '../workload/generation.js';
import { engineDeployment, type DeploymentStage } from './engine-deployment.js';
import { replicaKvTokens } from './engine-memory.js';
import type { EngineRules } from './engine-rules.js';

export interface EngineFitRequest {
  engine: EngineRules;
  entry: TransformerEntry;
  format: WeightFormat;
  kvCache: 'auto' | 'fp8';
}

/** The layouts the engine runs the decoder in over n of one GPU, each as its stages. */
function engineLayouts(req: EngineFitRequest, gpu: GpuDatasheet, n: number): DeploymentStage[][] {
  const members = (k: number): string[] => Array.from({ length: k }, (_, i) => `gpu${i}`);
  const blocks = req.entry.layers;
  if (n === 1) return [[{ gpu, blocks, members: members(1) }]];
  const out: DeploymentStage[][] = [];
  if (req.engine.split.tensor && req.entry.heads % n === 0) out.push([{ gpu, blocks, members: members(n) }]);
  if (req.engine.split.pipeline !== 'none' && n <= blocks) {
    const base = Math.floor(blocks / n);
    out.push(
      Array.from({ length: n }, (_, i) => ({ gpu, blocks: base + (i < blocks % n ? 1 : 0), members: [`gpu${i}`] })),
    );
  }
  return out;
}

/** Whether the engine, on n of the GPU, keeps the weights, its reserve and activations, and `tokens` cached tokens. */
export function engineHolds(req: EngineFitRequest, gpu: GpuDatasheet, n: number, tokens: number): boolean {
  return engineLayouts(req, gpu, n).some(
    (stages) => replicaKvTokens(engineDeployment({ ...req, stages, allReduceUs: () => 0, sendUs: () => 0 })) >= tokens,
  );
}
