import { UserError } from '../../core/errors.js';
import { planServing } from '../../services/serving/serving-plan-service.js';
import type { Command } from '../command.js';
import { nothingMeetsText, servePlanText } from '../render/serve-plan.js';
import { SERVE_PLAN_OPTIONS, servePlanRequest } from '../serve-plan-options.js';

export const servePlanCommand: Command = {
  name: 'serve-plan',
  summary: 'the cheapest GPUs that serve a request rate within latency percentiles (serving capacity at an SLO)',
  usage:
    '--workload MODEL --rate N [--prompt N] [--output N] --ttft-p90 1s --tpot-p90 50ms [--virtual "H100 SXM5,A100 80GB,4090"] [--price "H100 SXM5=2.5/h"] [--engine NAME] [--weights bf16,fp8] [--top N] [--json]',
  details:
    'Serving capacity is one command, serve-plan (plan --mode inference prices one deployment at a batch).\n' +
    'For each GPU kind, GPUs per replica (1, 2, 4, 8: tensor parallel, or pipeline stages on an engine without\n' +
    'it) and weight format the engine loads that holds the model with one request of KV cache, it simulates one\n' +
    "replica request by request on the engine's scheduler at the rate's share, finds the rate where a replica\n" +
    'breaks the SLO (seeded bisection), and takes the fewest replicas that meet it. Cost: replicas x GPUs x the\n' +
    'price per GPU-hour (shipped defaults name their source and date; --price overrides), and per million output\n' +
    'tokens at the rate. Any percentile caps: --ttft-p50/--ttft-p90/--ttft-p99, --tpot-p50/--tpot-p90/--tpot-p99\n' +
    '(TPOT: time per output token after the first). When nothing meets the SLO it names the closest deployment\n' +
    'and its percentiles, and exits 1.',
  options: SERVE_PLAN_OPTIONS,
  async run(ctx, opts) {
    const plan = planServing(ctx.database(), servePlanRequest(opts));
    if (ctx.json) ctx.printJson(plan);
    else if (plan.deployments.length > 0) ctx.printLines(servePlanText(plan));
    if (plan.deployments.length === 0) throw new UserError(nothingMeetsText(plan));
  },
};
