import { readServingTrace } from '../../adapters/files/serving-trace.js';
import { UserError } from '../../core/errors.js';
import { planServing } from '../../services/serving/serving-plan-service.js';
import type { Command } from '../command.js';
import { nothingMeetsText, servePlanText } from '../render/serve-plan.js';
import { SERVE_PLAN_OPTIONS, servePlanRequest } from '../serve-plan-options.js';

export const servePlanCommand: Command = {
  name: 'serve-plan',
  summary: 'the cheapest GPUs that serve a request rate within latency percentiles (serving capacity at an SLO)',
  usage:
    '--workload MODEL --rate N [--prompt SPEC] [--output SPEC] [--burst CV] [--trace FILE] --ttft-p90 1s --tpot-p90 50ms [--virtual "H100 SXM5,A100 80GB,4090"] [--price "H100 SXM5=2.5/h"] [--engine NAME] [--weights bf16,fp8] [--kv-cache fp8] [--top N] [--json]',
  details:
    'Serving capacity is one command, serve-plan (plan --mode inference prices one deployment at a batch).\n' +
    'For each GPU kind, GPUs per replica (1, 2, 4, 8: tensor parallel, or pipeline stages on an engine without\n' +
    'it) and weight format the engine loads that holds the model with one request of KV cache, it simulates one\n' +
    "replica request by request on the engine's scheduler at the rate's share, finds the rate where a replica\n" +
    'breaks the SLO (seeded bisection), and takes the fewest replicas that meet it. Cost: replicas x GPUs x the\n' +
    'price per GPU-hour (shipped defaults name their source and date; --price overrides), and per million output\n' +
    'tokens at the rate. Any percentile caps: --ttft-p50/--ttft-p90/--ttft-p99, --tpot-p50/--tpot-p90/--tpot-p99\n' +
    '(TPOT: time per output token after the first). When nothing meets the SLO it names the closest deployment\n' +
    'and its percentiles, and exits 1.\n' +
    'Lengths: --prompt/--output take a count (fixed), LO-HI (uniform) or lognormal:MEDIAN:SIGMA; --burst CV\n' +
    'draws gamma gaps (1 = Poisson). --trace FILE: a JSONL trace gives the arrival times and lengths of its first\n' +
    "--requests rows; a replica tried at a rate replays those times scaled by the trace's mean rate over that rate\n" +
    "(bursts keep their shape), and --rate (default the trace's own mean rate) is all replicas together. A ShareGPT\n" +
    'JSON gives lengths only (ceil(characters / 4), no tokenizer): arrivals are Poisson at --rate.',
  options: SERVE_PLAN_OPTIONS,
  async run(ctx, opts) {
    const file = typeof opts.trace === 'string' ? opts.trace : undefined;
    const trace = file === undefined ? undefined : { file, trace: await readServingTrace(file) };
    const plan = planServing(ctx.database(), servePlanRequest(opts, trace !== undefined), undefined, trace);
    if (ctx.json) ctx.printJson(plan);
    else if (plan.deployments.length > 0) ctx.printLines(servePlanText(plan));
    if (plan.deployments.length === 0) throw new UserError(nothingMeetsText(plan));
  },
};
