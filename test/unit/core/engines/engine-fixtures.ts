/** Deployments for the engine model's tests: a catalog decoder on datasheet GPUs, links priced by hand. */
import { getCatalogEntry } from '../../../../src-main/core/catalog/index.js';
import type { TransformerEntry } from '../../../../src-main/core/catalog/schema.js';
import { engineDeployment } from '../../../../src-main/core/engines/engine-deployment.js';
import type { EngineRules } from '../../../../src-main/core/engines/engine-rules.js';
import type { EngineDeployment } from '../../../../src-main/core/engines/engine-step.js';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import type { EngineName } from '../../../../src-main/core/engines/engine-names.js';
import { datasheetFor } from '../../../../src-main/core/planner/cost/datasheets.js';
import type { WeightFormat } from '../../../../src-main/core/workload/generation.js';

/** Blocks per stage for `pp` stages, as even as whole blocks allow (the first stages take the extra). */
function evenBlocks(layers: number, pp: number): number[] {
  const base = Math.floor(layers / pp);
  return Array.from({ length: pp }, (_, i) => base + (i < layers % pp ? 1 : 0));
}

export interface DeploymentSpec {
  engine?: EngineName | EngineRules;
  model?: string;
  gpu?: string;
  format?: WeightFormat;
  tp?: number;
  pp?: number;
  kvCache?: 'auto' | 'fp8';
  /** All-reduce of bytes over n GPUs (µs); default 10 µs + bytes at 100 GB/s. */
  allReduceUs?: (n: number, bytes: number) => number;
}

export function deployment(spec: DeploymentSpec = {}): EngineDeployment {
  const entry = getCatalogEntry(spec.model ?? 'llama-3.1-8b') as TransformerEntry;
  const gpu = datasheetFor(spec.gpu ?? 'H100 SXM5');
  if (!gpu) throw new Error(`no datasheet for ${spec.gpu}`);
  const tp = spec.tp ?? 1;
  const engine = typeof spec.engine === 'object' ? spec.engine : engineRules(spec.engine ?? 'vllm');
  const ar = spec.allReduceUs ?? ((n: number, bytes: number) => (n < 2 ? 0 : 10 + bytes / 100e3));
  return engineDeployment({
    engine,
    entry,
    format: spec.format ?? 'bf16',
    kvCache: spec.kvCache ?? 'auto',
    stages: evenBlocks(entry.layers, spec.pp ?? 1).map((blocks, s) => ({
      gpu,
      blocks,
      members: Array.from({ length: tp }, (_, i) => `gpu${s * tp + i}`),
    })),
    allReduceUs: (members, bytes) => ar(members.length, bytes),
    sendUs: (_a, _b, bytes) => 5 + bytes / 20e3,
  });
}
