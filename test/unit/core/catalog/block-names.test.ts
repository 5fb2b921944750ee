import { describe, expect, it } from 'vitest';
import { catalogWorkload } from '../../../../src-main/core/catalog/index.js';
import {
  attentionCoreName,
  blockName,
  expertsName,
  isBlockName,
  isExpertNode,
} from '../../../../src-main/core/catalog/block-names.js';

describe('catalog block names', () => {
  it('tells the blocks of a transformer from its embedding and head', () => {
    const w = catalogWorkload('gpt2-small', { seq: 16 });
    const blocks = w.layers.filter((l) => isBlockName(l.name)).map((l) => l.name);
    expect(blocks).toEqual(Array.from({ length: 12 }, (_, i) => blockName(i)));
    expect(w.layers.length).toBe(blocks.length + 2);
    expect(isBlockName('block.3.attn.core')).toBe(false);
  });

  it('names the nodes the planner looks up: each block has one attention core', () => {
    const w = catalogWorkload('gpt2-small', { seq: 16 });
    const names = new Set(w.nodes.map((n) => n.name));
    for (let i = 0; i < 12; i++) expect(names.has(attentionCoreName(blockName(i)))).toBe(true);
    expect(w.nodes.some((n) => isExpertNode(n.name))).toBe(false);
  });

  it('finds every routed expert of a mixture-of-experts block, and only those', () => {
    const w = catalogWorkload('mixtral-8x7b', { seq: 16 });
    const experts = w.nodes.filter((n) => isExpertNode(n.name)).map((n) => n.name);
    const blocks = Array.from({ length: 32 }, (_, i) => blockName(i));
    expect(blocks.map((b) => experts.filter((n) => n.startsWith(`${expertsName(b)}.`)).length)).toEqual(
      blocks.map(() => experts.length / 32),
    );
    expect(experts.length).toBeGreaterThanOrEqual(3 * 32);
    expect(experts.some((n) => n.includes('router'))).toBe(false);
  });
});
