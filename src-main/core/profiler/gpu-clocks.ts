/**
 * What nvidia-smi says about a GPU around a timed batch (one kernel's timing job): SM clock,
 * temperature, power draw and the clock event (throttle) reasons. A batch timed while a
 * thermal or power throttle held the clocks down is re-measured once and flagged `throttled`
 * if the throttle is still on. Pure.
 */

export interface GpuClockSample {
  smClockMHz: number | null;
  temperatureC: number | null;
  powerW: number | null;
  /** clocks_event_reasons.active (clocks_throttle_reasons.active on older drivers), as printed; null when unknown. */
  reasonsMask: string | null;
}

/** A sample, or why none could be taken (nvidia-smi missing, hanging, failing). */
export type GpuClockReading = { kind: 'ok'; sample: GpuClockSample } | { kind: 'unavailable'; reason: string };

/** Reads one GPU (by nvidia-smi index). */
export type GpuClockSampler = (gpuIndex: number) => Promise<GpuClockReading>;

/** NVML's clock event reason bits (nvml.h nvmlClocksEventReason*). */
const CLOCK_EVENT_REASONS: readonly { bit: number; name: string; throttle: boolean }[] = [
  { bit: 0x1, name: 'gpu_idle', throttle: false },
  { bit: 0x2, name: 'applications_clocks_setting', throttle: false },
  { bit: 0x4, name: 'sw_power_cap', throttle: true },
  { bit: 0x8, name: 'hw_slowdown', throttle: true },
  { bit: 0x10, name: 'sync_boost', throttle: false },
  { bit: 0x20, name: 'sw_thermal_slowdown', throttle: true },
  { bit: 0x40, name: 'hw_thermal_slowdown', throttle: true },
  { bit: 0x80, name: 'hw_power_brake_slowdown', throttle: true },
  { bit: 0x100, name: 'display_clock_setting', throttle: false },
];

/** The active thermal or power throttles of a mask ("0x0000000000000044"); [] when none or unreadable. */
export function throttleReasons(mask: string | null): string[] {
  if (mask === null || !/^0x[0-9a-f]+$/i.test(mask.trim())) return [];
  const value = BigInt(mask.trim());
  return CLOCK_EVENT_REASONS.filter((r) => r.throttle && (value & BigInt(r.bit)) !== 0n).map((r) => r.name);
}

/** What the run keeps: the range of every figure over its batches, and the batches left throttled. */
export interface GpuClockSummary {
  samples: number;
  smClockMHz: { min: number; max: number } | null;
  temperatureC: { min: number; max: number } | null;
  powerW: { min: number; max: number } | null;
  /** Batches that were under a throttle and timed again. */
  remeasured: string[];
  /** Batches still under a throttle when timed again: stored, flagged. */
  throttled: { kernel: string; reasons: string[] }[];
  /** Why some or all samples are missing (one line). */
  unavailable?: string;
}

export function emptyClockSummary(): GpuClockSummary {
  return { samples: 0, smClockMHz: null, temperatureC: null, powerW: null, remeasured: [], throttled: [] };
}

const widen = (r: { min: number; max: number } | null, v: number | null): { min: number; max: number } | null =>
  v === null ? r : r === null ? { min: v, max: v } : { min: Math.min(r.min, v), max: Math.max(r.max, v) };

/** The summary with one more sample. */
export function addClockSample(s: GpuClockSummary, x: GpuClockSample): GpuClockSummary {
  return {
    ...s,
    samples: s.samples + 1,
    smClockMHz: widen(s.smClockMHz, x.smClockMHz),
    temperatureC: widen(s.temperatureC, x.temperatureC),
    powerW: widen(s.powerW, x.powerW),
  };
}
