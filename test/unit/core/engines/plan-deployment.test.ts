import { describe, expect, it } from 'vitest';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import { engineAllReduce } from '../../../../src-main/core/engines/plan-deployment.js';
import { createCostModel } from '../../../../src-main/core/planner/cost/cost-model.js';
import { virtualDevice } from '../../../../src-main/core/planner/cost/datasheets.js';
import { buildPlanLinks } from '../../../../src-main/core/planner/cost/links.js';

/** Four H100 SXM on one NVLink Switch: NCCL's NVLS reduces in the switch, cheaper than any custom kernel. */
function h100s(n: number) {
  const devices = Array.from({ length: n }, (_, index) => virtualDevice('H100 SXM', { index }).device);
  const links = buildPlanLinks(devices).links;
  return { members: devices.map((d) => d.id), links, costModel: createCostModel(links) };
}

describe('engineAllReduce', () => {
  it("runs TensorRT-LLM's own one-shot kernel for a decode-sized message even where NCCL's NVLS would be faster", () => {
    const { members, links, costModel } = h100s(4);
    const trt = engineRules('tensorrt-llm', { version: '0.14.0' });
    const bytes = 8 * 8192 * 2; // 8 tokens of a 8,192-wide hidden state
    const nccl = costModel.allReduceUs(members, bytes);
    const us = engineAllReduce(trt, links, costModel)(members, bytes);
    expect(nccl).toBeLessThan(trt.split.allReduceUs);
    expect(us).toBeGreaterThanOrEqual(trt.split.allReduceUs);
  });

  it('hands a message past the size its AUTO strategy sends to the custom kernel (1 MB at 4 GPUs) to NCCL', () => {
    const { members, links, costModel } = h100s(4);
    const trt = engineRules('tensorrt-llm', { version: '0.14.0' });
    const bytes = 2e6;
    expect(engineAllReduce(trt, links, costModel)(members, bytes)).toBe(costModel.allReduceUs(members, bytes));
  });

  it("keeps vLLM's custom kernel up to its 8 MiB buffer, NCCL past it", () => {
    const { members, links, costModel } = h100s(2);
    const vllm = engineRules('vllm', { version: '0.6.0' });
    const ar = engineAllReduce(vllm, links, costModel);
    expect(ar(members, 4 * 2 ** 20)).toBeGreaterThanOrEqual(vllm.split.allReduceUs);
    expect(ar(members, 16 * 2 ** 20)).toBe(costModel.allReduceUs(members, 16 * 2 ** 20));
  });
});
