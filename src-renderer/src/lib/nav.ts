/** The views and keyboard movement between their tabs. Pure. */

export const VIEWS = [
  { id: 'workstation', label: 'Workstation' },
  { id: 'profile', label: 'Profile' },
  { id: 'predictor', label: 'Predictor' },
  { id: 'workloads', label: 'Workloads' },
  { id: 'plans', label: 'Plans' },
  { id: 'serving', label: 'Serving' },
  { id: 'library', label: 'Library' },
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

export function isViewId(s: string): s is ViewId {
  return VIEWS.some((v) => v.id === s);
}

/** The view named by a location hash ("#/plans", "#plans"), else the first. */
export function viewFromHash(hash: string): ViewId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return isViewId(id) ? id : 'workstation';
}

/**
 * Index of the tab a key moves to from `current` (of `count`), or null for other keys:
 * arrows (both axes) wrap around, Home and End go to the ends.
 */
export function tabIndexForKey(key: string, current: number, count: number): number | null {
  if (count <= 0) return null;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return (current + 1) % count;
    case 'ArrowLeft':
    case 'ArrowUp':
      return (current - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
