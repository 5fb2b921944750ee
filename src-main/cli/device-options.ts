/**
 * The options that pick a device: --device, --threads, --machine and --virtual. One spec each,
 * declared once for every command that takes them, and one parser, so their help and their
 * checks read the same everywhere.
 */
import { UsageError } from '../core/errors.js';
import { valueOption, type OptionSpec, type ParsedOptions } from './command.js';
import { positiveInt } from './workload-options.js';
import { REQUEST_LIMITS } from '../core/workload/limits.js';

/** How a device is named on the command line (a profiled device's key). */
const DEVICE_FORMS = 'cpu, cuda:N, webgpu:N';

/** --device: one device by its key; `note` adds what else this command takes, or its default. */
export function deviceOption(note?: string): OptionSpec {
  return valueOption('DEVICE', note ? `${DEVICE_FORMS} ${note}` : DEVICE_FORMS);
}

/** --threads on a command that reads a profile: which profiled CPU thread count. */
export const THREADS_OPTION = valueOption(
  'N',
  'CPU thread count profiled (default: the most threads profiled, all cores by default)',
);

/** --threads on `profile`: the CPU thread counts to measure, one or several (services' parseThreads reads it). */
export const THREAD_COUNTS_OPTION = valueOption('N', 'CPU thread counts, e.g. 8 or 1,8 (default: physical cores)');

export const MACHINE_OPTION = valueOption('ID', 'an imported machine (default: this one)');

export const VIRTUAL_OPTION = valueOption(
  'GPU',
  'a datasheet GPU instead of a profiled device ("H100 SXM5", "RTX 4090"; pipedejavu gpus lists them): no profile needed',
);

/** The options of a command that predicts or measures on one profiled device. */
export const PROFILED_DEVICE_OPTIONS: Record<string, OptionSpec> = {
  device: deviceOption(),
  threads: THREADS_OPTION,
};

/** Which profiled device: the key given, and the thread count and machine when given. */
export interface ProfiledDeviceQuery {
  device: string;
  threads?: number;
  machine?: string;
}

/** --device (given), --threads (a whole number in REQUEST_LIMITS.threads) and --machine as one query. */
export function profiledDeviceQuery(opts: ParsedOptions, device: string): ProfiledDeviceQuery {
  const threads =
    typeof opts.threads === 'string' ? positiveInt('--threads', opts.threads, REQUEST_LIMITS.threads) : undefined;
  return {
    device,
    ...(threads !== undefined ? { threads } : {}),
    ...(typeof opts.machine === 'string' ? { machine: opts.machine } : {}),
  };
}

/** Exactly one of --device and --virtual: a profiled device or a datasheet GPU. */
export function deviceOrVirtual(command: string, opts: ParsedOptions): { device: string } | { virtual: string } {
  const device = typeof opts.device === 'string' ? opts.device : undefined;
  const virtual = typeof opts.virtual === 'string' ? opts.virtual : undefined;
  if (device !== undefined && virtual !== undefined)
    throw new UsageError('--virtual and --device name different devices: give one');
  if (virtual !== undefined) return { virtual };
  if (device !== undefined) return { device };
  throw new UsageError(`${command}: --device or --virtual is required`);
}
