/** The contract's channel names alone (the preload needs these, not the schemas). Pure. */
export const CHANNEL_NAME_LIST = [
  'app:info',
  'machine:list',
  'machine:get',
  'machine:probe',
  'machine:import',
  'machine:export',
  'machine:remove',
  'machine:compare',
  'profile:runs',
  'profile:roofline',
  'profile:start',
  'profile:estimate',
  'predictor:list',
  'predictor:train',
  'predictor:evaluate',
  'predictor:report',
  'workload:list',
  'workload:catalog',
  'workload:add',
  'workload:predict',
  'workload:fit',
  'workload:remove',
  'workload:measure',
  'plan:create',
  'serving:plan',
  'job:list',
  'job:get',
  'job:cancel',
  'dialog:open',
  'dialog:save',
] as const;

export type ChannelNameFromList = (typeof CHANNEL_NAME_LIST)[number];

export const JOB_EVENT_CHANNEL = 'job:event';

export function isChannelName(name: string): name is ChannelNameFromList {
  return (CHANNEL_NAME_LIST as readonly string[]).includes(name);
}
