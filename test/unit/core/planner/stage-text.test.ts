import { describe, expect, it } from 'vitest';
import { stageDevicesText } from '../../../../src-main/core/planner/stage-text.js';

const gpus = (n: number, machine = 'm'): string[] => Array.from({ length: n }, (_, i) => `${machine}/cuda:${i}`);

describe('stageDevicesText: one spelling of a stage for the CLI, the app and the timeline', () => {
  it.each([
    { name: 'one device', devices: ['m/cpu'], tp: undefined, text: 'm/cpu' },
    { name: 'data parallel', devices: ['a/cuda:0', 'b/cuda:0'], tp: 1, text: 'a/cuda:0+b/cuda:0' },
    { name: 'one tensor-parallel group', devices: gpus(2), tp: 2, text: 'TP2 m/cuda:{0,1}' },
    { name: 'replicas of a group', devices: gpus(4), tp: 2, text: 'TP2xDP2 m/cuda:{0,1}+m/cuda:{2,3}' },
    { name: 'a group across machines', devices: ['a/cuda:0', 'b/cuda:0'], tp: 2, text: 'TP2 a/cuda:0+b/cuda:0' },
    {
      name: 'many devices: a few and a count',
      devices: gpus(8),
      tp: 1,
      text: 'm/cuda:0+m/cuda:1+m/cuda:2+m/cuda:3+...+m/cuda:7 (8)',
    },
    {
      name: 'many groups: a few and a count',
      devices: [
        ...gpus(2, 'a'),
        ...gpus(2, 'b'),
        ...gpus(2, 'c'),
        ...gpus(2, 'd'),
        ...gpus(2, 'e'),
        ...gpus(2, 'f'),
        ...gpus(2, 'g'),
      ],
      tp: 2,
      text: 'TP2xDP7 a/cuda:{0,1}+b/cuda:{0,1}+c/cuda:{0,1}+d/cuda:{0,1}+...+g/cuda:{0,1} (7)',
    },
  ])('$name: $text', ({ devices, tp, text }) => {
    expect(stageDevicesText(devices, tp)).toBe(text);
  });

  it.each([
    { name: 'context parallel in tensor-parallel replicas', devices: gpus(8), tp: 2, cp: 2, axes: 'TP2xCP2xDP2' },
    { name: 'one context-parallel replica', devices: gpus(4), tp: 2, cp: 2, axes: 'TP2xCP2' },
    { name: 'context parallel without tensor parallel', devices: gpus(4), tp: 1, cp: 2, axes: 'CP2xDP2' },
  ])('$name: $axes', ({ devices, tp, cp, axes }) => {
    expect(stageDevicesText(devices, tp, cp).split(' ')[0]).toBe(axes);
  });
});
