/**
 * bench/runs/h80-cache-rows.md: a `measure-model --json` file's nodes summed by role over the layers
 * (block.N. taken off their names). Run: node group-nodes.mjs FILE.json
 */
import { readFileSync } from 'node:fs';

const j = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const g = {};
for (const n of j.nodes) {
  const key = n.name.replace(/^block\.\d+\./, '').replace(/_\d+$/, '');
  const e = (g[key] ??= { m: 0, p: 0, c: 0, op: n.opType });
  e.m += n.measuredUs;
  e.p += n.predictedUs ?? 0;
  e.c++;
}
let M = 0;
let P = 0;
for (const [k, e] of Object.entries(g).sort((a, b) => b[1].m - a[1].m)) {
  M += e.m;
  P += e.p;
  if (e.m > 50)
    console.log(
      k.padEnd(28),
      e.op.padEnd(20),
      String(e.c).padStart(3),
      e.m.toFixed(0).padStart(7),
      e.p.toFixed(0).padStart(7),
      `${((e.p / e.m - 1) * 100).toFixed(0).padStart(5)}%`,
    );
}
console.log('total', M.toFixed(0), P.toFixed(0), 'median run', j.medianMs, 'pred', j.predicted.totalUs);
