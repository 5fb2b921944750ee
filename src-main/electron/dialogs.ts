/** Native open and save dialogs for profile files and ONNX models. */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BrowserWindow, Dialog } from 'electron';
import { writeFileAtomic } from '../adapters/files/write-file-atomic.js';
import type { Dialogs } from '../app/app-deps.js';

const MAX_PROFILE_BYTES = 256 * 2 ** 20;

export function nativeDialogs(dialog: Dialog, window: () => BrowserWindow | null, dbPath: string): Dialogs {
  // Paths the user picked in this session: the renderer may name these and no others.
  const picked = new Set<string>();
  return {
    opened: (p) => picked.has(p),
    async open(purpose) {
      const win = window();
      const options = {
        properties: ['openFile' as const],
        filters:
          purpose === 'onnx'
            ? [{ name: 'ONNX models', extensions: ['onnx'] }]
            : [{ name: 'pipeDejavu hardware profiles', extensions: ['json'] }],
      };
      const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      const file = r.canceled ? undefined : r.filePaths[0];
      if (!file) return null;
      picked.add(file);
      // Models are parsed where they lie (the core reads them); profiles come back as text.
      if (purpose === 'onnx') return { fileName: path.basename(file), path: file, text: null };
      if (statSync(file).size > MAX_PROFILE_BYTES) throw new Error(`${path.basename(file)} is too large for a profile`);
      return { fileName: path.basename(file), path: file, text: readFileSync(file, 'utf8') };
    },
    async save(fileName, text) {
      const win = window();
      const options = { defaultPath: fileName, filters: [{ name: 'JSON', extensions: ['json'] }] };
      const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
      if (r.canceled || !r.filePath) return null;
      writeFileAtomic(r.filePath, text, { protect: [dbPath] });
      return { path: r.filePath };
    },
  };
}
