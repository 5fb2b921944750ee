/** How a given layout's stages split the layers, by the stack that runs them (stage-split.ts). */
import { describe, expect, it } from 'vitest';
import {
  blocksPerStage,
  countsText,
  stageSplit,
  torchtitanBlocks,
} from '../../../../src-main/core/planner/stage-split.js';
import { partitionBalanced } from '../../../../src-main/core/planner/exports/deepspeed.js';
import type { PlanLayer } from '../../../../src-main/core/planner/types.js';

/** Embeddings, `blocks` blocks and a head; the embeddings and head with `edgeParams` parameters. */
function layers(blocks: number, edgeParams = 1e9, edges = true): PlanLayer[] {
  const layer = (name: string, params: number): PlanLayer => ({
    name,
    forwardUs: {},
    backwardUs: {},
    params,
    outBytesPerSample: 1,
    activationBytesPerSample: 1,
  });
  const body = Array.from({ length: blocks }, (_, i) => layer(`block.${i}`, 3e9));
  return edges ? [layer('embeddings', edgeParams), ...body, layer('head', edgeParams)] : body;
}

const blocksOf = (ls: PlanLayer[], pp: number, stack?: Parameters<typeof stageSplit>[2]) =>
  blocksPerStage(ls, stageSplit(ls, pp, stack).bounds);

describe('stage split without a stack (and under Megatron-LM)', () => {
  it('splits evenly when pp divides the blocks, with nothing to say', () => {
    expect(blocksOf(layers(80), 8)).toEqual(Array.from({ length: 8 }, () => 10));
    expect(stageSplit(layers(80), 8, 'megatron').note).toBeNull();
  });

  it('weighs the embedding and the head one block each: Llama 3 405B on 16 stages, BLOOM-176B on 12', () => {
    expect(countsText(blocksOf(layers(126), 16))).toBe('7, 8 x14, 7');
    expect(countsText(blocksOf(layers(70), 12, 'megatron'))).toBe('5, 6 x10, 5');
    expect(countsText(blocksOf(layers(80), 6))).toBe('12, 14 x4, 12');
    expect(blocksOf(layers(7), 2)).toEqual([4, 3]);
    expect(stageSplit(layers(126), 16).note).toContain(
      '--decoder-first-pipeline-num-layers 7 --decoder-last-pipeline-num-layers 7',
    );
  });

  it('keeps a block on every stage up to pp = blocks', () => {
    for (const pp of [3, 7, 9, 10]) {
      const counts = blocksOf(layers(10), pp);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(10);
      expect(Math.min(...counts), `pp=${pp}`).toBeGreaterThanOrEqual(1);
    }
  });
});

describe("torchtitan's split (_generate_llm_fqn_per_model_part, weights 1)", () => {
  it('gives n = blocks + 2 effective layers ⌊n / pp⌋ a stage, the first (n mod pp) one more, the ends one block fewer', () => {
    expect(countsText(torchtitanBlocks(126, 16))).toBe('7, 8 x14, 7');
    expect(torchtitanBlocks(32, 5)).toEqual([6, 7, 7, 7, 5]);
    expect(torchtitanBlocks(80, 6)).toEqual([13, 14, 14, 14, 13, 12]);
    // Even when pp divides the blocks, as torchtitan runs it.
    expect(blocksOf(layers(32), 4, 'torchtitan')).toEqual([8, 9, 8, 7]);
  });

  it('refuses in one line a split that leaves a stage no layer', () => {
    expect(() => stageSplit(layers(10, 1e9, false), 10, 'torchtitan')).toThrow(
      /^--layout pp=10: torchtitan's split .* leaves stage 9 no layer; give a smaller pp$/,
    );
  });
});

describe("DeepSpeed's split (PipelineModule partition_method 'parameters')", () => {
  it('balances the layers by parameter count, heavy embeddings included', () => {
    const ls = layers(32, 4e9);
    const split = stageSplit(ls, 5, 'deepspeed');
    expect(split.bounds).toEqual(
      partitionBalanced(
        ls.map((l) => l.params),
        5,
      ),
    );
    expect(split.note).toContain("partition_method 'parameters'");
  });
});
