/** The folds of each protocol, so external tools can be given the very same splits. Pure. */
import type { Sample } from '../types.js';
import { groupedKFold, leaveOneDeviceOut, leaveOneFamilyOut, leaveOneModelOut } from './splits.js';
import { extrapolationSplit, interpolationSplit } from './unseen-shapes.js';
import {
  PROTOCOL_NAMES,
  type EvaluationOptions,
  type ProtocolName,
  type ResolvedEvaluationOptions,
  type SplitResult,
} from './types.js';

/** The folds `evaluateProtocols` uses for `protocol` with these options. */
export function foldsFor(
  samples: readonly Sample[],
  protocol: ProtocolName,
  opts: Pick<EvaluationOptions, 'k' | 'seed'>,
): SplitResult {
  switch (protocol) {
    case 'grouped-kfold':
      return groupedKFold(samples, opts.k, opts.seed);
    case 'interpolation':
      return interpolationSplit(samples, opts.seed);
    case 'extrapolation':
      return extrapolationSplit(samples);
    case 'leave-one-family-out':
      return leaveOneFamilyOut(samples);
    case 'leave-one-device-out':
      return leaveOneDeviceOut(samples);
    case 'leave-one-model-out':
      return leaveOneModelOut(samples);
  }
}

/** Options with defaults filled in; throws on values that cannot work. */
export function resolveOptions(opts: EvaluationOptions): ResolvedEvaluationOptions {
  const resolved: ResolvedEvaluationOptions = {
    k: opts.k,
    seed: opts.seed,
    protocols: [...(opts.protocols ?? PROTOCOL_NAMES)],
    tinyUs: opts.tinyUs ?? 10,
    bigUs: opts.bigUs ?? 100,
    scatterCap: opts.scatterCap ?? 5000,
  };
  if (!Number.isInteger(resolved.k) || resolved.k < 2) throw new RangeError(`k must be an integer >= 2, got ${opts.k}`);
  for (const p of resolved.protocols) {
    if (!PROTOCOL_NAMES.includes(p)) throw new RangeError(`unknown protocol "${String(p)}"`);
  }
  if (new Set(resolved.protocols).size !== resolved.protocols.length) throw new RangeError('protocols repeat');
  if (!(resolved.tinyUs > 0) || !(resolved.bigUs > 0)) throw new RangeError('tinyUs and bigUs must be > 0');
  if (!(resolved.scatterCap >= 0)) throw new RangeError('scatterCap must be >= 0');
  return resolved;
}
