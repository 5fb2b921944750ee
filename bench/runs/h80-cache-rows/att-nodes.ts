/** bench/runs/h80-cache-rows.md: one layer of decode attention priced node by node. Run: node att-nodes.mjs STORE heads kvHeads headDim context threads */
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';
import { decodeAttentionModel, CACHE_INPUT } from '../../../src-main/core/workload/decode-attention.js';
import { workloadFromOnnx } from '../../../src-main/core/workload/from-onnx.js';
import { predictOnDevice, pickDevice } from '../../../src-main/services/workload/workload-service.js';
const db = openDatabase(process.argv[2]!);
const [heads, kvHeads, headDim, context, threads] = process.argv.slice(3).map(Number) as number[];
for (const dataflow of ['concat', 'read-once'] as const) {
  const device = pickDevice(db, 'cpu', threads);
  const w = workloadFromOnnx(
    decodeAttentionModel(
      { batch: 1, heads: heads!, kvHeads: kvHeads!, headDim: headDim!, context: context! },
      dataflow,
      'fp32',
    ),
    { name: 'a' },
  );
  const p = predictOnDevice(db, w, device, { mode: 'inference' });
  let sum = 0;
  for (const n of p.nodes) {
    const node = w.nodes[n.index]!;
    const cache = node.inputs
      .filter((t) => CACHE_INPUT.test(t.name))
      .reduce((a, t) => a + t.dims.reduce((x, y) => x * y, 1) * 4, 0);
    sum += n.timeUs;
    console.log(
      dataflow,
      n.opType.padEnd(12),
      n.how.padEnd(10),
      n.timeUs.toFixed(1).padStart(8),
      'cache MB',
      (cache / 1e6).toFixed(2),
      JSON.stringify(node.kernel?.shape ?? {}),
    );
  }
  console.log(dataflow, 'sum', sum.toFixed(0));
}
