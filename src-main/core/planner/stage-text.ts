/**
 * A stage's devices as people read them, one spelling for the CLI, the app and the simulated
 * timeline: "a+b" (data parallel), "TP2 m/gpu:{0,1}" (one tensor-parallel group), "TP2xDP2
 * m/gpu:{0,1}+m/gpu:{2,3}" (replicas of a group); a stage of many devices shows a few and a count.
 * Pure.
 */

/** "m/gpu:{0,1}" for devices that differ only in their index, else "a+b". */
function groupIds(ids: readonly string[]): string {
  const parts = ids.map((id) => /^(.*):(\d+)$/.exec(id));
  const prefix = parts[0]?.[1];
  if (ids.length > 1 && parts.every((m) => m && m[1] === prefix)) {
    return `${prefix}:{${parts.map((m) => m?.[2] ?? '').join(',')}}`;
  }
  return ids.join('+');
}

/** A few items and a count when there are many (a cluster's stage spans dozens of machines). */
function listed(items: readonly string[], sep: string, most = 6): string {
  return items.length <= most
    ? items.join(sep)
    : `${items.slice(0, most - 2).join(sep)}${sep}...${sep}${items[items.length - 1] ?? ''} (${items.length})`;
}

/**
 * The devices of a stage split `tp` ways (tp 1 or absent: data parallel only), as text; with context
 * parallelism of degree cp, its replicas' groups are cp to a sample: "TP2xCP2xDP2 ...".
 */
export function stageDevicesText(devices: readonly string[], tp = 1, cp = 1): string {
  if (tp <= 1 && cp <= 1) return listed(devices, '+');
  const groups: string[] = [];
  const width = Math.max(1, tp);
  for (let r = 0; r < devices.length; r += width) groups.push(groupIds(devices.slice(r, r + width)));
  const dp = Math.max(1, Math.round(groups.length / Math.max(1, cp)));
  const axes = [tp > 1 ? `TP${tp}` : '', cp > 1 ? `CP${cp}` : '', dp > 1 ? `DP${dp}` : ''].filter((a) => a !== '');
  return `${axes.join('x')} ${listed(groups, '+')}`;
}

/** " (7 blocks)" for a stage that says how many transformer blocks it holds, else "". */
export function stageBlocksText(stage: { blocks?: number }): string {
  return stage.blocks === undefined ? '' : ` (${stage.blocks} block${stage.blocks === 1 ? '' : 's'})`;
}
