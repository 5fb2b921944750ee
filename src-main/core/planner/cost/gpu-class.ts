/**
 * Who buys a datasheet GPU, read from its name: GeForce cards are consumer cards, the other RTX
 * cards (RTX A6000, RTX 6000 Ada, RTX PRO 6000) workstation cards, the rest (H100, L40S, T4...)
 * datacenter parts. `fit` lists and splits over them in this order. Pure.
 */

/** The classes, cheapest first. */
export const GPU_CLASSES = ['consumer', 'workstation', 'datacenter'] as const;
export type GpuClass = (typeof GPU_CLASSES)[number];

export function gpuClass(name: string): GpuClass {
  if (/\bgeforce\b/i.test(name)) return 'consumer';
  if (/\brtx\b/i.test(name)) return 'workstation';
  return 'datacenter';
}
