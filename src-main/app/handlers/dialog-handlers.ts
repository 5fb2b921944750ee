import { UnavailableError } from './unavailable.js';
import type { HandlerGroup } from './types.js';

export const dialogHandlers: HandlerGroup<'dialog:open' | 'dialog:save'> = {
  'dialog:open': (req, { dialogs }) => {
    if (!dialogs) throw new UnavailableError('native file dialogs exist only in the desktop app');
    return dialogs.open(req.purpose);
  },
  'dialog:save': (req, { dialogs }) => {
    if (!dialogs) throw new UnavailableError('native file dialogs exist only in the desktop app');
    return dialogs.save(req.fileName, req.text);
  },
};
