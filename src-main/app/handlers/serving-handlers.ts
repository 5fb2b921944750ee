import { UserError } from '../../core/errors.js';
import type { HandlerGroup } from './types.js';

export const servingHandlers: HandlerGroup<'serving:plan'> = {
  'serving:plan': () => {
    throw new UserError('serving:plan: the capacity search is not wired yet (branch h61-plan)');
  },
};
