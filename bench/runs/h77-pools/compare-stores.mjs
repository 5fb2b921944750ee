import D from 'better-sqlite3';
const q = (a, p) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
function load(f) {
  const db = new D(f, { readonly: true });
  const rows = db
    .prepare(
      "select op,family,shape_key,dtype,flops,bytes,threads,median_us from measurements where source='profile' and execution_provider='cpu'",
    )
    .all();
  const m = new Map();
  for (const r of rows) {
    m.set(`${r.op}|${r.shape_key}|${r.dtype}|${r.threads}`, r);
  }
  return m;
}
for (const [name, stores] of [
  ['x (before)', ['/tmp/pdjv-pbench-l3I4zD/s-33klIe', '/tmp/pdjv-pbench-l3I4zD/s-rmGNTX']],
  ['y (after)', ['/tmp/pdjv-pbench-PEoV0Q/s-8ZZh9E', '/tmp/pdjv-pbench-PEoV0Q/s-W5lG8D']],
  ['z (rounds)', process.argv.slice(2)],
]) {
  const ms = stores.map((s) => load(s + '/bench.db'));
  for (const [i, m] of ms.entries()) {
    const small = [],
      big = [];
    for (const [k, r] of m) {
      if (r.threads !== 2) continue;
      const one = m.get(k.replace(/\|2$/, '|1'));
      if (!one) continue;
      const ratio = r.median_us / one.median_us;
      (r.flops <= 2e7 && r.bytes <= 4 * 2 ** 20 ? small : big).push(ratio);
    }
    console.log(
      name,
      'profile',
      i + 1,
      `chained (small) kernels n=${small.length}: 2t/1t p10 ${q(small, 0.1).toFixed(2)} median ${q(small, 0.5).toFixed(2)} p90 ${q(small, 0.9).toFixed(2)}; slower at 2t than 1t: ${small.filter((x) => x > 1).length}`,
      `| traced (big) n=${big.length}: median ${q(big, 0.5).toFixed(2)}, slower: ${big.filter((x) => x > 1).length}`,
    );
  }
  const agree = [];
  const agreeSmall = [];
  for (const [k, r] of ms[0]) {
    const o = ms[1].get(k);
    if (!o || r.threads !== 2) continue;
    const d = Math.abs(Math.log(o.median_us / r.median_us));
    agree.push(d);
    if (r.flops <= 2e7 && r.bytes <= 4 * 2 ** 20) agreeSmall.push(d);
  }
  console.log(
    name,
    `2t kernels, profile 2 vs 1: median |log ratio| all ${(q(agree, 0.5) * 100).toFixed(1)}% (p90 ${(q(agree, 0.9) * 100).toFixed(1)}%), chained ${(q(agreeSmall, 0.5) * 100).toFixed(1)}% (p90 ${(q(agreeSmall, 0.9) * 100).toFixed(1)}%)`,
  );
}
