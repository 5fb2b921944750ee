import { describe, expect, it } from 'vitest';
import { series } from '../../../../src-main/core/text/series.js';

describe('series', () => {
  it.each([
    { items: [], last: 'or' as const, text: '' },
    { items: ['fp32'], last: 'or' as const, text: 'fp32' },
    { items: ['lora', 'qlora'], last: 'or' as const, text: 'lora or qlora' },
    { items: ['fp32', 'fp16', 'bf16', 'fp8'], last: 'or' as const, text: 'fp32, fp16, bf16 or fp8' },
    { items: ['Ada', 'Hopper', 'Blackwell'], last: 'and' as const, text: 'Ada, Hopper and Blackwell' },
  ])('$items with $last: "$text"', ({ items, last, text }) => {
    expect(series(items, last)).toBe(text);
  });
});
