/** The native menu: the usual roles plus the app's views (the renderer navigates on `menu:navigate`). */
import type { MenuItemConstructorOptions } from 'electron';

const VIEWS = [
  ['workstation', 'Workstation'],
  ['profile', 'Profile'],
  ['predictor', 'Predictor'],
  ['workloads', 'Workloads'],
  ['plans', 'Plans'],
  ['serving', 'Serving'],
  ['library', 'Library'],
] as const;

/**
 * A packaged build's View menu has no Developer Tools item (nor its Ctrl+Shift+I
 * accelerator) and no reloads: only zoom and full screen.
 */
function viewMenu(packaged: boolean): MenuItemConstructorOptions {
  if (!packaged) return { role: 'viewMenu' };
  return {
    label: 'View',
    submenu: [
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
}

export function menuTemplate(
  navigate: (view: string) => void,
  o: { isMac: boolean; packaged: boolean },
): MenuItemConstructorOptions[] {
  const { isMac, packaged } = o;
  return [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'Go',
      submenu: VIEWS.map(([view, label], i) => ({
        label,
        accelerator: `CmdOrCtrl+${i + 1}`,
        click: () => navigate(view),
      })),
    },
    viewMenu(packaged),
    { role: 'windowMenu' },
  ];
}
