/**
 * What the workload's dtype asks of the devices: fp8 refused where no fp8 units are planned for,
 * fp16/bf16 times transferred from fp32 where none was measured (said once per kind of device). Pure.
 */
import { DatasheetPredictor } from '../../predictor/datasheet-predictor.js';
import { UserError } from '../../errors.js';
import { count } from '../../text/plural.js';
import { groupBy } from '../../util/group-by.js';
import type { Workload } from '../../workload/types.js';
import { GPU_DATASHEETS, hasFp8 } from '../cost/datasheets.js';
import type { PlanCandidate } from '../search/plan-candidate.js';

/**
 * A workload in fp16 or bf16 (the exports default to bf16) on a device whose profile measured no
 * peak for that dtype is predicted from its fp32 peak: say so, once per device.
 */
export function transferredDtypeWarnings(w: Workload, candidates: readonly PlanCandidate[]): string[] {
  const dtype = w.nodes.find((n) => n.flops > 0)?.dtype;
  if (dtype !== 'fp16' && dtype !== 'bf16') return [];
  const missing = candidates.filter(
    (c) => c.device.estimate === 'profiled' && c.features.peakGflops[dtype] === undefined,
  );
  // A cluster has hundreds of devices: one line for each kind of device, naming a few.
  return [...groupBy(missing, (c) => c.device.name).values()].map((list) => {
    const first = list[0] as PlanCandidate;
    const who =
      list.length === 1
        ? `${first.device.id}: no kernel was measured in ${dtype} on it; its`
        : `${count(list.length, `${first.device.name} device`)} (${list
            .slice(0, 3)
            .map((c) => c.device.id)
            .join(', ')}${list.length > 3 ? ', ...' : ''}): no kernel was measured in ${dtype} on them; their`;
    return (
      `${who} ${dtype} times are transferred from the fp32 peak` +
      (first.device.kind === 'gpu' ? ' (profile with --backend torch, which measures fp16 and bf16)' : '')
    );
  });
}

/**
 * fp8 GEMMs need fp8 tensor cores (FP8_ARCHITECTURES: Ada, Hopper, Blackwell): a workload built
 * in fp8 on any other device, or on a measured device (no kernel is profiled in fp8), is refused
 * in one line naming what has them.
 */
export function checkFp8Devices(workload: Workload, candidates: readonly PlanCandidate[]): void {
  if (!workload.nodes.some((n) => n.dtype === 'fp8')) return;
  const lacking = candidates.filter(
    (c) => !(c.predictor instanceof DatasheetPredictor && hasFp8(c.predictor.datasheet)),
  );
  if (lacking.length === 0) return;
  const names = [...new Set(lacking.map((c) => c.device.name))];
  const withFp8 = GPU_DATASHEETS.filter(hasFp8).map((g) => g.name);
  throw new UserError(
    `--dtype fp8: ${names.slice(0, 3).join(', ')}${names.length > 3 ? ', ...' : ''} ${names.length === 1 ? 'has' : 'have'} no fp8 units planned for (measured devices are profiled in fp32/fp16/bf16); fp8 runs on datasheet GPUs with fp8: ${withFp8.join(', ')}`,
  );
}
