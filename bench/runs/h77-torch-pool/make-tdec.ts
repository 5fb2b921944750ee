/**
 * Writes tdec.py (the bench's own torch decoder script for L8 h768 GQA 12/4, context 512; threads 1, 2, 1, 2)
 * and tdec2.py (the same, then torch.profiler over 10 steps at 1 and 2 threads) into the current folder.
 * Run from the repository root: npx esbuild bench/runs/h77-torch-pool/make-tdec.ts --bundle --platform=node
 * --format=esm --packages=external --outfile=.tmp/make-tdec.mjs && node .tmp/make-tdec.mjs
 */
import { writeFileSync } from 'node:fs';
import { torchDecoderScript } from '../../lib/torch-decoder.js';

const config = { label: 'L8', layers: 8, hidden: 768, heads: 12, kvHeads: 4, ffn: 2048, vocab: 8000, context: 512 };
const job = { config, threads: [1, 2, 1, 2], decode: true, prompts: [], warmupRuns: 3, minRuns: 30, budgetMs: 3000 };
const script = torchDecoderScript(job);

const PROFILED = `
import torch.profiler as tp
tok = torch.tensor([1])
with torch.inference_mode():
    for nt in [1, 2]:
        torch.set_num_threads(nt)
        for _ in range(5):
            step(tok)
        with tp.profile(activities=[tp.ProfilerActivity.CPU], record_shapes=True) as prof:
            for _ in range(10):
                step(tok)
        print("threads", nt)
        print(prof.key_averages(group_by_input_shape=True).table(sort_by="self_cpu_time_total", row_limit=14))
`;

writeFileSync('tdec.py', script);
writeFileSync('tdec2.py', script + PROFILED);
