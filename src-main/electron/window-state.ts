/** Window size and position, remembered between runs in userData/window-state.json. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../adapters/files/write-file-atomic.js';

const StateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(800).max(10000),
  height: z.number().int().min(600).max(10000),
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof StateSchema>;

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 800, maximized: false };

/** The saved state, or the default when the file is missing or unreadable. */
export function loadWindowState(file: string): WindowState {
  try {
    const parsed = StateSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : DEFAULT_WINDOW_STATE;
  } catch {
    return DEFAULT_WINDOW_STATE;
  }
}

export function saveWindowState(file: string, state: WindowState): void {
  try {
    writeFileAtomic(file, `${JSON.stringify(state)}\n`);
  } catch {
    // Losing the window position is not worth an error dialog.
  }
}
