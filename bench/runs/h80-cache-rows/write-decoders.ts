/** bench/runs/h80-cache-rows.md: three bench:decode steps written to /tmp/ro for `pipedejavu measure-model`. */
import { writeFileSync } from 'node:fs';
import { decoderStepModel } from '../../../test/helpers/decoder-step-model.js';
import { CONFIGS } from '../../lib/decoder-configs.js';
for (const label of ['L14 h448 GQA 7/1, ctx 2200', 'L7 h896 GQA 14/7, ctx 3600', 'L10 h512 MHA 8/8, ctx 5000']) {
  const c = CONFIGS.find((x) => x.label === label)!;
  for (const dataflow of ['read-once', 'concat'] as const) {
    const m = decoderStepModel({ ...c, dataflow });
    const f = `/tmp/ro/${label.split(',')[0]!.replace(/[ /]/g, '_')}-${dataflow}.onnx`;
    writeFileSync(f, m.model);
    console.log(f, m.model.length);
  }
}
