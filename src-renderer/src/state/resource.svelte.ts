/** A value loaded from the API, with its loading flag and the error of its last load. */
import { errorMessage } from '../lib/errors.js';

export class Resource<T> {
  value: T | undefined = $state.raw(undefined);
  error: string | null = $state(null);
  loading = $state(false);
  #seq = 0;

  get loaded(): boolean {
    return this.value !== undefined;
  }

  /** Loads with `fn`; a later load wins over an earlier one still in flight. */
  async load(fn: () => Promise<T>): Promise<T | undefined> {
    const seq = ++this.#seq;
    this.loading = true;
    try {
      const v = await fn();
      if (seq === this.#seq) {
        this.value = v;
        this.error = null;
      }
      return v;
    } catch (e) {
      if (seq === this.#seq) this.error = errorMessage(e);
      return undefined;
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }

  /** Back to "nothing loaded" (what it showed was removed). */
  clear(): void {
    this.#seq++;
    this.value = undefined;
    this.error = null;
    this.loading = false;
  }

  set(v: T): void {
    this.#seq++;
    this.value = v;
    this.error = null;
    this.loading = false;
  }
}

/** A user action (button): busy while it runs, its error shown next to the button. */
export class Action {
  busy = $state(false);
  error: string | null = $state(null);

  async run<R>(fn: () => Promise<R>): Promise<R | undefined> {
    if (this.busy) return undefined;
    this.busy = true;
    this.error = null;
    try {
      return await fn();
    } catch (e) {
      this.error = errorMessage(e);
      return undefined;
    } finally {
      this.busy = false;
    }
  }

  clear(): void {
    this.error = null;
  }
}
