/** Light, dark, or the system's choice (prefers-color-scheme), remembered in localStorage. */

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'pipedejavu.theme';

function systemDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
}

export class Theme {
  choice: ThemeChoice = $state('system');
  systemIsDark = $state(false);

  constructor() {
    try {
      const saved = window.localStorage.getItem(KEY);
      if (saved === 'light' || saved === 'dark' || saved === 'system') this.choice = saved;
    } catch {
      // No storage (private mode): the choice lasts for this window only.
    }
    this.systemIsDark = systemDark();
    window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener('change', (e) => {
      this.systemIsDark = e.matches;
      this.#apply();
    });
    this.#apply();
  }

  get dark(): boolean {
    return this.choice === 'dark' || (this.choice === 'system' && this.systemIsDark);
  }

  set(choice: ThemeChoice): void {
    this.choice = choice;
    try {
      window.localStorage.setItem(KEY, choice);
    } catch {
      // See the constructor.
    }
    this.#apply();
  }

  /** The toggle: to the opposite of what is shown now. */
  toggle(): void {
    this.set(this.dark ? 'light' : 'dark');
  }

  /** The stylesheet's dark tokens key on data-theme alone, whether chosen or from the system. */
  #apply(): void {
    document.documentElement.dataset.theme = this.dark ? 'dark' : 'light';
  }
}
