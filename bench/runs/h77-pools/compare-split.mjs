import D from 'better-sqlite3';
function load(f) {
  const db = new D(f + '/bench.db', { readonly: true });
  return db
    .prepare(
      "select op,shape_key,threads,median_us,flops,bytes from measurements where source='profile' and execution_provider='cpu' and op in ('Add','Mul','Relu','Sigmoid') ",
    )
    .all();
}
const sets = {
  x: '/tmp/pdjv-pbench-l3I4zD/s-33klIe',
  x2: '/tmp/pdjv-pbench-l3I4zD/s-rmGNTX',
  y: '/tmp/pdjv-pbench-PEoV0Q/s-8ZZh9E',
  y2: '/tmp/pdjv-pbench-PEoV0Q/s-W5lG8D',
  z: process.argv[2],
  z2: process.argv[3],
};
const out = {};
for (const [k, f] of Object.entries(sets))
  for (const r of load(f)) {
    if (r.flops > 2e7 || r.bytes > 4 * 2 ** 20) continue;
    const n = Number((/n=(\d+)/.exec(r.shape_key) || [])[1]);
    if (!(n >= 100000)) continue;
    const key = r.op + ' ' + r.shape_key;
    out[key] ??= {};
    out[key][k + '@' + r.threads] = r.median_us;
  }
for (const [key, v] of Object.entries(out))
  console.log(
    key.padEnd(40),
    ['x', 'x2', 'y', 'y2', 'z', 'z2']
      .map((k) => (v[k + '@1'] && v[k + '@2'] ? (v[k + '@2'] / v[k + '@1']).toFixed(2) : '-'))
      .join(' '),
  );
