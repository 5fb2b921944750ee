/** Items as prose: "fp32, fp16, bf16 or fp8", "Ada, Hopper and Blackwell"; one item alone, none empty. Pure. */
export function series(items: readonly string[], last: 'or' | 'and' = 'or'): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1] ?? ''}`;
}
