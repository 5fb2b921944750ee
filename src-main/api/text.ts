/**
 * Wording the app shares with the CLI, so both say a thing the same way: durations as
 * people read them (42s, 3m05s). The renderer reaches the core only through the api. Pure.
 */
export { formatDuration } from '../core/text/duration.js';
