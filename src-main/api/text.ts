/**
 * Wording the app shares with the CLI, so both say a thing the same way: durations as people read
 * them (42s, 3m05s); sizes in binary units (1.5 KiB, 11.3 GiB); a plan stage's devices ("TP2
 * m/gpu:{0,1}"); lists as prose ("a, b and c"); the end of an import refused for an older copy,
 * which the app answers with a Replace button; the lines a plan states its assumptions and its
 * training stack in; a suggested change's best plan (serving in first-token time and tokens/s,
 * training in samples/s); how many devices a list of device ids names (a CPU at two thread counts
 * is one); a device's kernels and the reorders stored beside them. The renderer reaches the core
 * only through the api. Pure.
 */
export { formatDuration } from '../core/text/duration.js';
export { formatBytes } from '../core/text/bytes.js';
export { stageBlocksText, stageDevicesText } from '../core/planner/stage-text.js';
export { series } from '../core/text/series.js';
export { REPLACE_HINT } from '../core/profile-file/schema.js';
export { assumptionsLine, stackLines } from '../core/planner/plan-assumptions.js';
export { suggestedPlanText } from '../core/planner/suggested-plan-text.js';
export { physicalDeviceCount } from '../core/domain/device-id.js';
export { kernelsCell } from '../core/profiler/kernel-counts.js';
