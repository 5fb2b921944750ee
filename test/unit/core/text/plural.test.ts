import { describe, expect, it } from 'vitest';
import { count, noun } from '../../../../src-main/core/text/plural.js';

describe('count', () => {
  it('says one thing in the singular and every other count in the plural', () => {
    expect(count(1, 'device')).toBe('1 device');
    expect(count(2, 'device')).toBe('2 devices');
    expect(count(0, 'thread')).toBe('0 threads');
    expect(count(1, 'thread')).toBe('1 thread');
  });

  it('knows the regular English endings and takes irregular plurals', () => {
    expect(noun(2, 'batch')).toBe('batches');
    expect(noun(3, 'family')).toBe('families');
    expect(noun(3, 'day')).toBe('days');
    expect(count(2, 'child', 'children')).toBe('2 children');
    expect(count(1, 'child', 'children')).toBe('1 child');
  });
});
