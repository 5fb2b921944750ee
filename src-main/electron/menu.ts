/** The native menu: the usual roles plus the app's views (the renderer navigates on `menu:navigate`). */
import type { MenuItemConstructorOptions } from 'electron';

const VIEWS = [
  ['workstation', 'Workstation'],
  ['profile', 'Profile'],
  ['predictor', 'Predictor'],
  ['workloads', 'Workloads'],
  ['plans', 'Plans'],
  ['library', 'Library'],
] as const;

export function menuTemplate(navigate: (view: string) => void, isMac: boolean): MenuItemConstructorOptions[] {
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
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
}
