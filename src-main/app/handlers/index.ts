/** Every channel's handler, in one table checked against the contract. */
import type { ChannelName } from '../../api/contract.js';
import { appHandlers } from './app-handlers.js';
import { dialogHandlers } from './dialog-handlers.js';
import { jobHandlers } from './job-handlers.js';
import { machineHandlers } from './machine-handlers.js';
import { planHandlers } from './plan-handlers.js';
import { predictorHandlers } from './predictor-handlers.js';
import { profileHandlers } from './profile-handlers.js';
import { servingHandlers } from './serving-handlers.js';
import type { HandlerGroup } from './types.js';
import { workloadHandlers } from './workload-handlers.js';

export const HANDLERS: HandlerGroup<ChannelName> = {
  ...appHandlers,
  ...machineHandlers,
  ...profileHandlers,
  ...predictorHandlers,
  ...workloadHandlers,
  ...planHandlers,
  ...servingHandlers,
  ...jobHandlers,
  ...dialogHandlers,
};
